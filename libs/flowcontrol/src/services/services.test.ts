import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as grpc from '@grpc/grpc-js';
import { ApertureClient } from '@fluxninja/aperture-js';
import { createStaticDiscovery } from '@sluice/discovery';
import { serviceClient, type CheckHTTPResponse__Output, type CheckResponse__Output } from '@sluice/proto';
import { Engine } from '../check/engine.js';
import { applyLocalLimiters } from '../local-limiters/apply-local-limiters.js';
import { loadLocalLimiters } from '../local-limiters/local-limiters-config.js';
import { registerFlowControlServices } from './register-services.js';
import { startTestServer } from '../testing/test-support.js';

type Cb<T> = (err: grpc.ServiceError | null, res: T) => void;
type Client = grpc.Client & Record<string, (req: unknown, opts: grpc.CallOptions, cb: Cb<unknown>) => void>;

function call<T>(client: Client, rpc: string, req: unknown, timeoutMs = 5000): Promise<T> {
  return new Promise((resolve, reject) => {
    client[rpc](req, { deadline: Date.now() + timeoutMs }, (err, res) => (err ? reject(err) : resolve(res as T)));
  });
}

async function setup(t: import('node:test').TestContext, limiters: string) {
  const engine = new Engine();
  applyLocalLimiters(engine, loadLocalLimiters(limiters));
  const discovery = createStaticDiscovery({ entities: [
    { ip_address: '127.0.0.1', uid: 'self', services: ['sdk-svc'] },
    { ip_address: '10.1.2.3', uid: 'web', services: ['web-svc'] },
  ] });
  const s = await startTestServer((server) => registerFlowControlServices(server, engine, discovery));
  t.after(() => s.server.shutdown({ deadlineMs: 2000 }));
  return { engine, ...s };
}

test('Check through the published Aperture SDK: accepted, then rate limited, services from the peer IP', async (t) => {
  const { grpcAddress } = await setup(t, `
- { control_point: awesomeFeature, service: sdk-svc, bucket_capacity: 2, fill_amount: 1, interval: 1m, label_key: user }
`);
  const client = new ApertureClient({ address: grpcAddress, channelCredentials: grpc.credentials.createInsecure() });
  t.after(async () => {
    // ApertureClient.shutdown() shuts its trace exporter down twice (an unhandled rejection):
    // stop the tracer provider (which stops the exporter) and close the channel instead.
    const parts = client as unknown as { fcsClient: grpc.Client; tracerProvider: { shutdown(): Promise<void> } };
    await parts.tracerProvider.shutdown().catch(() => undefined);
    parts.fcsClient.close();
  });
  const start = () => client.startFlow('awesomeFeature', { labels: { user: 'alice' }, grpcCallOptions: { deadline: Date.now() + 5000 }, rampMode: false });
  const f1 = await start();
  assert.equal(f1.shouldRun(), true);
  const r1 = f1.checkResponse() as unknown as { services: string[]; controlPoint: string; flowLabelKeys: string[]; decisionType: number };
  assert.deepEqual(r1.services, ['sdk-svc']);
  assert.equal(r1.controlPoint, 'awesomeFeature');
  assert.deepEqual(r1.flowLabelKeys, ['user']);
  f1.end();
  assert.equal((await start()).shouldRun(), true);
  const f3 = await start();
  assert.equal(f3.shouldRun(), false, 'third flow of a 2-token bucket is rejected');
  const r3 = f3.checkResponse() as unknown as { rejectReason: number; deniedResponseStatusCode: number; limiterDecisions: { componentId: string; dropped: boolean; rateLimiterInfo: { label: string } }[] };
  assert.equal(r3.rejectReason, 1, 'RATE_LIMITED');
  const wait = Number(f3.retryAfter().seconds);
  assert.ok(wait >= 59 && wait <= 60, `one token at 1 per minute: about 60 s, got ${wait}`);
  assert.equal(Number(r3.deniedResponseStatusCode), 429);
  assert.equal(r3.limiterDecisions[0].componentId, 'local-limiter-0');
  assert.equal(r3.limiterDecisions[0].dropped, true);
  assert.equal(r3.limiterDecisions[0].rateLimiterInfo.label, 'alice');
  const bob = await client.startFlow('awesomeFeature', { labels: { user: 'bob' }, grpcCallOptions: { deadline: Date.now() + 5000 } });
  assert.equal(bob.shouldRun(), true, 'another label value has its own bucket');
});

test('Check validates its request; FlowEnd answers; cache calls are UNIMPLEMENTED', async (t) => {
  const { grpcAddress } = await setup(t, '[]');
  const Ctor = serviceClient('flowControl');
  const client = new Ctor(grpcAddress, grpc.credentials.createInsecure()) as unknown as Client;
  t.after(() => client.close());
  await assert.rejects(call(client, 'Check', { control_point: '' }), (e: grpc.ServiceError) => e.code === grpc.status.INVALID_ARGUMENT && /control_point is required/.test(e.details));
  await assert.rejects(call(client, 'Check', { control_point: 'x'.repeat(513) }), (e: grpc.ServiceError) => e.code === grpc.status.INVALID_ARGUMENT && /at most 512/.test(e.details));
  const ok = await call<CheckResponse__Output>(client, 'Check', { control_point: 'cp', labels: { a: 'b' } });
  assert.equal(ok.decision_type, 'DECISION_TYPE_ACCEPTED');
  assert.deepEqual(await call(client, 'FlowEnd', { control_point: 'cp', flow_id: 'f' }), {});
  for (const rpc of ['CacheLookup', 'CacheUpsert', 'CacheDelete']) {
    await assert.rejects(call(client, rpc, {}), (e: grpc.ServiceError) => e.code === grpc.status.UNIMPLEMENTED && /keeps no result or global caches/.test(e.details));
  }
});

test('Check answers many calls at once, each with its own decisions (answers are written where the previous one was, and grpc-js copies each at once)', async (t) => {
  const { grpcAddress } = await setup(t, `
- { control_point: many, bucket_capacity: 1000, fill_amount: 1, interval: 1m, label_key: user }
- { control_point: many, bucket_capacity: 500, fill_amount: 1, interval: 1m, label_key: tier }
- { control_point: many, bucket_capacity: 2, fill_amount: 1, interval: 1m, label_key: user }
`);
  const Ctor = serviceClient('flowControl');
  const client = new Ctor(grpcAddress, grpc.credentials.createInsecure()) as unknown as Client;
  t.after(() => client.close());
  const users = Array.from({ length: 150 }, (_, i) => `user-${i}-${'u'.repeat(i % 40)}`);
  const answers = await Promise.all(users.flatMap((user, i) => [0, 1, 2].map(() =>
    call<CheckResponse__Output>(client, 'Check', { control_point: 'many', labels: { user, tier: `tier-${i % 3}` } }))));
  answers.forEach((a, n) => {
    const i = Math.floor(n / 3);
    const labels = a.limiter_decisions.map((l) => l.rate_limiter_info?.label);
    assert.deepEqual(labels, [users[i], `tier-${i % 3}`, users[i]], `answer ${n}: its own flow's labels`);
  });
  for (let i = 0; i < users.length; i++) {
    const mine = answers.slice(3 * i, 3 * i + 3);
    assert.equal(mine.filter((a) => a.decision_type === 'DECISION_TYPE_REJECTED').length, 1, `${users[i]}: the third of three flows on a 2-token bucket is rejected`);
    const consumed = mine.map((a) => Math.floor(a.limiter_decisions[0].rate_limiter_info?.tokens_info?.remaining ?? NaN)).sort((x, y) => y - x);
    assert.deepEqual(consumed.slice(0, 2), [999, 998], `${users[i]}: its own bucket's counts`);
  }
});

const httpReq = (path = '/api/items?id=7', headers: Record<string, string> = {}) => ({
  control_point: 'ingress',
  source: { address: '10.9.9.9', port: 51000 },
  destination: { address: '::ffff:10.1.2.3', port: 8080 },
  request: { method: 'GET', path, host: 'web', scheme: 'http', size: 0, protocol: 'HTTP/1.1', headers: { 'x-user': 'u1', ...headers }, body: '', truncated_body: false },
});

test('CheckHTTP over gRPC: labels from the request, services from the destination, 429 with Retry-After', async (t) => {
  const { grpcAddress } = await setup(t, `
- control_point: ingress
  service: web-svc
  label_matcher: { match_labels: { http.method: GET, http.flavor: "1.1" } }
  bucket_capacity: 1
  fill_amount: 1
  interval: 2500ms
  label_key: http.request.header.x_user
`);
  const Ctor = serviceClient('flowControlHttp');
  const client = new Ctor(grpcAddress, grpc.credentials.createInsecure()) as unknown as Client;
  t.after(() => client.close());
  const ok = await call<CheckHTTPResponse__Output>(client, 'CheckHTTP', httpReq());
  assert.ok(ok.ok_response, 'first request passes');
  assert.ok(ok.check_response !== null);
  assert.deepEqual(ok.check_response.services, ['web-svc']);
  assert.ok(ok.check_response.flow_label_keys.includes('http.request.header.x_user'));
  const denied = await call<CheckHTTPResponse__Output>(client, 'CheckHTTP', httpReq());
  assert.ok(denied.denied_response);
  assert.equal(denied.denied_response.status, 429);
  const headers = Object.fromEntries(denied.denied_response.headers.map((h) => [h.key, h.value]));
  assert.equal(headers['retry-after'], '3', '2.5 s rounded up');
  const body = JSON.parse(denied.denied_response.body) as { code: number; details: unknown[]; reason: string; retry_after_seconds: number };
  assert.equal(body.code, 8, 'the gRPC code RESOURCE_EXHAUSTED, as in every error body');
  assert.deepEqual(body.details, []);
  assert.equal(body.reason, 'RATE_LIMITED');
  assert.ok(denied.check_response !== null);
  assert.equal(denied.check_response.reject_reason, 'REJECT_REASON_RATE_LIMITED');
  assert.equal(denied.check_response.denied_response_status_code, 'TooManyRequests');
  assert.ok(denied.check_response.wait_time !== null && denied.check_response.wait_time.seconds === 2);
  const other = await call<CheckHTTPResponse__Output>(client, 'CheckHTTP', httpReq('/x', { 'x-user': 'u2' }));
  assert.ok(other.ok_response);
  await assert.rejects(call(client, 'CheckHTTP', { control_point: 'ingress' }), (e: grpc.ServiceError) => e.code === grpc.status.INVALID_ARGUMENT && /request is required/.test(e.details));
});
