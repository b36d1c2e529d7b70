import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
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
  t.after(() => trusting.close());
  const outcome = await trusting.check(REQUEST, 5000);
  assert.equal(outcome.kind === 'answer' ? outcome.response.ok_response?.headers[0]?.value : outcome.reason, 'secure');
  const doubting = new CheckHttpClient(agent.address, { connection: { tls: {} } });
  t.after(() => doubting.close());
  const refused = await doubting.check(REQUEST, 5000);
  assert.equal(refused.kind === 'failed' ? refused.reason : 'answered', 'unavailable');
  assert.equal(agent.calls.length, 1, 'no check reached the agent over the unverified connection');
});
