// The real sluice-tap process between a real client, a CheckHTTP agent (a
// canned gRPC server) and a real workload.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { startCannedAgent } from '@sluice/tap/testing';
import { Etcd3 } from 'etcd3';
import { checkHttpRequest, grpcClient, post, startWorkload, unaryCall } from './support/clients.js';
import { endpointsJson, startEtcd } from './support/etcd.js';
import { startAgent, startTap, until as untilTrue } from './support/processes.js';

const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/sluice-tap');

/** The ports in the "tap started" log line (fields under `meta`), once it was written. */
function startedPorts(log: string): { listen: number; admin: number } | undefined {
  for (const line of log.split('\n')) {
    if (!line.includes('"tap started"')) continue;
    const entry = JSON.parse(line) as { meta: { listen: { port: number }; admin: { port: number } } };
    return { listen: entry.meta.listen.port, admin: entry.meta.admin.port };
  }
  return undefined;
}

interface Started { child: ChildProcess; listen: number; admin: number; stderr: () => string }

/** Spawns sluice-tap on free ports and waits for its "tap started" log line. */
function spawnTap(args: string[]): Promise<Started> {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('SLUICE_TAP_')));
  const child = spawn(BIN, ['--listen', '127.0.0.1:0', '--admin', '127.0.0.1:0', ...args], { env: clean, stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`sluice-tap did not start: ${err}`)), 15_000);
    child.stderr?.on('data', (d: Buffer) => {
      err += d.toString();
      const ports = startedPorts(err);
      if (ports !== undefined) {
        clearTimeout(timer);
        resolve({ child, ...ports, stderr: () => err });
      }
    });
    child.once('exit', (code) => { clearTimeout(timer); reject(new Error(`sluice-tap exited ${code}: ${err}`)); });
  });
}

function get(url: string, method = 'GET', body?: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, agent: false, headers: body === undefined ? {} : { 'content-type': 'application/json' } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => { text += c; });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code));
  });
}

test('sluice-tap process: forwards, enforces denials, fails open, serves metrics, exits 0 on SIGTERM', { timeout: 60_000 }, async (t) => {
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => { release = resolve; });
  let slowArrived: () => void = () => {};
  const slowIn = new Promise<void>((resolve) => { slowArrived = resolve; });
  const workload = http.createServer((req, res) => {
    if (req.url === '/slow') {
      slowArrived();
      void released.then(() => res.end('slow done'));
      return;
    }
    let body = '';
    req.on('data', (c: Buffer) => { body += c.toString(); });
    req.on('end', () => res.end(JSON.stringify({ path: req.url, baggage: req.headers.baggage ?? null, body })));
  });
  await new Promise<void>((resolve) => workload.listen(0, '127.0.0.1', resolve));
  t.after(() => { workload.closeAllConnections(); workload.close(); });
  const agent = await startCannedAgent((r) => (r.request.path.startsWith('/limited')
    ? { response: { http_response: 'denied_response', denied_response: { status: 429, headers: [{ key: 'retry-after', value: '2' }], body: 'rate limited' } } }
    : { response: { http_response: 'ok_response', ok_response: { headers: [{ key: 'baggage', value: 'tier=gold' }] } } }));
  t.after(() => agent.close());

  const tap = await spawnTap(['--upstream', `http://127.0.0.1:${(workload.address() as AddressInfo).port}`, '--agent', agent.address,
    '--control-point', 'checkout', '--check-timeout', '300ms']);
  t.after(() => { if (tap.child.exitCode === null) tap.child.kill('SIGKILL'); });
  const base = `http://127.0.0.1:${tap.listen}`;
  const admin = `http://127.0.0.1:${tap.admin}`;

  const ok = await get(`${base}/items?id=1`, 'POST', '{"q":1}');
  assert.equal(ok.status, 200);
  assert.deepEqual(JSON.parse(ok.text), { path: '/items?id=1', baggage: 'tier=gold', body: '{"q":1}' });
  const denied = await get(`${base}/limited`);
  assert.equal(denied.status, 429);
  assert.equal(denied.headers['retry-after'], '2');
  assert.equal(denied.text, 'rate limited');
  assert.equal(agent.requests.length, 2);
  assert.equal(agent.requests[0]?.control_point, 'checkout');
  assert.equal(agent.requests[0]?.request.body, '{"q":1}');

  // The agent goes away: traffic keeps flowing (fail-open), and it is counted.
  await agent.close();
  const open = await get(`${base}/limited`);
  assert.equal(open.status, 200);

  const metrics = await get(`${admin}/metrics`);
  assert.equal(metrics.status, 200);
  assert.match(metrics.text, /^tap_requests_total\{decision="accepted"\} 1$/m);
  assert.match(metrics.text, /^tap_requests_total\{decision="rejected"\} 1$/m);
  assert.match(metrics.text, /^tap_requests_total\{decision="fail_open"\} 1$/m);
  assert.match(metrics.text, /^tap_fail_open_total\{reason="(unavailable|deadline)"\} 1$/m);
  assert.match(metrics.text, /^tap_check_duration_seconds_count 3$/m);
  assert.match(metrics.text, /^process_cpu_seconds_total /m);
  assert.equal((await get(`${admin}/healthz`)).status, 200);

  // SIGTERM with a request in flight: it finishes, then the process exits 0.
  const slow = get(`${base}/slow`);
  await slowIn;
  tap.child.kill('SIGTERM');
  await new Promise((resolve) => setTimeout(resolve, 100));
  assert.equal(tap.child.exitCode, null, 'still draining');
  release();
  const slowReply = await slow;
  assert.equal(slowReply.status, 200);
  assert.equal(slowReply.text, 'slow done');
  assert.equal(await exited(tap.child), 0, tap.stderr());
  assert.match(tap.stderr(), /"msg":"tap stopped"/);
});

test('sluice-tap process: settings from SLUICE_TAP_* variables; --fail-closed answers 503 without an agent', { timeout: 30_000 }, async (t) => {
  const workload = http.createServer((_req, res) => res.end('should not be reached'));
  await new Promise<void>((resolve) => workload.listen(0, '127.0.0.1', resolve));
  t.after(() => { workload.closeAllConnections(); workload.close(); });
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('SLUICE_TAP_')));
  const child = spawn(BIN, ['--fail-closed'], {
    env: { ...clean, SLUICE_TAP_UPSTREAM: `http://127.0.0.1:${(workload.address() as AddressInfo).port}`, SLUICE_TAP_LISTEN: '127.0.0.1:0', SLUICE_TAP_ADMIN: '127.0.0.1:0', SLUICE_TAP_AGENT: '127.0.0.1:1', SLUICE_TAP_CHECK_TIMEOUT: '100ms' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  t.after(() => { if (child.exitCode === null) child.kill('SIGKILL'); });
  let err = '';
  const port = await new Promise<number>((resolve, reject) => {
    child.stderr?.on('data', (d: Buffer) => {
      err += d.toString();
      const ports = startedPorts(err);
      if (ports !== undefined) resolve(ports.listen);
    });
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${err}`)));
  });
  const reply = await get(`http://127.0.0.1:${port}/`);
  assert.equal(reply.status, 503);
  assert.equal(reply.headers['retry-after'], '1');
  child.kill('SIGINT');
  assert.equal(await exited(child), 0, err);
});

test('sluice-tap process: workload bytes Node refuses never end the process; header limits from the flags; flow ends reach the agent', { timeout: 60_000 }, async (t) => {
  // A workload answering each request by hand: a reason phrase with a control byte, a 101 nobody asked for, or a plain 200.
  const workload = net.createServer((socket) => {
    let head = '';
    socket.on('error', () => {});
    socket.on('data', (d: Buffer) => {
      head += d.toString('latin1');
      while (head.includes('\r\n\r\n')) {
        const end = head.indexOf('\r\n\r\n') + 4;
        const first = head.slice(0, end);
        head = head.slice(end);
        if (first.startsWith('GET /bad-reason')) socket.write('HTTP/1.1 200 O\x01K\r\nContent-Length: 2\r\n\r\nok');
        else if (first.startsWith('GET /switch')) socket.write('HTTP/1.1 101 Switching Protocols\r\nUpgrade: x\r\nConnection: Upgrade\r\n\r\n');
        else socket.write(`HTTP/1.1 200 OK\r\nContent-Length: 2\r\nX-Seen-C: ${/x-c: (v+)/i.exec(first)?.[1]?.length ?? 0}\r\n\r\nok`);
      }
    });
  });
  await new Promise<void>((resolve) => workload.listen(0, '127.0.0.1', resolve));
  t.after(() => workload.close());
  const agent = await startCannedAgent(() => ({ response: { http_response: 'ok_response', ok_response: { headers: [] }, flow_id: 'flow-e2e', check_response: { expect_end: true } } }));
  t.after(() => agent.close());
  const tap = await spawnTap(['--upstream', `http://127.0.0.1:${(workload.address() as AddressInfo).port}`, '--agent', agent.address,
    '--upstream-timeout', '20s', '--max-request-header-bytes', '32768', '--max-request-headers', '20']);
  t.after(() => { if (tap.child.exitCode === null) tap.child.kill('SIGKILL'); });
  const base = `http://127.0.0.1:${tap.listen}`;

  const bad = await get(`${base}/bad-reason`);
  assert.ok(bad.status === 200 || bad.status === 502, `status ${bad.status}`);
  const started = Date.now();
  assert.equal((await get(`${base}/switch`)).status, 502);
  assert.ok(Date.now() - started < 5000, 'the 101 did not hang the client until the upstream timeout');
  assert.equal(tap.child.exitCode, null, tap.stderr());

  const big = 'v'.repeat(7000);
  const withBigHeaders = await new Promise<{ status: number; seen: string }>((resolve, reject) => {
    const req = http.request(`${base}/big`, { agent: false, headers: { 'x-a': big, 'x-b': big, 'x-c': big } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, seen: String(res.headers['x-seen-c']) }));
    });
    req.on('error', reject);
    req.end();
  });
  assert.deepEqual(withBigHeaders, { status: 200, seen: '7000' });
  const tooMany = await new Promise<number>((resolve, reject) => {
    const headers = Object.fromEntries(Array.from({ length: 25 }, (_, i) => [`x-h${i}`, 'v']));
    const req = http.request(`${base}/many`, { agent: false, headers }, (res) => { res.resume(); resolve(res.statusCode ?? 0); });
    req.on('error', reject);
    req.end();
  });
  assert.equal(tooMany, 431);

  const until = Date.now() + 5000;
  while (agent.flowEnds.length < 2 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
  assert.ok(agent.flowEnds.length >= 2, `flow ends: ${agent.flowEnds.length}`);
  assert.ok(agent.flowEnds.every((f) => f.flow_id === 'flow-e2e' && f.control_point === 'ingress'));
  assert.ok(agent.flowEnds.some((f) => f.status_code === 502), 'the 101 ended its flow as 502');
  tap.child.kill('SIGTERM');
  assert.equal(await exited(tap.child), 0, tap.stderr());
});

/** A rate limiter published the way the controller publishes it: keyed on `labelKey`, `capacity` tokens for an hour. */
async function publishLimiter(etcd: Etcd3, cp: string, policy: string, labelKey: string, capacity: number): Promise<void> {
  await etcd.put(`sluice/decisions/default/${policy}/root.0`).value(JSON.stringify({ kind: 'rate_limiter', bucket_capacity: capacity, fill_amount: 0, pass_through: false }));
  await etcd.put(`sluice/config/default/${policy}/root.0`).value(JSON.stringify({
    kind: 'rate_limiter', policy_name: policy, policy_hash: 'h1', component_id: 'root.0', agent_group: 'default',
    selectors: [{ control_point: cp, agent_group: 'default' }],
    parameters: { label_key: labelKey, interval_ms: 3_600_000, continuous_fill: false, max_idle_time_ms: 7_200_000, lazy_sync: { enabled: false, num_sync: 4 } },
  }));
}

interface Interest { generation: number; all: boolean; headers: string[]; body: boolean }

test('sluice-tap with a real agent: only the headers the components read go to the agent, every header to the workload; exact across component changes and previews', { timeout: 90_000 }, async (t) => {
  const CP = 'interest-e2e';
  const server = await startEtcd(t);
  const etcd = new Etcd3({ hosts: [server.endpoint] });
  t.after(() => etcd.close());
  const agent = await startAgent(t, { env: { SLUICE_AGENT_ETCD_ENDPOINTS: endpointsJson(server) } });
  const workload = await startWorkload(t);
  const tap = await startTap(t, workload.url, agent.address, CP, ['--check-timeout', '2s']);
  const checkHttp = grpcClient(t, 'flowControlHttp', agent.address);
  /** The agent's interest, as a caller that filtered nothing learns it (a decided check of a user no limit reaches). */
  const interest = async (): Promise<Interest> => {
    const r = await unaryCall<{ header_interest: Interest | null }>(checkHttp, 'CheckHTTP', { ...checkHttpRequest(CP, '/probe', { 'x-user': 'observer', 'x-tenant': 'observer' }), interest_generation: 0 });
    assert.ok(r.header_interest !== null, 'the agent answers its interest to a caller that asks');
    return { ...r.header_interest, generation: Number(r.header_interest.generation) };
  };
  const enforcedCount = async (): Promise<number> => {
    const r = await fetch(`${agent.base}/v1/policies/enforced`);
    return ((await r.json()) as { components: unknown[] }).components.length;
  };
  const send = async (user: string, tenant: string): Promise<number> => {
    const r = await fetch(`${tap.base}/orders`, { method: 'POST', headers: { 'x-user': user, 'x-tenant': tenant, 'x-noise': 'n', 'content-type': 'application/json' }, body: '{"a":1}' });
    await r.arrayBuffer();
    return r.status;
  };
  const statuses = async (n: number, user: string, tenant: string): Promise<number[]> => {
    const out: number[] = [];
    for (let i = 0; i < n; i++) out.push(await send(user, tenant));
    return out;
  };

  await publishLimiter(etcd, CP, 'per-user', 'http.request.header.x_user', 3);
  await untilTrue(async () => (await enforcedCount()) === 1, 10_000, 'the per-user limiter enforced');
  const first = await interest();
  assert.deepEqual({ all: first.all, headers: first.headers, body: first.body }, { all: false, headers: ['baggage', 'x_user'], body: false });

  assert.deepEqual(await statuses(5, 'alice', 't1'), [200, 200, 200, 429, 429], 'exactly the capacity passes');
  const passed = workload.seen.filter((s) => s.url === '/orders');
  assert.equal(passed.length, 3);
  for (const s of passed) {
    assert.equal(s.headers['x-noise'], 'n', 'the workload sees every header');
    assert.equal(s.headers['x-tenant'], 't1');
    assert.equal(s.body, '{"a":1}', 'and the whole body');
  }

  // A labels preview: every header reaches the agent while it runs, then the interest is back to the limiter's.
  const preview = post(`${agent.base}/v1/flowcontrol/preview/labels/${CP}?samples=2`, JSON.stringify({ match_labels: { 'http.request.header.x_user': 'carol' } }));
  await untilTrue(async () => (await interest()).all, 5000, 'the interest is everything while the preview runs');
  const during = await interest();
  assert.ok(during.generation > first.generation);
  let sent = 0;
  let done = false;
  void preview.finally(() => { done = true; });
  while (!done && sent < 200) {
    await send('carol', 't9');
    sent++;
  }
  const previewed = await preview;
  assert.equal(previewed.status, 200, previewed.text);
  const { samples } = JSON.parse(previewed.text) as { samples: { labels: Record<string, string> }[] };
  assert.equal(samples.length, 2);
  for (const { labels } of samples) assert.equal(labels['http.request.header.x_noise'], 'n', 'the preview sees every header');
  const after = await interest();
  assert.deepEqual(after.headers, ['baggage', 'x_user']);
  assert.equal(after.all, false);
  assert.ok(after.generation > during.generation);

  // A second limiter keyed on another header: from the first request after the agent enforces it, flows are decided with it.
  await publishLimiter(etcd, CP, 'per-tenant', 'http.request.header.x_tenant', 2);
  await untilTrue(async () => (await enforcedCount()) === 2, 10_000, 'the per-tenant limiter enforced');
  assert.deepEqual(await statuses(4, 'dave', 't2'), [200, 200, 429, 429], 'the tenant limit holds from the first request on');
  assert.deepEqual((await interest()).headers, ['baggage', 'x_tenant', 'x_user']);

  // The per-user limiter removed: x-user no longer goes to the agent, the tenant limit still holds.
  await etcd.delete().key('sluice/config/default/per-user/root.0');
  await untilTrue(async () => (await enforcedCount()) === 1, 10_000, 'the per-user limiter removed');
  assert.deepEqual((await interest()).headers, ['baggage', 'x_tenant']);
  assert.deepEqual(await statuses(3, 'erin', 't3'), [200, 200, 429]);
  assert.equal(tap.child.exitCode, null);
});
