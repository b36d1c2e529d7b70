// A real sluice-tap in front of a real workload, asking a real agent that enforces a local rate limiter
// on http.target =~ ^/admin (one token per target, no refill within the test). Every other spelling of
// an /admin path (absolute-form, //, /./, /x/../, %61) is limited as /admin is, shares the bucket of the
// plain path, and reaches the workload as the normal path; ambiguous targets are refused with 400.
import assert from 'node:assert/strict';
import net from 'node:net';
import { test } from 'node:test';
import { startWorkload } from './support/clients.js';
import { startAgent, startTap, tempDir, writeFile } from './support/processes.js';

const LIMITER = `
- name: admin-per-target
  control_point: ingress
  label_matcher: { expression: { label_matches: { label: http.target, regex: "^/admin" } } }
  label_key: http.target
  bucket_capacity: 1
  fill_amount: 1
  interval: 1h
  continuous_fill: false
`;

/** Sends one request as written (no client normalizes it) and answers the status. */
function rawStatus(port: number, target: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let text = '';
    const timer = setTimeout(() => { socket.destroy(); reject(new Error(`no answer to ${target}`)); }, 10_000);
    socket.on('data', (d: Buffer) => {
      text += d.toString('latin1');
      const m = /^HTTP\/1\.1 (\d{3})/.exec(text);
      if (m !== null && text.includes('\r\n\r\n')) {
        clearTimeout(timer);
        socket.destroy();
        resolve(Number(m[1]));
      }
    });
    socket.on('error', (err) => { clearTimeout(timer); reject(err); });
    socket.write(`GET ${target} HTTP/1.1\r\nHost: web\r\nConnection: close\r\n\r\n`);
  });
}

test('sluice-tap with a real agent: every spelling of /admin is limited as /admin, and the workload gets the normal path', { timeout: 120_000 }, async (t) => {
  const limiters = writeFile(tempDir(t), 'limiters.yaml', LIMITER);
  const agent = await startAgent(t, { args: ['--local-limiters', limiters], ready: 'live' });
  const workload = await startWorkload(t);
  const tap = await startTap(t, workload.url, agent.address, 'ingress', ['--check-timeout', '2s']);

  const variants: [string, string][] = [
    ['http://api/admin/u1', '/admin/u1'],
    ['//admin/u2', '/admin/u2'],
    ['/./admin/u3', '/admin/u3'],
    ['/x/../admin/u4', '/admin/u4'],
    ['/%61dmin/u5', '/admin/u5'],
    ['/admin//u6/.', '/admin/u6/'],
    ['/a/b/%2E%2E/../admin/u7?q=1', '/admin/u7?q=1'],
  ];
  for (const [spelling, normal] of variants) {
    const before = workload.seen.length;
    assert.equal(await rawStatus(tap.listen, spelling), 200, `${spelling}: the first of its bucket`);
    assert.equal(workload.seen.length, before + 1);
    assert.equal(workload.seen.at(-1)?.url, normal, `${spelling} reaches the workload as ${normal}`);
    assert.equal(await rawStatus(tap.listen, normal), 429, `${normal} after ${spelling}: the same bucket`);
    assert.equal(await rawStatus(tap.listen, spelling), 429, `${spelling} again: limited`);
    assert.equal(workload.seen.length, before + 1, 'the limited requests never reached the workload');
  }
  assert.equal(workload.seen.find((s) => s.url === '/admin/u1')?.headers.host, 'api', 'absolute-form: the host of the URI');

  // The plain path and its spellings after it.
  assert.equal(await rawStatus(tap.listen, '/admin/users'), 200);
  for (const spelling of ['http://api/admin/users', '//admin/users', '/./admin/users', '/x/../admin/users', '/%61dmin/users']) {
    assert.equal(await rawStatus(tap.listen, spelling), 429, spelling);
  }

  // Ambiguous targets: refused before anyone is asked.
  const seen = workload.seen.length;
  for (const target of ['/admin%2Fusers', '/x%5C..%5Cadmin', '/../admin/users', '/admin%00', '/x\\..\\admin']) {
    assert.equal(await rawStatus(tap.listen, target), 400, target);
  }
  assert.equal(workload.seen.length, seen);
});
