// The real sluice-tap asking a real agent that serves TLS (server.tls): with --agent-tls-ca its
// checks are decided and enforced; without it (or with the wrong CA) every request would go
// through unchecked, so the tap says so: a log line, tap_agent_reachable 0, /readyz 503 after
// --agent-unavailable-grace (unless --fail-open-silently).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import https from 'node:https';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { Etcd3 } from 'etcd3';
import { startWorkload } from './support/clients.js';
import { endpointsJson, startEtcd } from './support/etcd.js';
import { startAgent, startTap, tempDir, until, type TapProcess } from './support/processes.js';

/** A CA and an agent certificate for 127.0.0.1 signed by it, and a second CA that signed nothing, made with openssl. */
function certificates(t: TestContext): { dir: string; ca: string; otherCa: string; cert: string; key: string; pem: string } {
  const dir = tempDir(t, 'sluice-tap-tls-');
  const run = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  for (const name of ['ca', 'other']) {
    run('req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', `${name}.key`, '-out', `${name}.crt`, '-days', '1', '-subj', `/CN=${name}`);
  }
  run('req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', 'agent.key', '-out', 'agent.csr', '-subj', '/CN=agent');
  execFileSync('sh', ['-c', 'printf "subjectAltName=IP:127.0.0.1\\n" > san.ext'], { cwd: dir });
  run('x509', '-req', '-in', 'agent.csr', '-CA', 'ca.crt', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'agent.crt', '-days', '1', '-extfile', 'san.ext');
  return { dir, ca: join(dir, 'ca.crt'), otherCa: join(dir, 'other.crt'), cert: join(dir, 'agent.crt'), key: join(dir, 'agent.key'), pem: execFileSync('cat', [join(dir, 'ca.crt')]).toString() };
}

function httpsStatus(url: string, ca: string): Promise<number> {
  return new Promise((resolve) => {
    const req = https.get(url, { ca, agent: false }, (res) => { res.resume(); resolve(res.statusCode ?? 0); });
    req.on('error', () => resolve(0));
  });
}

async function status(url: string, headers: Record<string, string> = {}): Promise<number> {
  const r = await fetch(url, { headers });
  await r.arrayBuffer();
  return r.status;
}

const metric = async (tap: TapProcess, line: RegExp): Promise<string | undefined> => {
  const text = await (await fetch(`http://127.0.0.1:${tap.admin}/metrics`)).text();
  return text.split('\n').find((l) => line.test(l));
};

test('sluice-tap and an agent serving TLS: checks enforced with --agent-tls-ca; without it the tap is loud and not ready', { timeout: 120_000 }, async (t) => {
  const tls = certificates(t);
  const server = await startEtcd(t);
  const etcd = new Etcd3({ hosts: [server.endpoint] });
  t.after(() => etcd.close());
  const agent = await startAgent(t, {
    ready: false,
    env: { SLUICE_AGENT_ETCD_ENDPOINTS: endpointsJson(server), SLUICE_AGENT_SERVER_TLS_ENABLED: 'true', SLUICE_AGENT_SERVER_TLS_CERT_FILE: tls.cert, SLUICE_AGENT_SERVER_TLS_KEY_FILE: tls.key },
  });
  await until(async () => (await httpsStatus(`https://127.0.0.1:${agent.port}/v1/status/system/readiness`, tls.pem)) === 200, 30_000, 'agent readiness over TLS');
  // One request an hour per user at control point tls-e2e.
  const CP = 'tls-e2e';
  await etcd.put('sluice/decisions/default/per-user/root.0').value(JSON.stringify({ kind: 'rate_limiter', bucket_capacity: 1, fill_amount: 0, pass_through: false }));
  await etcd.put('sluice/config/default/per-user/root.0').value(JSON.stringify({
    kind: 'rate_limiter', policy_name: 'per-user', policy_hash: 'h1', component_id: 'root.0', agent_group: 'default',
    selectors: [{ control_point: CP, agent_group: 'default' }],
    parameters: { label_key: 'http.request.header.x_user', interval_ms: 3_600_000, continuous_fill: false, max_idle_time_ms: 7_200_000, lazy_sync: { enabled: false, num_sync: 4 } },
  }));
  const workload = await startWorkload(t);

  // With the CA: the limiter answers, the second request of a user is rejected.
  const trusting = await startTap(t, workload.url, agent.address, CP, ['--check-timeout', '2s', '--agent-tls-ca', tls.ca, '--agent-unavailable-grace', '1s']);
  let user = 0;
  await until(async () => {
    const u = `u${user++}`;
    return (await status(`${trusting.base}/orders`, { 'x-user': u })) === 200 && (await status(`${trusting.base}/orders`, { 'x-user': u })) === 429;
  }, 30_000, 'the second request of a user is rejected through the TLS tap');
  assert.equal(await status(`http://127.0.0.1:${trusting.admin}/readyz`), 200);
  assert.equal(await metric(trusting, /^tap_agent_reachable /), 'tap_agent_reachable 1');
  assert.equal(await metric(trusting, /^tap_fail_open_total\{reason="unavailable"\}/), 'tap_fail_open_total{reason="unavailable"} 0');
  assert.match(trusting.output(), /"agent_tls":true/);

  // Plaintext to the TLS agent, or the wrong CA: requests go through unchecked, and the tap says so.
  for (const extra of [[], ['--agent-tls-ca', tls.otherCa]]) {
    const blind = await startTap(t, workload.url, agent.address, CP, ['--check-timeout', '300ms', '--agent-unavailable-grace', '1s', ...extra]);
    assert.equal(await status(`${blind.base}/orders`, { 'x-user': 'same' }), 200);
    assert.equal(await status(`${blind.base}/orders`, { 'x-user': 'same' }), 200, 'not enforced: the checks never reached the agent');
    await until(async () => (await status(`http://127.0.0.1:${blind.admin}/readyz`)) === 503, 10_000, `not ready ${JSON.stringify(extra)}`);
    assert.equal(await status(`http://127.0.0.1:${blind.admin}/healthz`), 200, 'alive all the same');
    assert.equal(await metric(blind, /^tap_agent_reachable /), 'tap_agent_reachable 0');
    assert.match(await metric(blind, /^tap_fail_open_total\{reason="unavailable"\}/) ?? '', /^tap_fail_open_total\{reason="unavailable"\} [1-9]/);
    await until(() => /"agent unreachable: requests go through unchecked/.test(blind.output()), 5000, 'the log line');
  }

  // --fail-open-silently: ready all the same, still logged and counted.
  const silent = await startTap(t, workload.url, agent.address, CP, ['--check-timeout', '300ms', '--agent-unavailable-grace', '500ms', '--fail-open-silently']);
  assert.equal(await status(`${silent.base}/orders`, { 'x-user': 'x' }), 200);
  await until(() => /"agent unreachable: requests go through unchecked/.test(silent.output()), 10_000, 'the log line');
  assert.equal(await status(`http://127.0.0.1:${silent.admin}/readyz`), 200);
  assert.equal(await metric(silent, /^tap_agent_reachable /), 'tap_agent_reachable 0');
});

test('sluice-tap refuses to start with a TLS file it cannot read', { timeout: 30_000 }, async (t) => {
  const workload = await startWorkload(t);
  await assert.rejects(startTap(t, workload.url, '127.0.0.1:1', 'x', ['--agent-tls-ca', '/nonexistent/ca.crt']), /--agent-tls-ca \/nonexistent\/ca\.crt: cannot be read/);
});
