// The agent process against docs/api/openapi.yaml: every documented operation
// is answered with a documented status and a body matching the documented
// schema (good and bad requests), and nothing else is routed.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { apertureCheckHttpRequest, get, post, type Reply } from './support/clients.js';
import { conformance, loadSpec } from './support/openapi.js';
import { startAgent, tempDir, until, writeFile } from './support/processes.js';

const spec = loadSpec();
const HTTP = '/v1/flowcontrol/preview/http_requests/{control_point}';
const LABELS = '/v1/flowcontrol/preview/labels/{control_point}';
const CHECK = '/v1/flowcontrol/checkhttp';
const j = JSON.stringify;
const TEXT = { 'content-type': 'text/plain' };

// The timeouts guard against a hang: the first test took 52 s on a loaded 2-core machine (load ~15).
test('agent process conforms to docs/api/openapi.yaml', { timeout: 180_000 }, async (t) => {
  const limiters = writeFile(tempDir(t), 'limiters.yaml', '- { control_point: deny, bucket_capacity: 0, fill_amount: 1, interval: 1s }\n');
  const env = { SLUICE_AGENT_SERVER_HTTP_WRITE_TIMEOUT: '3s' };
  const [agent, disabled] = await Promise.all([
    startAgent(t, { env: { ...env, SLUICE_AGENT_OTEL_ENABLE_HIGH_CARDINALITY_PLATFORM_METRICS: 'true' }, args: ['--local-limiters', limiters] }),
    startAgent(t, { env: { ...env, SLUICE_AGENT_FLOW_CONTROL_PREVIEW_SERVICE_ENABLED: 'false' } }),
  ]);
  const base = agent.base;
  const problems: string[] = [];
  const covered = new Map<string, Set<number>>();
  /** Checks one exchange: the expected status, then conformance to the documented operation. */
  const expect = async (path: string, method: string, what: string, status: number, pending: Promise<Reply>): Promise<Reply> => {
    const reply = await pending;
    const key = `${method.toUpperCase()} ${path}`;
    if (reply.status !== status) problems.push(`${key} (${what}): status ${reply.status}, expected ${status}: ${reply.text.slice(0, 200)}`);
    for (const p of conformance(spec.operation(path, method), reply)) problems.push(`${key} (${what}): ${p}`);
    covered.set(key, (covered.get(key) ?? new Set()).add(reply.status));
    return reply;
  };
  const feed = (controlPoint: string, i: number) =>
    post(`${base}${CHECK}`, j(apertureCheckHttpRequest(controlPoint, `/feed/${i}?q=${i}`, { 'content-type': 'application/json' }, 'POST', j({ i }))));
  /** Keeps CheckHTTP traffic coming until `pending` settles. */
  const feedUntil = async (pending: Promise<Reply>): Promise<Reply> => {
    let done = false;
    void pending.finally(() => { done = true; }).catch(() => undefined);
    for (let i = 0; !done && i < 300; i++) {
      await feed('ingress', i);
      await new Promise((r) => setTimeout(r, 10));
    }
    return pending;
  };
  const preview = (kind: string, cp: string, query: string, body: string | undefined, headers?: Record<string, string>, at = base) =>
    post(`${at}/v1/flowcontrol/preview/${kind}/${cp}${query}`, body, headers);
  const big = j({ match_labels: { a: 'x'.repeat(2 * 1024 * 1024) } });

  // Previews: good, bad, disabled (501).
  for (const [path, kind] of [[HTTP, 'http_requests'], [LABELS, 'labels']] as const) {
    const good = await expect(path, 'post', 'samples of POST requests', 200, feedUntil(preview(kind, 'ingress', '?samples=2', j({ match_labels: { 'http.method': 'POST' } }))));
    assert.equal((JSON.parse(good.text) as { samples: unknown[] }).samples.length, 2);
    await expect(path, 'post', 'samples=abc', 400, preview(kind, 'ingress', '?samples=abc', '{}'));
    await expect(path, 'post', 'unknown operator', 400, preview(kind, 'ingress', '', j({ match_expressions: [{ key: 'a', operator: 'Near' }] })));
    await expect(path, 'post', 'invalid JSON', 400, preview(kind, 'ingress', '', '{'));
    await expect(path, 'post', 'raw slash in the control point', 404, preview(kind, 'a/b', '', '{}'));
    await expect(path, 'post', '2 MiB body', 413, preview(kind, 'ingress', '', big));
    await expect(path, 'post', 'text/plain', 415, preview(kind, 'ingress', '', '{}', TEXT));
    await expect(path, 'post', 'disabled', 501, preview(kind, 'ingress', '', '{}', undefined, disabled.base));
  }
  // 100 previews at once: one more of either kind is 429. 98 end with a sample; two end empty when their 2 s are up.
  const previewsActive = async (): Promise<number> => Number(/^flow_preview_active (\d+)$/m.exec((await get(`${base}/metrics`)).text)?.[1] ?? -1);
  const silent = [preview('http_requests', 'silent', '?samples=1', '{}'), preview('labels', 'silent', '?samples=1', '{}')];
  const waiting = Array.from({ length: 98 }, (_, i) => preview(i % 2 === 0 ? 'http_requests' : 'labels', 'quiet', '?samples=1', '{}'));
  // Every one of them is registered (the agent's gauge of running previews says so).
  await until(async () => (await previewsActive()) >= 100, 10_000, '100 previews running');
  await new Promise((r) => setTimeout(r, 100));
  await expect(HTTP, 'post', 'one preview too many', 429, preview('http_requests', 'quiet', '', '{}'));
  await expect(LABELS, 'post', 'one preview too many', 429, preview('labels', 'quiet', '', '{}'));
  await feed('quiet', 0);
  await Promise.all(waiting.map((p, i) => expect(i % 2 === 0 ? HTTP : LABELS, 'post', 'one sample', 200, p)));
  const empty = await Promise.all(silent.map((p, i) => expect(i === 0 ? HTTP : LABELS, 'post', 'wait over, no samples', 200, p)));
  assert.deepEqual(empty.map((r) => JSON.parse(r.text) as unknown), [{ samples: [] }, { samples: [] }]);

  // CheckHTTP and control points.
  const ok = await expect(CHECK, 'post', 'accepted', 200, post(`${base}${CHECK}`, j(apertureCheckHttpRequest('ingress', '/ok'))));
  const okJson = JSON.parse(ok.text) as Record<string, unknown>;
  assert.ok('ok_response' in okJson && !('http_response' in okJson), 'proto3 JSON: the oneof member, no discriminator');
  await expect(CHECK, 'post', 'a port as a string (the Lua plugin)', 200, post(`${base}${CHECK}`, j({ ...apertureCheckHttpRequest('ingress', '/lua'), source: { address: '10.0.0.1', port: '5432' } })));
  const denied = await expect(CHECK, 'post', 'denied', 200, post(`${base}${CHECK}`, j(apertureCheckHttpRequest('deny', '/no'))));
  assert.equal((JSON.parse(denied.text) as { denied_response: { status: number } }).denied_response.status, 429);
  await expect(CHECK, 'post', 'no control point', 400, post(`${base}${CHECK}`, j({ request: {} })));
  await expect(CHECK, 'post', 'no body', 400, post(`${base}${CHECK}`, undefined));
  await expect(CHECK, 'post', 'array body', 400, post(`${base}${CHECK}`, '[1]'));
  await expect(CHECK, 'post', 'request not an object', 400, post(`${base}${CHECK}`, j({ control_point: 'x', request: 'str' })));
  await expect(CHECK, 'post', 'a field only Sluice\'s own CheckHTTP has', 400, post(`${base}${CHECK}`, j({ control_point: 'x', request: { truncated_body: false } })));
  await expect(CHECK, 'post', 'letters for a port', 400, post(`${base}${CHECK}`, j({ control_point: 'x', source: { port: 'abc' } })));
  await expect(CHECK, 'post', '2 MiB body', 413, post(`${base}${CHECK}`, j({ control_point: 'x', request: { body: 'x'.repeat(2 * 1024 * 1024) } })));
  await expect(CHECK, 'post', 'text/plain', 415, post(`${base}${CHECK}`, '{}', TEXT));
  // OTLP/HTTP traces (JSON; protobuf bodies are covered in agent-aperture-checkhttp).
  const traces = await expect('/v1/traces', 'post', 'an empty export', 200, post(`${base}/v1/traces`, j({ resourceSpans: [] })));
  assert.deepEqual(JSON.parse(traces.text), {});
  await expect('/v1/traces', 'post', 'a span of an Aperture SDK that cannot be read', 200, post(`${base}/v1/traces`, j({ resourceSpans: [{ scopeSpans: [{ spans: [{ attributes: [{ key: 'aperture.check_response', value: { stringValue: '{' } }] }] }] }] })));
  await expect('/v1/traces', 'post', 'not an export', 400, post(`${base}/v1/traces`, j({ resourceSpans: 7 })));
  await expect('/v1/traces', 'post', '5 MiB body', 413, post(`${base}/v1/traces`, j({ pad: 'x'.repeat(5 * 1024 * 1024) })));
  await expect('/v1/traces', 'post', 'text/plain', 415, post(`${base}/v1/traces`, '{}', TEXT));
  const END = '/v1/flowcontrol/flowend';
  await expect(END, 'post', 'unknown flow id', 200, post(`${base}${END}`, j({ control_point: 'ingress', flow_id: 'nope', status_code: 200, duration: '0.010s' })));
  await expect(END, 'post', 'a string for the status', 400, post(`${base}${END}`, j({ flow_id: 'x', status_code: 'ok' })));
  await expect(END, 'post', 'unknown field', 400, post(`${base}${END}`, j({ flow_idd: 'x' })));
  await expect(END, 'post', 'no body', 400, post(`${base}${END}`, undefined));
  await expect(END, 'post', '2 MiB body', 413, post(`${base}${END}`, j({ flow_id: 'x'.repeat(2 * 1024 * 1024) })));
  await expect(END, 'post', 'text/plain', 415, post(`${base}${END}`, '{}', TEXT));
  const cps = await expect('/v1/flowcontrol/controlpoints', 'get', 'list', 200, get(`${base}/v1/flowcontrol/controlpoints`));
  assert.ok(cps.text.includes('"deny"'));

  // Policies in force (none: no etcd here) and the entities of service discovery.
  const inForce = await expect('/v1/policies/enforced', 'get', 'nothing published', 200, get(`${base}/v1/policies/enforced`));
  assert.deepEqual((JSON.parse(inForce.text) as { components: unknown[] }).components, []);
  await expect('/v1/discovery/entities', 'get', 'first page', 200, get(`${base}/v1/discovery/entities?limit=1`));
  await expect('/v1/discovery/entities', 'get', 'limit=abc', 400, get(`${base}/v1/discovery/entities?limit=abc`));
  await expect('/v1/discovery/entities', 'get', 'a page_token it did not issue', 400, get(`${base}/v1/discovery/entities?page_token=zz`));
  const peers = await expect('/v1/peers', 'get', 'alone in its group', 200, get(`${base}/v1/peers`));
  assert.equal((JSON.parse(peers.text) as { self: { group: string } }).self.group, 'default');
  const stats = await expect('/v1/distcache/stats', 'get', 'counters', 200, get(`${base}/v1/distcache/stats`));
  assert.deepEqual((({ known_members, minority }) => ({ known_members, minority }))(JSON.parse(stats.text) as { known_members: number; minority: boolean }), { known_members: 1, minority: false }, 'alone: counts on itself, not a minority');
  const scalers = await expect('/v1/autoscale/pod-scalers', 'get', 'off without a Kubernetes API', 200, get(`${base}/v1/autoscale/pod-scalers`));
  assert.equal((JSON.parse(scalers.text) as { enabled: boolean }).enabled, false);

  // Health, metrics, profiles.
  await expect('/v1/status/system/liveness', 'get', 'healthy', 200, get(`${base}/v1/status/system/liveness`));
  await expect('/v1/status/system/readiness', 'get', 'healthy', 200, get(`${base}/v1/status/system/readiness`));
  assert.equal((await expect('/healthz', 'get', 'healthy', 200, get(`${base}/healthz`))).text, 'ok');
  assert.match((await expect('/metrics', 'get', 'scrape', 200, get(`${base}/metrics`))).text, /^# HELP /m);
  const profile = expect('/debug/pprof/profile', 'get', 'one second', 200, get(`${base}/debug/pprof/profile?seconds=1`));
  await new Promise((r) => setTimeout(r, 200));
  await expect('/debug/pprof/profile', 'get', 'a second profile at once', 409, get(`${base}/debug/pprof/profile?seconds=1`));
  await profile;
  for (const bad of ['0', '301', 'abc']) await expect('/debug/pprof/profile', 'get', `seconds=${bad}`, 400, get(`${base}/debug/pprof/profile?seconds=${bad}`));
  await expect('/debug/pprof/heap', 'get', 'heap', 200, get(`${base}/debug/pprof/heap`));
  await expect('/debug/pprof/symbol', 'get', 'symbol', 200, get(`${base}/debug/pprof/symbol`));
  await expect('/debug/pprof/symbol', 'post', 'addresses', 200, post(`${base}/debug/pprof/symbol`, '0x4005d0+0x400620', TEXT));
  await expect('/debug/pprof/symbol', 'post', 'too many addresses', 413, post(`${base}/debug/pprof/symbol`, '0x1+'.repeat(20_000), TEXT));
  assert.ok((await expect('/debug/pprof/cmdline', 'get', 'cmdline', 200, get(`${base}/debug/pprof/cmdline`))).text.includes('\0'));
  assert.match((await expect('/debug/pprof/', 'get', 'index', 200, get(`${base}/debug/pprof/`))).text, /profile[\s\S]*heap/);

  assert.deepEqual(problems, [], 'every reply conforms to the documented operation');
  // Every documented operation was exercised and answered with a 2xx.
  for (const op of spec.operations) {
    const statuses = covered.get(`${op.method.toUpperCase()} ${op.path}`);
    assert.ok(statuses !== undefined && [...statuses].some((s) => s >= 200 && s < 300), `${op.method} ${op.path} not exercised`);
  }
});

test('the agent routes nothing beyond the documented operations: 404 in the gateway error shape', { timeout: 90_000 }, async (t) => {
  const agent = await startAgent(t);
  const error = spec.schema('Error');
  const wrong: string[] = [];
  const probe = async (method: string, path: string): Promise<void> => {
    const r = await fetch(`${agent.base}${path}`, { method, ...(method === 'GET' ? {} : { headers: { 'content-type': 'application/json' }, body: '{}' }) });
    const text = await r.text();
    let body: unknown;
    try { body = JSON.parse(text); } catch { body = text; }
    if (r.status !== 404 || !error(body) || (body as { code: number }).code !== 5) wrong.push(`${method} ${path}: ${r.status} ${text.slice(0, 120)}`);
  };
  // Documented paths with the methods they do not document.
  for (const path of new Set(spec.operations.map((o) => o.path))) {
    const concrete = path.replace('{control_point}', 'cp');
    for (const method of ['get', 'post', 'put', 'delete', 'patch']) {
      if (!spec.operations.some((o) => o.path === path && o.method === method)) await probe(method.toUpperCase(), concrete);
    }
  }
  // Paths nobody documented.
  for (const path of ['/', '/v1', '/v1/flowcontrol', '/v1/flowcontrol/preview', '/v1/flowcontrol/preview/http_requests', '/v1/flowcontrol/preview/traces/cp',
    '/v1/flowcontrol/check', '/v1/status', '/v1/status/system', '/v1/status/system/liveness/extra', '/healthz/extra', '/metrics/extra',
    '/debug/pprof/goroutine', '/debug/vars', '/openapi.yaml', '/aperture.flowcontrol.check.v1.FlowControlService/Check']) {
    await probe('GET', path);
    await probe('POST', path);
  }
  assert.deepEqual(wrong, []);
});

test('the validators built from the spec refuse what it excludes', () => {
  const reply = (status: number, body: unknown, type = 'application/json'): Reply => ({ status, headers: new Headers({ 'content-type': type }), text: JSON.stringify(body) });
  const op = spec.operation(HTTP, 'post');
  const sample = {
    attributes: {
      request: { http: { method: 'GET', path: '/', host: 'h', scheme: 'http', size: 0, protocol: 'HTTP/1.1', headers: {}, body: '' } },
      source: { socketAddress: { address: '127.0.0.1', port: 1 } },
      destination: { socketAddress: { address: '127.0.0.1', port: 2 } },
    },
    parsed_path: [], parsed_query: {}, parsed_body: null, truncated_body: false, arrival_unix_ms: 1_800_000_000_000,
  };
  assert.deepEqual(conformance(op, reply(200, { samples: [sample] })), []);
  const { arrival_unix_ms: _when, ...withoutArrival } = sample;
  assert.notDeepEqual(conformance(op, reply(200, { samples: [withoutArrival] })), []);
  const { parsed_body: _dropped, ...withoutBody } = sample;
  assert.notDeepEqual(conformance(op, reply(200, { samples: [withoutBody] })), []);
  assert.notDeepEqual(conformance(op, reply(200, { samples: [{ ...sample, truncated_body: 'no' }] })), []);
  assert.notDeepEqual(conformance(op, reply(200, { samples: [sample] }, 'text/plain')), []);
  assert.notDeepEqual(conformance(op, reply(500, { code: 13, message: 'x', details: [] })), [], '500 is not documented');
  assert.notDeepEqual(conformance(op, reply(400, { code: 3, message: 'x' })), [], 'details is required');
  const check = spec.operation(CHECK, 'post');
  const deniedAnswer = { status: { code: 8, message: 'rejected' }, denied_response: { status: 429, headers: { 'retry-after': '1' }, body: '' }, dynamic_metadata: { 'aperture.check_response': 'CgYIARAA' } };
  assert.deepEqual(conformance(check, reply(200, deniedAnswer)), []);
  assert.notDeepEqual(conformance(check, reply(200, { ...deniedAnswer, http_response: 'denied_response' })), [], 'no loader discriminator');
  assert.notDeepEqual(conformance(check, reply(200, { ...deniedAnswer, ok_response: { headers: {} } })), [], 'one of ok_response and denied_response');
  assert.notDeepEqual(conformance(check, reply(200, { ...deniedAnswer, denied_response: { status: 429, headers: [], body: '' } })), [], 'headers are a map');
  assert.notDeepEqual(conformance(check, reply(200, { ...deniedAnswer, dynamic_metadata: {} })), [], 'the check response is in the dynamic metadata');
  assert.notDeepEqual(conformance(check, reply(200, { denied_response: { status: 500 } })), []);
  const enforcedOp = spec.operation('/v1/policies/enforced', 'get');
  const component = { policy_name: 'p', policy_hash: 'h', component_id: 'root.0', kind: 'rate_limiter', selectors: 1,
    decision: { kind: 'rate_limiter', bucket_capacity: 20, fill_amount: 10, pass_through: false } };
  const inForce = { agent_group: 'default', etcd_state: 'connected', synced: true, components: [component, { ...component, component_id: 'root.1', decision: null }] };
  assert.deepEqual(conformance(enforcedOp, reply(200, inForce)), []);
  assert.notDeepEqual(conformance(enforcedOp, reply(200, { ...inForce, etcd_state: 'gone' })), [], 'etcd_state is one of three');
  assert.notDeepEqual(conformance(enforcedOp, reply(200, { ...inForce, components: [{ ...component, kind: 'concurrency_limiter' }] })), [], 'kinds the agent builds');
  const peersOp = spec.operation('/v1/peers', 'get');
  const addrs = { bind_addr: '127.0.0.1:3320', memberlist_addr: '127.0.0.1:3322' };
  const peer = { id: 'b', group: 'default', advertisement_addr: '127.0.0.1:8080', dist_cache: addrs, state: 'suspect', in_ring: true, sources: ['etcd'] };
  assert.deepEqual(conformance(peersOp, reply(200, { self: { id: 'a', group: 'default', dist_cache: addrs }, peers: [peer] })), []);
  assert.notDeepEqual(conformance(peersOp, reply(200, { self: { id: 'a', group: 'default', dist_cache: addrs }, peers: [{ ...peer, state: 'asleep' }] })), [], 'member states');
  const cps = spec.operation('/v1/flowcontrol/controlpoints', 'get');
  const cp = { control_point: 'cp', service: 'web', type: 'http', last_seen: '2026-05-04T10:21:07.5Z', flows: 3 };
  assert.deepEqual(conformance(cps, reply(200, { control_points: [cp] })), []);
  assert.notDeepEqual(conformance(cps, reply(200, { control_points: [{ ...cp, last_seen: { seconds: 1, nanos: 0 } }] })), [], 'last_seen is a string');
});
