// Real traffic through real processes: client → sluice-tap → workload, the tap
// asking a real sluice-agent (static service discovery, local rate limiters).
// Previews, control points and the gRPC Check API (published Aperture SDK).
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import * as grpc from '@grpc/grpc-js';
import { ApertureClient } from '@fluxninja/aperture-js';
import { post, startWorkload } from './support/clients.js';
import { startAgent, startTap, tempDir, writeFile } from './support/processes.js';

const SERVICE = 'shop.demo.svc.cluster.local';
const LIMITERS = `
- name: free-per-user
  control_point: ingress
  service: ${SERVICE}
  label_matcher: { match_labels: { http.request.header.user_tier: free } }
  label_key: http.request.header.user_id
  bucket_capacity: 2
  fill_amount: 1
  interval: 30s
- name: feature-per-user
  control_point: awesome-feature
  label_key: user
  bucket_capacity: 1
  fill_amount: 1
  interval: 1m
`;

interface HttpSample {
  attributes: {
    request: { http: { method: string; path: string; host: string; scheme: string; size: number; protocol: string; headers: Record<string, string>; body: string } };
    source: { socketAddress: { address: string; port: number } };
    destination: { socketAddress: { address: string; port: number } };
  };
  parsed_path: string[];
  parsed_query: Record<string, string[]>;
  parsed_body: unknown;
  truncated_body: boolean;
}

async function setup(t: TestContext) {
  const dir = tempDir(t);
  const agent = await startAgent(t, {
    args: ['--local-limiters', writeFile(dir, 'limiters.yaml', LIMITERS)],
    env: {
      // A preview then waits at most 2 s (write timeout less a second).
      SLUICE_AGENT_SERVER_HTTP_WRITE_TIMEOUT: '3s',
      SLUICE_AGENT_SERVICE_DISCOVERY_STATIC_ENTITIES: JSON.stringify([{ ip_address: '127.0.0.1', uid: 'shop-0', name: 'shop-0', namespace: 'demo', services: [SERVICE] }]),
    },
  });
  const workload = await startWorkload(t);
  const tap = await startTap(t, workload.url, agent.address, 'ingress', ['--body-bytes', '256']);
  const send = (path: string, headers: Record<string, string>, method = 'GET', body?: string) =>
    fetch(`${tap.base}${path}`, { method, headers, ...(body !== undefined ? { body } : {}) }).then(async (r) => ({ status: r.status, headers: r.headers, text: await r.text() }));
  return { agent, tap, workload, send };
}

const GOLD_BODY = JSON.stringify({ item: 'book', qty: 2 });

/**
 * Sends a mix of traffic through the tap (gold JSON POSTs, silver GETs, an oversized gold body)
 * until `done` settles: a preview registered at any moment sees matching requests.
 */
async function whileSending<T>(send: Awaited<ReturnType<typeof setup>>['send'], done: Promise<T>): Promise<T> {
  let finished = false;
  void done.finally(() => { finished = true; }).catch(() => undefined);
  for (let i = 0; !finished && i < 400; i++) {
    const silver = await send('/browse', { 'user-tier': 'silver', 'user-id': `s${i % 3}` });
    assert.equal(silver.status, 200);
    const gold = await send('/orders/42?tag=a&tag=b', { 'user-tier': 'gold', 'user-id': 'g1', 'content-type': 'application/json' }, 'POST', GOLD_BODY);
    assert.equal(gold.status, 200);
    if (i % 4 === 3) await send('/big', { 'user-tier': 'gold', 'content-type': 'application/json' }, 'POST', JSON.stringify({ pad: 'x'.repeat(1000) }));
    await new Promise((r) => setTimeout(r, 10));
  }
  return done;
}

test('sluice-agent with sluice-tap in front of a workload', { timeout: 60_000 }, async (t) => {
  const { agent, tap, workload, send } = await setup(t);
  const preview = (kind: 'http_requests' | 'labels', cp: string, query: string, filter: unknown) =>
    post(`${agent.base}/v1/flowcontrol/preview/${kind}/${cp}?${query}`, JSON.stringify(filter));

  await t.test('a rate-limited user gets 429 with Retry-After through the tap; others pass', async () => {
    const free = (user: string) => send('/cart', { 'user-tier': 'free', 'user-id': user });
    assert.equal((await free('u1')).status, 200);
    assert.equal((await free('u1')).status, 200);
    const before = workload.seen.length;
    const limited = await free('u1');
    assert.equal(limited.status, 429, limited.text);
    const retry = Number(limited.headers.get('retry-after'));
    assert.ok(retry >= 1 && retry <= 30, `Retry-After ${limited.headers.get('retry-after')}`);
    assert.equal(workload.seen.length, before, 'a rejected request does not reach the workload');
    assert.equal((await free('u2')).status, 200, 'another free user has its own bucket');
    assert.equal((await send('/cart', { 'user-tier': 'gold', 'user-id': 'u1' })).status, 200, 'the limiter matches free users only');
    const passed = workload.seen.at(-1);
    assert.equal(passed?.url, '/cart');
    assert.equal(passed?.headers['user-tier'], 'gold');
  });

  await t.test('HTTP preview: exactly N samples of matching requests only, in the documented shape', async () => {
    const r = await whileSending(send, preview('http_requests', 'ingress', 'samples=3', { match_labels: { 'http.request.header.user_tier': 'gold', 'http.method': 'POST' }, expression: { label_matches: { label: 'http.target', regex: '^/orders/' } } }));
    assert.equal(r.status, 200, r.text);
    const { samples } = JSON.parse(r.text) as { samples: HttpSample[] };
    assert.equal(samples.length, 3);
    for (const s of samples) {
      const h = s.attributes.request.http;
      assert.deepEqual({ method: h.method, path: h.path, host: h.host, scheme: h.scheme, size: h.size, protocol: h.protocol, body: h.body },
        { method: 'POST', path: '/orders/42?tag=a&tag=b', host: `127.0.0.1:${tap.listen}`, scheme: 'http', size: GOLD_BODY.length, protocol: 'HTTP/1.1', body: GOLD_BODY });
      assert.equal(h.headers['user-tier'], 'gold');
      assert.equal(h.headers['content-type'], 'application/json');
      assert.equal(s.attributes.source.socketAddress.address, '127.0.0.1');
      assert.ok(Number.isInteger(s.attributes.source.socketAddress.port) && s.attributes.source.socketAddress.port > 0);
      assert.deepEqual(s.attributes.destination.socketAddress, { address: '127.0.0.1', port: tap.listen });
      assert.deepEqual(s.parsed_path, ['orders', '42']);
      assert.deepEqual(s.parsed_query, { tag: ['a', 'b'] });
      assert.deepEqual(s.parsed_body, { item: 'book', qty: 2 });
      assert.equal(s.truncated_body, false);
    }
  });

  await t.test('a body past the tap\'s --body-bytes arrives truncated, and unparsed', async () => {
    const r = await whileSending(send, preview('http_requests', 'ingress', 'samples=1', { match_labels: { 'http.target': '/big' } }));
    assert.equal(r.status, 200, r.text);
    const [s] = (JSON.parse(r.text) as { samples: HttpSample[] }).samples;
    assert.equal(s?.truncated_body, true);
    assert.equal(s?.attributes.request.http.body.length, 256);
    assert.ok((s?.attributes.request.http.size ?? 0) > 1000, 'size is that of the whole body');
    assert.equal(s?.parsed_body, null);
  });

  await t.test('labels preview: the flow labels of matching requests', async () => {
    const r = await whileSending(send, preview('labels', 'ingress', 'samples=2', { match_expressions: [{ key: 'http.request.header.user_tier', operator: 'In', values: ['silver'] }] }));
    assert.equal(r.status, 200, r.text);
    const { samples } = JSON.parse(r.text) as { samples: { labels: Record<string, string> }[] };
    assert.equal(samples.length, 2);
    for (const { labels } of samples) {
      assert.equal(labels['http.request.header.user_tier'], 'silver');
      assert.equal(labels['http.method'], 'GET');
      assert.equal(labels['http.target'], '/browse');
      assert.equal(labels['http.flavor'], '1.1');
      assert.equal(labels['http.scheme'], 'http');
      assert.match(labels['http.request.header.user_id'] ?? '', /^s[012]$/);
    }
  });

  await t.test('concurrent previews are independent; `service` narrows; the wait ends with a partial result', async () => {
    const started = Date.now();
    const all = Promise.all([
      preview('http_requests', 'ingress', `samples=2&service=${SERVICE}`, { match_labels: { 'http.request.header.user_tier': 'gold' } }),
      preview('http_requests', 'ingress', 'samples=3', { match_labels: { 'http.request.header.user_tier': 'silver' } }),
      preview('http_requests', 'ingress', 'samples=2&service=other.demo.svc.cluster.local', {}),
      preview('labels', 'ingress', 'samples=1000', { match_labels: { 'http.request.header.user_tier': 'silver' } }),
    ]);
    const [gold, silver, other, many] = await whileSending(send, all);
    const elapsed = Date.now() - started;
    const samples = (r: { status: number; text: string }) => {
      assert.equal(r.status, 200, r.text);
      return (JSON.parse(r.text) as { samples: HttpSample[] }).samples;
    };
    assert.deepEqual(samples(gold).map((s) => s.attributes.request.http.headers['user-tier']), ['gold', 'gold']);
    assert.deepEqual(samples(silver).map((s) => s.attributes.request.http.headers['user-tier']), ['silver', 'silver', 'silver']);
    assert.deepEqual(samples(other), [], 'no traffic of another service');
    const partial = JSON.parse(many.text) as { samples: { labels: Record<string, string> }[] };
    assert.ok(partial.samples.length > 0 && partial.samples.length < 1000, `partial: ${partial.samples.length}`);
    assert.ok(partial.samples.every((s) => s.labels['http.request.header.user_tier'] === 'silver'));
    assert.ok(elapsed >= 1800 && elapsed < 3500, `answered when the 2 s wait ran out (${elapsed} ms)`);
  });

  await t.test('GET /v1/flowcontrol/controlpoints lists the control point and its service', async () => {
    const r = await fetch(`${agent.base}/v1/flowcontrol/controlpoints`);
    assert.equal(r.status, 200);
    const { control_points: cps } = (await r.json()) as { control_points: { control_point: string; service: string; type: string; flows: number }[] };
    const ingress = cps.find((c) => c.control_point === 'ingress' && c.service === SERVICE);
    assert.ok(ingress, JSON.stringify(cps));
    assert.equal(ingress.type, 'http');
    assert.ok(ingress.flows > 10);
  });

  await t.test('gRPC Check through the published Aperture SDK against the agent process', async (t2) => {
    const client = new ApertureClient({ address: agent.address, channelCredentials: grpc.credentials.createInsecure() });
    t2.after(async () => {
      // ApertureClient.shutdown() stops its exporter twice (an unhandled rejection): stop the parts instead.
      const parts = client as unknown as { fcsClient: grpc.Client; tracerProvider: { shutdown(): Promise<void> } };
      await parts.tracerProvider.shutdown().catch(() => undefined);
      parts.fcsClient.close();
    });
    const start = (user: string) => client.startFlow('awesome-feature', { labels: { user }, grpcCallOptions: { deadline: Date.now() + 5000 }, rampMode: false });
    const first = await start('alice');
    assert.equal(first.shouldRun(), true);
    const r1 = first.checkResponse() as unknown as { services: string[]; controlPoint: string };
    assert.deepEqual(r1.services, [SERVICE], 'services of the caller\'s IP');
    assert.equal(r1.controlPoint, 'awesome-feature');
    first.end();
    const second = await start('alice');
    assert.equal(second.shouldRun(), false, 'one token per minute');
    assert.equal((second.checkResponse() as unknown as { rejectReason: number }).rejectReason, 1, 'RATE_LIMITED');
    const wait = Number(second.retryAfter().seconds);
    assert.ok(wait >= 58 && wait <= 60, `retry after about a minute, got ${wait}`);
    assert.equal((await start('bob')).shouldRun(), true);

    // A labels preview sees SDK flows too.
    const pending = preview('labels', 'awesome-feature', 'samples=1', { match_labels: { user: 'carol' } });
    let done = false;
    void pending.finally(() => { done = true; });
    for (let i = 0; !done && i < 200; i++) {
      (await start('carol')).end();
      await new Promise((r) => setTimeout(r, 10));
    }
    const r = await pending;
    assert.equal(r.status, 200);
    const sampled = JSON.parse(r.text) as { samples: Array<{ labels: Record<string, string>; arrival_unix_ms: number }> };
    assert.deepEqual(sampled.samples.map((x) => x.labels), [{ user: 'carol' }]);
    assert.ok(Math.abs((sampled.samples[0]?.arrival_unix_ms ?? 0) - Date.now()) < 60_000, 'each sample says when the agent saw it');
    const cps = (await (await fetch(`${agent.base}/v1/flowcontrol/controlpoints`)).json()) as { control_points: { control_point: string; type: string }[] };
    assert.ok(cps.control_points.some((c) => c.control_point === 'awesome-feature'), JSON.stringify(cps));
  });
});
