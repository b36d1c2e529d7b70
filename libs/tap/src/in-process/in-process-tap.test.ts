// The tap served in-process (the agent's `tap.*`): a real proxy in front of a real workload,
// every request decided by a real engine (a local rate limiter, a flux meter); flow ends reach
// the flux meter; the tap's metrics are on the given registry; failures follow the fail-open
// rules; addresses and ports it cannot serve are refused as configuration problems.
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import { RATE_LIMITER_KIND } from '@sluice/flowcontrol';
import { test, type TestContext } from 'node:test';
import { Registry } from 'prom-client';
import type { AgentTapConfig } from '@sluice/config';
import { Engine, FlowEnds, FluxMeterComponent, FluxMeterHistogram, applyLocalLimiters, loadLocalLimiters } from '@sluice/flowcontrol';
import { silentLogger } from '../logger.js';
import { startInProcessTap, TapConfigError } from './start.js';

const LIMITERS = `
- name: two-per-user
  control_point: ingress
  label_key: http.request.header.user
  bucket_capacity: 2
  fill_amount: 1
  interval: 1h
`;

async function workload(t: TestContext): Promise<{ url: string; seen: string[] }> {
  const seen: string[] = [];
  const server = http.createServer((req, res) => {
    seen.push(req.url ?? '');
    setTimeout(() => res.writeHead(200, { 'content-type': 'text/plain' }).end('ok'), 5);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.after(() => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }));
  return { url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`, seen };
}

function config(upstream: string, over: Partial<AgentTapConfig> = {}): AgentTapConfig {
  return {
    enabled: true, listen: '127.0.0.1:0', upstream, control_point: 'ingress', body_bytes: 8192, check_timeout: '250ms', upstream_timeout: '60s',
    fail_closed: false, max_request_header_bytes: 65536, max_response_header_bytes: 65536, max_request_headers: 100, max_response_headers: 100, merge_slashes: true,
    ...over,
  };
}

async function until(cond: () => Promise<boolean>, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error('not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

test('in-process tap: the engine decides, denials are answered, flows are measured, metrics on the registry', async (t) => {
  const w = await workload(t);
  const registry = new Registry();
  const engine = new Engine();
  const flowEnds = new FlowEnds({ fluxMeters: engine, histogram: new FluxMeterHistogram(registry), registry });
  engine.register(new FluxMeterComponent({ name: 'ingress-latency', policy_name: 'shop', buckets: [1, 1000] }), { control_point: 'ingress' });
  applyLocalLimiters(engine, loadLocalLimiters(LIMITERS));
  const tap = await startInProcessTap(config(w.url), { decide: { engine, discovery: undefined, flowEnds }, logger: silentLogger, registry });
  t.after(() => tap.shutdown({ deadlineMs: 1000 }));
  assert.equal(tap.adminAddress.port, 0, 'no admin server of its own');
  const send = (user: string) => fetch(`http://127.0.0.1:${tap.address.port}/cart`, { headers: { user } }).then(async (r) => ({ status: r.status, retry: r.headers.get('retry-after'), text: await r.text() }));

  assert.deepEqual((await send('u1')).status, 200);
  assert.deepEqual((await send('u1')).status, 200);
  const limited = await send('u1');
  assert.equal(limited.status, 429, limited.text);
  assert.ok(Number(limited.retry) >= 1, `Retry-After ${limited.retry}`);
  assert.equal((await send('u2')).status, 200);
  assert.deepEqual(w.seen, ['/cart', '/cart', '/cart'], 'the rejected request did not reach the workload');

  await until(async () => /^flux_meter_count\{[^}]*decision_type="DECISION_TYPE_ACCEPTED",response_status="200"[^}]*\} 3$/m.test(await registry.metrics()));
  const text = await registry.metrics();
  assert.match(text, /^flux_meter_bucket\{[^}]*decision_type="DECISION_TYPE_ACCEPTED",response_status="200",http_status_code="200",flow_status="OK",le="1"\} 0$/m, 'the workload took 5 ms: the tap measured the flow to its end');
  assert.match(text, /^flux_meter_count\{[^}]*decision_type="DECISION_TYPE_REJECTED"[^}]*\} 1$/m);
  assert.match(text, /^tap_requests_total\{decision="accepted"\} 3$/m);
  assert.match(text, /^tap_requests_total\{decision="rejected"\} 1$/m);
});

test('in-process tap: a limiter that never answers holds a request at most the check timeout (the engine fails it open)', async (t) => {
  const w = await workload(t);
  const engine = new Engine();
  engine.register({
    kind: RATE_LIMITER_KIND,
    identity: { policy_name: 'p', policy_hash: 'h', component_id: 'stuck' },
    decide: () => new Promise(() => undefined),
  }, { control_point: 'ingress' });
  const registry = new Registry();
  const tap = await startInProcessTap(config(w.url, { check_timeout: '100ms' }), { decide: { engine, discovery: undefined }, logger: silentLogger, registry });
  t.after(() => tap.shutdown({ deadlineMs: 1000 }));
  const started = Date.now();
  const r = await fetch(`http://127.0.0.1:${tap.address.port}/x`);
  await r.text();
  const took = Date.now() - started;
  assert.equal(r.status, 200);
  // The check's 100 ms count from the request's arrival, which the client's clock started before.
  assert.ok(took >= 90 && took < 2000, `answered after ${took} ms: at the check timeout, not before, not for ever`);
  const text = await registry.metrics();
  assert.match(text, /^tap_requests_total\{decision="accepted"\} 1$/m);
  const sum = Number(/^tap_check_duration_seconds_sum (\S+)$/m.exec(text)?.[1]);
  assert.ok(sum > 0 && sum < 1, `the check took ${sum} s: bounded by the check timeout`);
});

test('in-process tap: an upstream or listen address it cannot use, and a port in use, are TapConfigErrors naming the key', async (t) => {
  const engine = new Engine();
  const deps = { decide: { engine, discovery: undefined }, logger: silentLogger, registry: new Registry() };
  await assert.rejects(startInProcessTap(config('https://127.0.0.1:1'), deps), (err: Error) => err instanceof TapConfigError && /^tap\.upstream: scheme "https"/.test(err.message));
  await assert.rejects(startInProcessTap(config('http://127.0.0.1:1/base'), deps), (err: Error) => err instanceof TapConfigError && /tap\.upstream: .*path/.test(err.message));
  await assert.rejects(startInProcessTap(config(''), deps), (err: Error) => err instanceof TapConfigError && /tap\.upstream/.test(err.message));
  const holder = net.createServer();
  await new Promise<void>((r) => holder.listen(0, '127.0.0.1', r));
  t.after(() => new Promise<void>((r) => holder.close(() => r())));
  const port = (holder.address() as net.AddressInfo).port;
  await assert.rejects(startInProcessTap(config('http://127.0.0.1:1', { listen: `127.0.0.1:${port}` }), deps),
    (err: Error) => err instanceof TapConfigError && err.message === `tap.listen "127.0.0.1:${port}": the port is in use by another process (EADDRINUSE)`);
});
