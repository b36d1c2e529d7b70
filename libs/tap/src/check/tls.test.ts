import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { okAnswerFrame, startRawAgent } from '../testing/raw-agent.js';
import { CheckHttpClient } from './client.js';
import type { CheckHTTPRequest } from './types.js';

const REQUEST: CheckHTTPRequest = {
  source: { protocol: 'TCP', address: '127.0.0.1', port: 1 },
  destination: { protocol: 'TCP', address: '127.0.0.1', port: 2 },
  control_point: 'ingress',
  request: { method: 'GET', headers: {}, path: '/tls', host: 'h', scheme: 'http', size: -1, protocol: 'HTTP/1.1', body: '', truncated_body: false },
  ramp_mode: false,
};

/** A self-signed certificate for 127.0.0.1, made with openssl. */
function selfSigned(): { key: string; cert: string } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sluice-tap-tls-'));
  try {
    execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', 'k.pem', '-out', 'c.pem',
      '-days', '1', '-subj', '/CN=agent', '-addext', 'subjectAltName=IP:127.0.0.1'], { cwd: dir, stdio: 'pipe' });
    return { key: readFileSync(path.join(dir, 'k.pem'), 'utf8'), cert: readFileSync(path.join(dir, 'c.pem'), 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('with TLS the checks go over h2 on TLS, the agent verified against the given CA; an unknown CA fails open', async (t) => {
  const material = selfSigned();
  const agent = await startRawAgent((call, id) => call.stream.write(okAnswerFrame(id, 'secure')), { tls: material });
  t.after(() => agent.close());
  const trusting = new CheckHttpClient(agent.address, { connection: { tls: { ca: material.cert } } });
  t.after(() => trusting.shutdown());
  const outcome = await trusting.check(REQUEST, 5000);
  assert.equal(outcome.kind === 'answer' ? outcome.response.ok_response?.headers[0]?.value : outcome.reason, 'secure');
  const doubting = new CheckHttpClient(agent.address, { connection: { tls: {} } });
  t.after(() => doubting.shutdown());
  const refused = await doubting.check(REQUEST, 5000);
  assert.equal(refused.kind === 'failed' ? refused.reason : 'answered', 'unavailable');
  assert.equal(agent.calls.length, 1, 'no check reached the agent over the unverified connection');
});

test('a connection that does not come up within the connect timeout is dropped: the check fails open as unavailable, not at its deadline', async (t) => {
  // Takes the TCP connection and never answers the TLS handshake.
  const sockets = new Set<net.Socket>();
  const silent = net.createServer((s) => { sockets.add(s); s.on('error', () => undefined); });
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise<void>((resolve) => { for (const s of sockets) s.destroy(); silent.close(() => resolve()); }));
  const port = (silent.address() as net.AddressInfo).port;
  const client = new CheckHttpClient(`127.0.0.1:${port}`, { connection: { tls: {}, connectTimeoutMs: 200 } });
  t.after(() => client.shutdown());
  const started = Date.now();
  const outcome = await client.check(REQUEST, 8000);
  assert.equal(outcome.kind === 'failed' ? outcome.reason : 'answered', 'unavailable');
  assert.ok(Date.now() - started < 4000, `settled after ${Date.now() - started} ms, by the connect timeout rather than the deadline`);
  assert.equal(sockets.size, 1, 'the connection was made and given up on');
});
