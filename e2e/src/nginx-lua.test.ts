// Real nginx with the shipped Lua access handler (deploy/nginx) in front of a
// workload, asking a real agent: a local limiter's denials come back from
// nginx with 429 and Retry-After, an agent that is away is failed open within
// the check timeout (logged and counted), a stalled agent is failed open after
// it, and a published flux meter measures
// the flows nginx reports the end of.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import http from 'node:http';
import { join } from 'node:path';
import type net from 'node:net';
import { test, type TestContext } from 'node:test';
import { Etcd3 } from 'etcd3';
import { startWorkload } from './support/clients.js';
import { endpointsJson, startEtcd } from './support/etcd.js';
import { NGINX_BIN, nginxCounters, startNginx, writeNginxConfig } from './support/nginx.js';
import { startAgent, tempDir, until, writeFile } from './support/processes.js';

async function through(base: string, path: string): Promise<{ status: number; headers: Headers; text: string }> {
  const r = await fetch(`${base}${path}`);
  return { status: r.status, headers: r.headers, text: await r.text() };
}

/** A workload that answers after `ms`. */
async function slowWorkload(t: TestContext, ms: number): Promise<number> {
  const server = http.createServer((_req, res) => { setTimeout(() => res.end('slow'), ms); });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }));
  return (server.address() as net.AddressInfo).port;
}

test('nginx answers a local limiter\'s denials with 429 and Retry-After; the workload sees only admitted requests', { timeout: 60_000 }, async (t) => {
  const limiters = writeFile(tempDir(t), 'limiters.yaml',
    '- { control_point: ingress, label_key: http.request.header.x_user, bucket_capacity: 2, fill_amount: 1, interval: 30s }\n');
  const agent = await startAgent(t, { args: ['--local-limiters', limiters], ready: 'live' });
  const workload = await startWorkload(t);
  // A generous timeout: a freshly started agent on a busy machine must not be failed open here.
  const nginx = await startNginx(t, { agentPort: agent.port, upstreamPort: workload.port, checkTimeoutMs: 10_000 });

  const send = (user: string) => fetch(`${nginx.base}/items?n=1`, { headers: { 'x-user': user } }).then(async (r) => ({ status: r.status, retry: r.headers.get('retry-after'), text: await r.text() }));
  const a = [await send('ann'), await send('ann'), await send('ann')];
  assert.deepEqual(a.map((r) => r.status), [200, 200, 429], nginx.errorLog());
  assert.match(a[2].retry ?? '', /^[1-9]\d*$/, 'Retry-After in whole seconds');
  assert.ok(Number(a[2].retry) <= 30);
  assert.equal((await send('bob')).status, 200, 'another user has their own bucket');
  assert.equal(workload.seen.length, 3, 'the denied request never reached the workload');
  assert.equal(workload.seen[0].url, '/items?n=1');
  const c = await nginxCounters(nginx);
  assert.deepEqual({ checks: c.checks, accepted: c.accepted, rejected: c.rejected, fail_open: c.fail_open }, { checks: 4, accepted: 3, rejected: 1, fail_open: 0 });
  const cps = await (await fetch(`${agent.base}/v1/flowcontrol/controlpoints`)).text();
  assert.ok(cps.includes('"ingress"'), 'the agent saw the control point');
});

test('agent killed: requests through nginx fail open within the check timeout, logged and counted', { timeout: 60_000 }, async (t) => {
  const limiters = writeFile(tempDir(t), 'limiters.yaml', '- { control_point: ingress, bucket_capacity: 0, fill_amount: 1, interval: 1s }\n');
  const agent = await startAgent(t, { args: ['--local-limiters', limiters], ready: 'live' });
  const workload = await startWorkload(t);
  const nginx = await startNginx(t, { agentPort: agent.port, upstreamPort: workload.port, checkTimeoutMs: 2000 });
  assert.equal((await through(nginx.base, '/x')).status, 429, 'the agent rejects everything while it runs');

  agent.child.kill('SIGKILL');
  await agent.exited;
  for (let i = 0; i < 3; i++) {
    const started = performance.now();
    const r = await through(nginx.base, `/after-${i}`);
    const took = performance.now() - started;
    assert.equal(r.status, 200, `request ${i} let through`);
    assert.ok(took < 5000, `request ${i} failed open in ${took} ms (timeout 2 s)`);
  }
  assert.deepEqual(workload.seen.map((s) => s.url), ['/after-0', '/after-1', '/after-2']);
  const c = await nginxCounters(nginx);
  assert.equal(c.fail_open, 3);
  assert.equal(c.rejected, 1);
  assert.match(nginx.errorLog(), /sluice: agent check failed, request let through \(fail open\)/);
  assert.match(nginx.errorLog(), /sluice: the check stream to the agent is down/);

  // An agent back on the same port: the worker's check stream reconnects and the limiter decides again.
  await startAgent(t, { args: ['--local-limiters', limiters], ready: 'live', env: { SLUICE_AGENT_SERVER_LISTENER_ADDR: `127.0.0.1:${agent.port}` } });
  await until(async () => (await through(nginx.base, '/back')).status === 429, 20_000, 'nginx asks the restarted agent again');
});

/** A listener standing in for a stalled agent: with `upgrade`, it opens the check stream and then never answers a check; without, it accepts and never answers at all. */
async function stalledAgent(t: TestContext, upgrade: boolean): Promise<{ port: number; upgraded: Promise<void> }> {
  const hang = http.createServer(() => undefined);
  const sockets = new Set<net.Socket>();
  let upgraded = (): void => undefined;
  const upgradedP = new Promise<void>((resolve) => { upgraded = resolve; });
  if (upgrade) {
    hang.on('upgrade', (_req, socket: net.Socket) => {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.write('HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: sluice-checkhttp-ndjson\r\n\r\n', () => upgraded());
    });
  }
  await new Promise<void>((resolve) => hang.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise<void>((resolve) => {
    for (const s of sockets) s.destroy();
    hang.closeAllConnections();
    hang.close(() => resolve());
  }));
  return { port: (hang.address() as net.AddressInfo).port, upgraded: upgradedP };
}

test('a check that hangs: nginx fails open after the read timeout', { timeout: 60_000 }, async (t) => {
  const workload = await startWorkload(t);
  const agent = await stalledAgent(t, true);
  // A timeout long enough that the stream's upgrade is answered within it on a loaded machine.
  const nginx = await startNginx(t, { agentPort: agent.port, upstreamPort: workload.port, checkTimeoutMs: 1000 });
  await agent.upgraded;
  for (let i = 0; i < 2; i++) {
    const started = performance.now();
    const r = await through(nginx.base, `/stalled-${i}`);
    const took = performance.now() - started;
    assert.equal(r.status, 200);
    assert.ok(took >= 950, `request ${i} waited for the check timeout (${took} ms): ${nginx.errorLog()}`);
    assert.ok(took < 5000, `request ${i} failed open in ${took} ms`);
  }
  assert.equal((await nginxCounters(nginx)).fail_open, 2);
  const failOpens = nginx.errorLog().match(/sluice: agent check failed, request let through \(fail open\): no answer within 1000 ms/g) ?? [];
  assert.equal(failOpens.length, 2, nginx.errorLog());
  assert.doesNotMatch(nginx.errorLog(), /lua tcp socket read timed out/, 'one line per fail open, the handler\'s');
});

test('an agent that never opens the check stream: nginx fails open within the timeout', { timeout: 60_000 }, async (t) => {
  const workload = await startWorkload(t);
  const nginx = await startNginx(t, { agentPort: (await stalledAgent(t, false)).port, upstreamPort: workload.port, checkTimeoutMs: 200 });
  // The worker's stream may be part-way through its upgrade (its timeout started before this
  // request) or backing off after one: either way the request is let through in bounded time.
  const started = performance.now();
  const r = await through(nginx.base, '/stalled');
  const took = performance.now() - started;
  assert.equal(r.status, 200);
  assert.ok(took < 3000, `failed open in ${took} ms`);
  assert.equal((await nginxCounters(nginx)).fail_open, 1);
  assert.match(nginx.errorLog(), /sluice: agent check failed, request let through \(fail open\): (agent unavailable: )?upgrade: timeout/);
  assert.doesNotMatch(nginx.errorLog(), /lua tcp socket read timed out/, 'one line per fail open, the handler\'s');
});

test('a published flux meter measures the durations of flows nginx reports the end of', { timeout: 90_000 }, async (t) => {
  const etcd = await startEtcd(t);
  const raw = new Etcd3({ hosts: [etcd.endpoint] });
  t.after(() => raw.close());
  const agent = await startAgent(t, { env: { SLUICE_AGENT_ETCD_ENDPOINTS: endpointsJson(etcd) } });
  await raw.put('sluice/config/default/shop/flux_meter.edge').value(JSON.stringify({
    kind: 'flux_meter', policy_name: 'shop', policy_hash: 'h1', component_id: 'flux_meter.edge', agent_group: 'default',
    selectors: [{ control_point: 'ingress', agent_group: 'default' }], name: 'edge', attribute_key: 'workload_duration_ms', buckets: [50, 1000],
  }));
  await until(async () => (await (await fetch(`${agent.base}/v1/policies/enforced`)).text()).includes('flux_meter.edge'), 10_000, 'flux meter enforced');
  const nginx = await startNginx(t, { agentPort: agent.port, upstreamPort: await slowWorkload(t, 120), checkTimeoutMs: 10_000 });
  for (let i = 0; i < 4; i++) assert.equal((await through(nginx.base, `/slow/${i}`)).status, 200);

  await until(async () => (await nginxCounters(nginx)).flow_ends === 4, 5000, 'four flow ends delivered');
  const metrics = await (await fetch(`${agent.base}/metrics`)).text();
  const series = 'flux_meter_name="edge",policy_name="shop",decision_type="DECISION_TYPE_ACCEPTED",response_status="200",http_status_code="200",flow_status="OK"';
  assert.match(metrics, new RegExp(`flux_meter_count\\{${series}\\} 4\\n`));
  assert.match(metrics, new RegExp(`flux_meter_bucket\\{${series},le="50"\\} 0\\n`), 'every flow took the workload\'s 120 ms');
  assert.match(metrics, new RegExp(`flux_meter_bucket\\{${series},le="1000"\\} 4\\n`));
  assert.match(metrics, /flow_ends_total\{source="otlp",result="recorded"\} 4/);
  assert.equal((await nginxCounters(nginx)).flow_end_errors, 0);
});

test('a misspelt or mistyped handler option stops nginx at start-up, naming it', { timeout: 30_000 }, (t) => {
  const cases: Array<[string, (s: string) => string, RegExp]> = [
    ['misspelt', (s) => s.replace('control_point = "ingress"', 'control_pont = "ingress"'), /sluice: unknown option control_pont/],
    ['mistyped', (s) => s.replace('agent_port = 9,', 'agent_port = "9",'), /sluice: option agent_port wants a number/],
  ];
  for (const [what, edit, message] of cases) {
    const dir = tempDir(t, 'sluice-nginx-');
    const conf = writeNginxConfig(dir, 1, { agentPort: 9, upstreamPort: 9, editHttpSnippet: (s) => { const e = edit(s); assert.notEqual(e, s, what); return e; } });
    // `nginx -t` does not run init_by_lua: start it (a good config would run until the spawn's timeout).
    const r = spawnSync(NGINX_BIN, ['-p', dir, '-c', conf, '-e', join(dir, 'error.log')], { encoding: 'utf8', timeout: 10_000 });
    assert.equal(r.status, 1, `${what}: ${r.stderr}`);
    assert.match(r.stderr, message, what);
  }
});
