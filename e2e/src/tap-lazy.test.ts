// The separate tap (bin/sluice-tap) starts, checks, forwards and serves its metrics without loading
// the gRPC library, the configuration schema or @sluice/clients' index (support/refuse-tap-heavy.ts
// makes loading any of them fail): they cost it ~7 MB of idle RSS (bench/src/tap-rss.ts).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { startCannedAgent } from '@sluice/tap/testing';
import { ROOT } from './support/processes.js';

const HOOK = pathToFileURL(path.join(ROOT, 'e2e', 'dist', 'support', 'refuse-tap-heavy.js')).href;

function get(url: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    http.get(url, { agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => { text += c; });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    }).on('error', reject);
  });
}

test('the hook refuses what it names: a process importing @grpc/grpc-js under it fails', { timeout: 30_000 }, async () => {
  const child = spawn(process.execPath, ['--import', HOOK, '--input-type=module', '-e', 'await import("@grpc/grpc-js")'], { cwd: path.join(ROOT, 'libs', 'tap'), stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  child.stderr.on('data', (d: Buffer) => { err += d.toString(); });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  assert.notEqual(code, 0);
  assert.match(err, /refused: .*@grpc\/grpc-js/);
});

test('the separate tap checks, forwards and serves metrics without loading gRPC, the configuration schema or the clients index', { timeout: 60_000 }, async (t) => {
  const workload = http.createServer((req, res) => res.end(`workload saw ${req.url}`));
  await new Promise<void>((resolve) => workload.listen(0, '127.0.0.1', resolve));
  t.after(() => { workload.closeAllConnections(); workload.close(); });
  const agent = await startCannedAgent((r) => (r.request.path === '/limited'
    ? { response: { http_response: 'denied_response', denied_response: { status: 429, headers: [], body: 'rate limited' } } }
    : { response: { http_response: 'ok_response', ok_response: { headers: [] } } }));
  t.after(() => agent.close());
  const env = { ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('SLUICE_TAP_'))), SLUICE_NODE_FLAGS: `--import=${HOOK}` };
  const child = spawn(path.join(ROOT, 'bin', 'sluice-tap'), ['--listen', '127.0.0.1:0', '--admin', '127.0.0.1:0',
    '--upstream', `http://127.0.0.1:${(workload.address() as AddressInfo).port}`, '--agent', agent.address, '--control-point', 'ingress', '--check-timeout', '5s'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  t.after(() => { if (child.exitCode === null) child.kill('SIGKILL'); });
  let err = '';
  const ports = await new Promise<{ listen: number; admin: number }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`sluice-tap did not start: ${err}`)), 30_000);
    child.stderr.on('data', (d: Buffer) => {
      err += d.toString();
      const line = err.split('\n').find((l) => l.includes('"tap started"'));
      if (line === undefined) return;
      clearTimeout(timer);
      const meta = (JSON.parse(line) as { meta: { listen: { port: number }; admin: { port: number } } }).meta;
      resolve({ listen: meta.listen.port, admin: meta.admin.port });
    });
    child.once('exit', (code) => { clearTimeout(timer); reject(new Error(`sluice-tap exited ${code}: ${err}`)); });
  });
  const ok = await get(`http://127.0.0.1:${ports.listen}/items`);
  assert.deepEqual(ok, { status: 200, text: 'workload saw /items' });
  const denied = await get(`http://127.0.0.1:${ports.listen}/limited`);
  assert.deepEqual(denied, { status: 429, text: 'rate limited' });
  assert.equal(agent.requests.length, 2, 'both requests were checked by the agent');
  const metrics = await get(`http://127.0.0.1:${ports.admin}/metrics`);
  assert.match(metrics.text, /^tap_requests_total\{decision="accepted"\} 1$/m);
  assert.match(metrics.text, /^tap_requests_total\{decision="rejected"\} 1$/m);
  assert.doesNotMatch(err, /refused/);
});
