// `make demo`'s script run the way CI runs it (CI set, no terminal): real etcd,
// Prometheus, controller, two agents, taps and traffic. It must apply the
// rate-limit policy with sluicectl, show the heavy user rejected and the others
// not, print a preview through the controller, exit 0 by itself, and leave
// nothing running.
import assert from 'node:assert/strict';
import net from 'node:net';
import { join } from 'node:path';
import { test } from 'node:test';
import { cleanEnv, ROOT, spawnProc, tempDir } from './support/processes.js';

interface Row { sent: number; accepted: number; rejected: number }

/** The per-user rows of the counts table under the line starting with `title`. */
function table(out: string, title: string): Map<string, Row> {
  const lines = out.split('\n');
  const at = lines.findIndex((l) => l.startsWith(title));
  assert.ok(at >= 0, `no "${title}" in the demo's output:\n${out}`);
  const rows = new Map<string, Row>();
  for (const line of lines.slice(at + 2)) {
    const m = /^ {2}(\S+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)$/.exec(line);
    if (m === null) break;
    rows.set(m[1] ?? '', { sent: Number(m[2]), accepted: Number(m[3]), rejected: Number(m[4]) });
  }
  return rows;
}

/** True when something accepts TCP connections on 127.0.0.1:`port`. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1');
    s.once('connect', () => { s.destroy(); resolve(true); });
    s.once('error', () => resolve(false));
  });
}

test('the local demo applies the per-user rate limit, rejects only the heavy user, previews, and stops everything by itself', { timeout: 300_000 }, async (t) => {
  const dir = tempDir(t, 'sluice-demo-e2e-');
  const proc = spawnProc(t, process.execPath, [join(ROOT, 'deploy/local/demo.mjs')], cleanEnv({ CI: '1', SLUICE_DEMO_DIR: dir }));
  const exit = await proc.exited;
  const out = proc.output();
  assert.deepEqual(exit, { code: 0, signal: null }, out);
  t.diagnostic(out.split('\n').filter((l) => /^(before|with the policy| {2}\S+ +\d+ +\d+|both agents|rejected with)/.test(l)).join(' | '));

  const before = table(out, 'before any policy');
  assert.deepEqual([...before.keys()].sort(), ['alice', 'bob', 'crawler-7']);
  assert.ok((before.get('crawler-7')?.sent ?? 0) > 0, 'traffic flowed before the policy');
  for (const [user, row] of before) assert.equal(row.rejected, 0, `${user} is not limited before the policy`);
  assert.match(out, /^\$ sluicectl apply policy -f deploy\/examples\/rate-limit\.yaml\npolicy rate-limit-per-user applied \(deploy\/examples\/rate-limit\.yaml\)$/m);
  assert.match(out, /both agents list rate-limit-per-user in GET \/v1\/policies\/enforced \d+ ms after sluicectl applied it/);
  const after = table(out, 'with the policy');
  const crawler = after.get('crawler-7');
  assert.ok(crawler !== undefined && crawler.rejected > 0 && crawler.accepted > 0, `crawler-7 limited, not blocked:\n${out}`);
  assert.equal(after.get('alice')?.rejected, 0);
  assert.equal(after.get('bob')?.rejected, 0);
  assert.match(out, /^rejected with 429: crawler-7$/m);

  // sluicectl lists both agents, which dialled the controller.
  assert.match(out, /^\$ sluicectl agents\n[\s\S]*?default[^\n]*\n[^\n]*default/m);
  // The preview narrowed to crawler-7's POSTs, through the controller, printed matching samples.
  const preview = /narrowed to crawler-7's POSTs[^\n]*\n\$ sluicectl [^\n]*\n(\{[\s\S]*?\n\})\n/.exec(out);
  assert.ok(preview !== null, `no preview in:\n${out}`);
  type Sample = { attributes: { request: { http: { method: string; headers: Record<string, string> } } } };
  const answers = (JSON.parse(preview[1] ?? '{}') as { answers: Array<{ status: number; body: { samples: Sample[] } }> }).answers;
  const samples = answers.flatMap((a) => (a.status === 200 ? a.body.samples : []));
  assert.ok(samples.length >= 1, preview[1]);
  for (const sample of samples) {
    assert.equal(sample.attributes.request.http.method, 'POST');
    assert.equal(sample.attributes.request.http.headers.user, 'crawler-7');
  }

  assert.match(out, /^sluicectl: [^\n]*bucket_capacity[^\n]*\n(?:[^\n]*\n)*?exit status 1$/m);
  assert.match(out, /rate-limit-per-user\s*│\s*running/);
  assert.match(out, /etcd connected, synced true: [^\n]*rate-limit-per-user\/root\.0/);
  assert.match(out, /flux_meter_count\{flux_meter_name="demo-ingress"/);
  assert.match(out, /^everything the demo started is stopped; logs and configuration are kept in /m);

  // Nothing it started still listens: etcd, Prometheus, the controller and the agents.
  const ports = [...out.matchAll(/^(?:etcd|prometheus|controller|agent-[ab]) +http:\/\/127\.0\.0\.1:(\d+)/gm)].map((m) => Number(m[1]));
  assert.equal(ports.length, 5, out);
  for (const port of ports) assert.equal(await listening(port), false, `port ${port} still open`);
});
