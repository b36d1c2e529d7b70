// The in-process checker answers what the agent's CheckHTTP service answers over gRPC for the
// same requests against the same engine: decisions, denials, header interest, resend, flow ids
// for flux meters, refused targets and refused requests; its flow ends reach the flux meters.
import assert from 'node:assert/strict';
import { RATE_LIMITER_KIND } from '@sluice/flowcontrol';
import { test, type TestContext } from 'node:test';
import { Registry } from 'prom-client';
import {
  Engine, FlowEnds, FluxMeterComponent, FluxMeterHistogram, applyLocalLimiters, loadLocalLimiters, registerFlowControlServices, type CheckHttpDeps,
} from '@sluice/flowcontrol';
import { createServer } from '@sluice/server';
import { CheckHttpClient } from '../check/client.js';
import { decisionOf, retryAfterSeconds } from '../check/decision.js';
import type { CheckOutcome } from '../check/unary-check.js';
import type { CheckHTTPRequest } from '../check/types.js';
import { EngineChecker } from './engine-checker.js';
import { engineFlowEnds } from './engine-flow-ends.js';

const LIMITERS = `
- name: one-per-user
  control_point: checkout
  label_key: http.request.header.user
  bucket_capacity: 1
  fill_amount: 1
  interval: 1h
`;

function request(user: string, over: Partial<CheckHTTPRequest> = {}, path = '/cart'): CheckHTTPRequest {
  return {
    source: { protocol: 'TCP', address: '127.0.0.1', port: 1 },
    destination: { protocol: 'TCP', address: '127.0.0.1', port: 2 },
    control_point: 'checkout',
    request: { method: 'GET', headers: { user }, path, host: 'h', scheme: 'http', size: -1, protocol: 'HTTP/1.1', body: '', truncated_body: false },
    ramp_mode: false,
    // As the tap sends it (checkRequestOf): the generation its headers were filtered by, 0 for none.
    interest_generation: 0,
    ...over,
  };
}

async function setup(t: TestContext) {
  const registry = new Registry();
  const engine = new Engine();
  const flowEnds = new FlowEnds({ fluxMeters: engine, histogram: new FluxMeterHistogram(registry), registry });
  engine.register(new FluxMeterComponent({ name: 'checkout-latency', policy_name: 'shop', buckets: [10, 100, 1000] }), { control_point: 'checkout' });
  applyLocalLimiters(engine, loadLocalLimiters(LIMITERS));
  const deps: CheckHttpDeps = { engine, discovery: undefined, flowEnds };
  const server = createServer({
    listener: { addr: '127.0.0.1:0', keep_alive: '180s', network: 'tcp' },
    grpc: { connection_timeout: '120s', enable_reflection: false, latency_buckets_ms: [10] },
    http: { disable_http_keep_alives: false, idle_timeout: '30s', latency_buckets_ms: [10], max_header_bytes: 1048576, read_header_timeout: '10s', read_timeout: '10s', write_timeout: '45s' },
    grpc_gateway: { grpc_server_address: '' },
    tls: { allowed_cn: '', cert_file: '', client_ca_file: '', key_file: '', enabled: false },
  }, { registry: new Registry() });
  registerFlowControlServices(server, engine, undefined, { flowEnds });
  await server.start();
  t.after(() => server.shutdown({ deadlineMs: 2000 }));
  const grpc = new CheckHttpClient(`127.0.0.1:${server.address().port}`);
  t.after(() => grpc.shutdown());
  return { engine, registry, deps, grpc, inProcess: new EngineChecker(deps) };
}

/** What the tap acts on, with what differs between two flows by nature (the flow id's value, the wait's milliseconds) made comparable. */
function comparable(o: CheckOutcome): unknown {
  if (o.kind === 'failed') return { kind: o.kind, reason: o.reason };
  const r = o.response;
  const decision = decisionOf(r);
  return {
    // The wait (in ms) is read at each answer's own moment: compared in whole seconds, as Retry-After has it.
    decision: decision.kind === 'ok' ? { ...decision, flowEnd: decision.flowEnd === undefined ? undefined : 'flow' } : { ...decision, ...(decision.waitMs === undefined ? {} : { waitMs: Math.ceil(decision.waitMs / 1000) }) },
    http_response: r.http_response,
    check: r.check_response === null ? null : { ...r.check_response, wait_time: retryAfterSeconds(r.check_response.wait_time) },
    flow_id: r.flow_id === '' ? '' : 'id',
    header_interest: r.header_interest,
    resend_unfiltered: r.resend_unfiltered === true,
  };
}

test('in-process checks answer as CheckHTTP over gRPC does', async (t) => {
  const { grpc, inProcess } = await setup(t);
  const cases: [string, (user: string) => CheckHTTPRequest][] = [
    ['accepted, measured by a flux meter (interest learned)', (u) => request(u)],
    ['rejected by the rate limiter', (u) => request(u)],
    ['a stale interest generation: resend unfiltered', (u) => request(u, { interest_generation: 987_654 })],
    ['a target refused as ambiguous', (u) => request(u, {}, '/a/%2e%2e/b')],
    ['a request without control point', (u) => request(u, { control_point: '' })],
    ['another control point: no flux meter, no limiter', (u) => request(u, { control_point: 'browse' })],
  ];
  for (const [what, make] of cases) {
    const overGrpc = await grpc.check(make('grpc-user'), 5000);
    const here = await inProcess.check(make('in-process-user'), 5000);
    assert.deepEqual(comparable(here), comparable(overGrpc), what);
  }
  const first = await inProcess.check(request('fresh'), 5000);
  assert.equal(first.kind === 'answer' && first.response.check_response?.expect_end, true, 'a flux meter measures the flow');
  const denied = await inProcess.check(request('fresh'), 5000);
  assert.ok(denied.kind === 'answer');
  const d = decisionOf(denied.response);
  assert.equal(d.kind, 'denied');
  assert.equal(d.kind === 'denied' && d.status, 429);
  assert.ok(d.kind === 'denied' && Number(d.headers.find((h) => h.key === 'retry-after')?.value) >= 1);
});

test('in-process flow ends record the tap\'s duration in the flux meter', async (t) => {
  const { registry, deps, inProcess } = await setup(t);
  const o = await inProcess.check(request('u'), 5000);
  assert.ok(o.kind === 'answer' && o.response.flow_id !== '');
  const sink = engineFlowEnds(deps.flowEnds as FlowEnds);
  sink.report({ controlPoint: 'checkout', flowId: o.response.flow_id, statusCode: 201, durationMs: 42 });
  sink.report({ controlPoint: 'checkout', flowId: 'no-such-flow', statusCode: 200, durationMs: 1 });
  const text = await registry.metrics();
  assert.match(text, /^flux_meter_bucket\{flux_meter_name="checkout-latency",policy_name="shop",decision_type="DECISION_TYPE_ACCEPTED",response_status="201",http_status_code="201",flow_status="OK",le="100"\} 1$/m);
  assert.match(text, /^flux_meter_bucket\{[^}]*response_status="201"[^}]*le="10"\} 0$/m, '42 ms is past the 10 ms bucket');
  assert.match(text, /^flow_ends_total\{source="flow_end",result="unknown"\} 1$/m);
});

test('a limiter that never answers: the engine lets the flow through within the check timeout (its deadline is the check\'s)', async (t) => {
  const { engine, inProcess } = await setup(t);
  engine.register({
    kind: RATE_LIMITER_KIND,
    identity: { policy_name: 'p', policy_hash: 'h', component_id: 'stuck' },
    decide: () => new Promise(() => undefined),
  }, { control_point: 'stuck' });
  const started = Date.now();
  const here = await inProcess.check(request('u', { control_point: 'stuck' }), 200);
  const took = Date.now() - started;
  assert.ok(took >= 150 && took < 1000, `answered after ${took} ms: at the deadline, not before, not for ever`);
  assert.equal(here.kind === 'answer' && decisionOf(here.response).kind, 'ok', 'the stuck limiter failed open');
});

test('a decision the engine makes at once is answered at once (no promise); one that waits past the timeout fails as deadline and its signal is aborted', async (t) => {
  const { inProcess } = await setup(t);
  const now = inProcess.check(request('sync-user'), 5000);
  assert.ok(!(now instanceof Promise), 'answered at once');
  assert.equal(now.kind === 'answer' && decisionOf(now.response).kind, 'ok');
  // An engine that never settles (the real one bounds its limiters just before the deadline).
  let signal: AbortSignal | undefined;
  const stuck = {
    headerInterest: () => ({ generation: 1, all: true, body: true, headers: [] }),
    check: (_flow: unknown, cancel: { signal: AbortSignal }) => {
      signal = cancel.signal;
      return new Promise(() => undefined);
    },
  } as unknown as Engine;
  const later = new EngineChecker({ engine: stuck, discovery: undefined }).check(request('u'), 50);
  assert.ok(later instanceof Promise, 'an engine that answers later: a promise');
  assert.equal(signal?.aborted, false, 'the engine read a live signal');
  const outcome = await later;
  assert.equal(outcome.kind === 'failed' && outcome.reason, 'deadline');
  assert.equal(signal?.aborted, true, 'the wait was given up at the timeout');
});
