import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import * as grpc from '@grpc/grpc-js';
import { createStaticDiscovery } from '@sluice/discovery';
import { serviceClient, type CheckHTTPStreamRequest, type CheckHTTPStreamResponse__Output } from '@sluice/proto';
import { Engine } from '../check/engine.js';
import { applyLocalLimiters } from '../local-limiters/apply-local-limiters.js';
import { loadLocalLimiters } from '../local-limiters/local-limiters-config.js';
import { registerFlowControlServices } from '../services/register-services.js';
import type { CheckHttpStreamStats } from './checkhttp-stream.js';
import type { FlowRequest } from '../check/flow-request.js';
import type { Limiter, LimiterResult } from '../check/component.js';
import { startTestServer, TEST_KINDS } from '../testing/test-support.js';

type StreamClient = grpc.Client & { CheckHTTPStream(): grpc.ClientDuplexStream<CheckHTTPStreamRequest, CheckHTTPStreamResponse__Output> };

/** A rate limiter that answers asynchronously: after `x-delay` ms, rejecting when `x-deny` is set. */
function delayingLimiter(): Limiter {
  return {
    kind: TEST_KINDS.rate_limiter,
    identity: { policy_name: 'p', policy_hash: 'h', component_id: 'slow' },
    decide(labels): Promise<LimiterResult> {
      const ms = Number(labels['http.request.header.x_delay'] ?? '0');
      const deny = labels['http.request.header.x_deny'] === '1';
      return sleep(ms).then(() => ({ accepted: !deny, waitMs: deny ? 1000 : 0, label: 'slow' }));
    },
  };
}

/** A limiter whose decisions wait until `release` is called. */
function heldLimiter(): { limiter: Limiter; release(): void; waiting(): number } {
  let resolvers: (() => void)[] = [];
  return {
    limiter: {
      kind: TEST_KINDS.rate_limiter,
      identity: { policy_name: 'p', policy_hash: 'h', component_id: 'held' },
      decide: () => new Promise<LimiterResult>((resolve) => { resolvers.push(() => resolve({ accepted: true, waitMs: 0 })); }),
    },
    release() { const r = resolvers; resolvers = []; for (const f of r) f(); },
    waiting: () => resolvers.length,
  };
}

function httpReq(path: string, headers: Record<string, string> = {}, controlPoint = 'ingress') {
  return {
    control_point: controlPoint,
    source: { address: '10.9.9.9', port: 51000 },
    destination: { address: '10.1.2.3', port: 8080 },
    request: { method: 'GET', path, host: 'web', scheme: 'http', size: 0, protocol: 'HTTP/1.1', headers, body: '', truncated_body: false },
  };
}

async function setup(t: TestContext, opts: { limiters?: string; maxInFlight?: number } = {}) {
  const engine = new Engine({ asyncDecisionTimeoutMs: 5000 });
  applyLocalLimiters(engine, loadLocalLimiters(opts.limiters ?? '[]'));
  const discovery = createStaticDiscovery({ entities: [{ ip_address: '10.1.2.3', uid: 'web', services: ['web-svc'] }] });
  const stats: CheckHttpStreamStats = { streams: 0, inFlight: 0 };
  const s = await startTestServer((server) => registerFlowControlServices(server, engine, discovery, {
    checkHttpStream: { stats, ...(opts.maxInFlight !== undefined ? { maxInFlight: opts.maxInFlight } : {}) },
  }));
  t.after(() => s.server.shutdown({ deadlineMs: 2000 }));
  const Ctor = serviceClient('flowControlHttp');
  const client = new Ctor(s.grpcAddress, grpc.credentials.createInsecure()) as unknown as StreamClient;
  t.after(() => client.close());
  return { engine, stats, client };
}

/** A stream whose answers are collected; `answers(n)` waits until n have arrived. */
function openStream(client: StreamClient) {
  const call = client.CheckHTTPStream();
  const got: CheckHTTPStreamResponse__Output[] = [];
  let waiter: (() => void) | undefined;
  let ended: grpc.StatusObject | undefined;
  call.on('data', (m: CheckHTTPStreamResponse__Output) => { got.push(m); waiter?.(); });
  call.on('status', (s: grpc.StatusObject) => { ended = s; waiter?.(); });
  call.on('error', () => undefined);
  const answers = async (n: number, ms = 5000): Promise<CheckHTTPStreamResponse__Output[]> => {
    const until = Date.now() + ms;
    while (got.length < n) {
      if (Date.now() > until) throw new Error(`${got.length} answers of ${n}`);
      await new Promise<void>((resolve) => { waiter = resolve; setTimeout(resolve, 50); });
    }
    return got.slice(0, n);
  };
  return { call, got, answers, status: () => ended };
}

async function until(cond: () => boolean, what: string, ms = 3000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

test('CheckHTTPStream: each answer carries the id of its request; async decisions come back out of order', async (t) => {
  const { engine, client } = await setup(t);
  engine.register(delayingLimiter(), { control_point: 'ingress' });
  const s = openStream(client);
  s.call.write({ id: 1, request: httpReq('/slow', { 'x-delay': '150' }) });
  s.call.write({ id: 2, request: httpReq('/deny', { 'x-delay': '60', 'x-deny': '1' }) });
  s.call.write({ id: 3, request: httpReq('/fast', { 'x-delay': '0' }) });
  const answers = await s.answers(3);
  assert.deepEqual(answers.map((a) => a.id), [3, 2, 1], 'the slowest answer comes last');
  const byId = new Map(answers.map((a) => [a.id, a]));
  for (const a of answers) assert.equal(a.code, 0);
  assert.ok(byId.get(1)?.response?.ok_response, 'id 1 passes');
  assert.equal(byId.get(2)?.response?.denied_response?.status, 429, 'id 2 is the rejected one');
  assert.ok(byId.get(3)?.response?.ok_response);
  assert.deepEqual(byId.get(1)?.response?.check_response?.services, ['web-svc'], 'services from the destination');
  assert.equal(byId.get(2)?.response?.check_response?.reject_reason, 'REJECT_REASON_RATE_LIMITED');
  s.call.end();
  await until(() => s.status() !== undefined, 'the end of the stream');
  assert.equal(s.status()?.code, grpc.status.OK);
});

test('CheckHTTPStream: the same decisions as CheckHTTP (local limiter, labels, 429 with Retry-After)', async (t) => {
  const { client } = await setup(t, { limiters: `
- { control_point: ingress, service: web-svc, bucket_capacity: 2, fill_amount: 1, interval: 1m, label_key: http.request.header.x_user }
` });
  const s = openStream(client);
  for (let id = 10; id < 13; id++) s.call.write({ id, request: httpReq('/', { 'x-user': 'u1' }) });
  s.call.write({ id: 13, request: httpReq('/', { 'x-user': 'u2' }) });
  const answers = await s.answers(4);
  assert.deepEqual(answers.map((a) => a.id), [10, 11, 12, 13], 'synchronous decisions keep their order');
  assert.ok(answers[0].response?.ok_response && answers[1].response?.ok_response);
  assert.equal(answers[2].response?.denied_response?.status, 429, 'the third request of a 2-token bucket');
  const headers = Object.fromEntries((answers[2].response?.denied_response?.headers ?? []).map((h) => [h.key, h.value]));
  assert.ok(Number(headers['retry-after']) >= 59);
  assert.ok(answers[2].response?.check_response?.flow_label_keys.includes('http.request.header.x_user'));
  assert.ok(answers[3].response?.ok_response, 'another label value has its own bucket');
  s.call.end();
});

test('CheckHTTPStream: a bad request is answered with its error; the others on the stream are decided', async (t) => {
  const { client } = await setup(t);
  const s = openStream(client);
  s.call.write({ id: 1, request: httpReq('/a') });
  s.call.write({ id: 2, request: { ...httpReq('/b'), control_point: '' } });
  s.call.write({ id: 3, request: null });
  s.call.write({ id: 4, request: { ...httpReq('/c'), control_point: 'x'.repeat(513) } });
  s.call.write({ id: 5, request: { ...httpReq('/d'), request: null } });
  s.call.write({ id: 6, request: httpReq('/e') });
  const answers = await s.answers(6);
  const byId = new Map(answers.map((a) => [a.id, a]));
  assert.equal(byId.get(1)?.code, 0);
  assert.ok(byId.get(1)?.response?.ok_response);
  for (const [id, re] of [[2, /control_point is required/], [3, /request is required/], [4, /at most 512/], [5, /request is required/]] as const) {
    assert.equal(byId.get(id)?.code, grpc.status.INVALID_ARGUMENT, `id ${id}`);
    assert.match(byId.get(id)?.message ?? '', re);
    assert.equal(byId.get(id)?.response, null);
  }
  assert.equal(byId.get(6)?.code, 0, 'the stream goes on after bad requests');
  assert.ok(byId.get(6)?.response?.ok_response);
  assert.equal(s.status(), undefined, 'the stream is still open');
  s.call.end();
});

test('CheckHTTPStream: streamed requests feed the preview observers and the control-point registry', async (t) => {
  const { engine, client } = await setup(t);
  const seen: { path: string | undefined; cp: string; labels: Readonly<Record<string, string>> }[] = [];
  const sink = { observe: (req: FlowRequest, labels: Readonly<Record<string, string>>) => { seen.push({ path: req.http?.request?.path, cp: req.controlPoint, labels }); } };
  engine.addObserver({ sinkFor: (cp) => (cp === 'ingress' ? sink : undefined) });
  const s = openStream(client);
  s.call.write({ id: 1, request: httpReq('/one', { 'x-user': 'u1' }) });
  s.call.write({ id: 2, request: httpReq('/two') });
  s.call.write({ id: 3, request: httpReq('/elsewhere', {}, 'egress') });
  await s.answers(3);
  assert.deepEqual(seen.map((x) => x.path), ['/one', '/two'], 'the watched control point only');
  assert.equal(seen[0].labels['http.request.header.x_user'], 'u1');
  assert.equal(seen[0].labels['http.target'], '/one');
  const entries = engine.controlPoints.list();
  const ingress = entries.find((e) => e.controlPoint === 'ingress');
  assert.equal(ingress?.service, 'web-svc');
  assert.equal(ingress?.type, 'http');
  assert.equal(ingress?.flows, 2);
  assert.ok(entries.some((e) => e.controlPoint === 'egress'));
  s.call.end();
});

test('CheckHTTPStream: past the in-flight bound a request is answered RESOURCE_EXHAUSTED; later ones pass again', async (t) => {
  const { engine, client, stats } = await setup(t, { maxInFlight: 2 });
  const held = heldLimiter();
  engine.register(held.limiter, { control_point: 'ingress' });
  const s = openStream(client);
  for (let id = 1; id <= 3; id++) s.call.write({ id, request: httpReq(`/${id}`) });
  const [refused] = await s.answers(1);
  assert.equal(refused.id, 3);
  assert.equal(refused.code, grpc.status.RESOURCE_EXHAUSTED);
  assert.match(refused.message, /more than 2 checks under way/);
  assert.equal(stats.inFlight, 2);
  held.release();
  const answers = await s.answers(3);
  assert.deepEqual(answers.slice(1).map((a) => a.id).sort(), [1, 2]);
  assert.equal(stats.inFlight, 0);
  s.call.write({ id: 4, request: httpReq('/4') });
  await until(() => held.waiting() === 1, 'the fourth decision');
  held.release();
  const [, , , fourth] = await s.answers(4);
  assert.equal(fourth.id, 4);
  assert.equal(fourth.code, 0);
  s.call.end();
});

test('CheckHTTPStream: a cancelled stream is cleaned up; decisions finishing later write nothing; the service goes on', async (t) => {
  const { engine, client, stats } = await setup(t);
  const held = heldLimiter();
  const unregister = engine.register(held.limiter, { control_point: 'ingress' });
  const s = openStream(client);
  for (let id = 1; id <= 3; id++) s.call.write({ id, request: httpReq(`/${id}`) });
  await until(() => held.waiting() === 3 && stats.inFlight === 3, 'three held decisions');
  assert.equal(stats.streams, 1);
  s.call.cancel();
  await until(() => stats.streams === 0, 'the stream to be closed on the server');
  held.release();
  await until(() => stats.inFlight === 0, 'the held decisions to settle');
  assert.equal(s.got.length, 0, 'no answer after the cancellation');
  unregister();
  const again = openStream(client);
  again.call.write({ id: 7, request: httpReq('/after') });
  const [answer] = await again.answers(1);
  assert.equal(answer.id, 7);
  assert.ok(answer.response?.ok_response);
  again.call.end();
  await until(() => again.status() !== undefined && stats.streams === 0, 'the second stream to end');
});

test('CheckHTTPStream: a half-closed stream ends once its last answer is out', async (t) => {
  const { engine, client, stats } = await setup(t);
  const held = heldLimiter();
  engine.register(held.limiter, { control_point: 'ingress' });
  const s = openStream(client);
  s.call.write({ id: 1, request: httpReq('/1') });
  s.call.end();
  await until(() => held.waiting() === 1, 'the held decision');
  await sleep(50);
  assert.equal(s.status(), undefined, 'not ended while a decision is under way');
  held.release();
  const [answer] = await s.answers(1);
  assert.equal(answer.id, 1);
  await until(() => s.status() !== undefined, 'the end of the stream');
  assert.equal(s.status()?.code, grpc.status.OK);
  assert.equal(stats.streams, 0);
});

test('CheckHTTPStream: an ambiguous target is answered 400 on the stream; a spelled-out one is decided as its normal form', async (t) => {
  const { engine, client } = await setup(t);
  const paths: (string | undefined)[] = [];
  engine.addObserver({ sinkFor: () => ({ observe: (req: FlowRequest) => { paths.push(req.http?.request?.path); } }) });
  const s = openStream(client);
  s.call.write({ id: 1, request: httpReq('/admin%2Fusers') });
  s.call.write({ id: 2, request: httpReq('/x/../%61dmin/users') });
  const got = await s.answers(2);
  const byId = new Map(got.map((a) => [Number(a.id), a]));
  assert.equal(byId.get(1)?.response?.denied_response?.status, 400);
  assert.equal(byId.get(1)?.response?.check_response?.decision_type, 'DECISION_TYPE_REJECTED');
  assert.ok(byId.get(2)?.response?.ok_response);
  assert.deepEqual(paths, ['/admin/users'], 'the refused one reached no component');
  s.call.end();
});
