// Envoy's ext_authz API (envoy.service.auth.v3.Authorization/Check) on a real agent, asked by a gRPC
// client speaking Envoy's protos (no Envoy runs here): accepted and rate-limited answers in Envoy's
// shape, the control point from call metadata, context extensions or the default, agent-side
// errors, bounded headers, a refused target, the preview seeing the request; and Envoy's
// OpenTelemetry access log records (OTLP logs) ending flows into a published flux meter.
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { Etcd3 } from 'etcd3';
import { messageType, PROTO_DIR, otlpMessages } from '@sluice/proto';
import { post } from './support/clients.js';
import { endpointsJson, startEtcd } from './support/etcd.js';
import { startAgent, tempDir, until, writeFile, type SluiceProcess } from './support/processes.js';

type Cb = (err: grpc.ServiceError | null, res: unknown) => void;
type AuthzClient = grpc.Client & { Check(req: unknown, md: grpc.Metadata, opts: grpc.CallOptions, cb: Cb): grpc.ClientUnaryCall };
interface HeaderOption { header: { key: string; value: string } }
interface EnvoyAnswer {
  status: { code: number; message: string } | null;
  http_response: 'ok_response' | 'denied_response' | 'error_response';
  ok_response?: { headers: HeaderOption[] } | null;
  denied_response?: { status: { code: string }; headers: HeaderOption[]; body: string } | null;
  dynamic_metadata: { fields: Record<string, { stringValue?: string }> } | null;
}
interface DecodedCheckResponse { control_point?: string; decision_type?: string; reject_reason?: string; flux_meter_infos?: { flux_meter_name: string }[]; expect_end?: boolean }

/** A client of Envoy's Authorization service loaded from the repository's .proto files with proto-loader. */
function authzClient(t: TestContext, address: string): AuthzClient {
  const def = protoLoader.loadSync('envoy/service/auth/v3/external_auth.proto', { keepCase: true, enums: String, longs: Number, defaults: true, oneofs: true, includeDirs: [PROTO_DIR] });
  const pkg = grpc.loadPackageDefinition(def) as unknown as { envoy: { service: { auth: { v3: { Authorization: new (a: string, c: grpc.ChannelCredentials) => AuthzClient } } } } };
  const client = new pkg.envoy.service.auth.v3.Authorization(address, grpc.credentials.createInsecure());
  t.after(() => client.close());
  return client;
}

function check(client: AuthzClient, req: unknown, metadata: Record<string, string> = {}): Promise<EnvoyAnswer> {
  const md = new grpc.Metadata();
  for (const [k, v] of Object.entries(metadata)) md.set(k, v);
  return new Promise((resolve, reject) => {
    client.Check(req, md, { deadline: Date.now() + 5000 }, (err, res) => (err ? reject(err) : resolve(res as EnvoyAnswer)));
  });
}

/** A CheckRequest as Envoy's ext_authz filter sends it. */
function envoyRequest(path: string, headers: Record<string, string>, opts: { contextExtensions?: Record<string, string>; body?: string; method?: string } = {}): object {
  const body = opts.body ?? '';
  const peer = (address: string, port: number) => ({ address: { socket_address: { address, port_value: port } } });
  return {
    attributes: {
      source: peer('10.0.0.7', 41000),
      destination: peer('10.0.0.9', 8080),
      request: { http: { id: '1', method: opts.method ?? 'GET', headers: { ':authority': 'shop', ...headers }, path, host: 'shop', scheme: 'http', size: body.length, protocol: 'HTTP/1.1', body } },
      context_extensions: opts.contextExtensions ?? {},
    },
  };
}

function decisionOf(a: EnvoyAnswer): DecodedCheckResponse {
  const b64 = a.dynamic_metadata?.fields['aperture.check_response']?.stringValue;
  assert.equal(typeof b64, 'string', 'dynamic_metadata carries aperture.check_response');
  const type = messageType('aperture.flowcontrol.check.v1.CheckResponse');
  return type.toObject(type.decode(Buffer.from(b64 ?? '', 'base64')), { enums: String, defaults: true }) as DecodedCheckResponse;
}

const headerOf = (opts: HeaderOption[] | undefined, name: string) => opts?.find((h) => h.header.key.toLowerCase() === name)?.header.value;

test('ext_authz Check on a real agent with a local rate limiter', { timeout: 120_000 }, async (t) => {
  const limiters = writeFile(tempDir(t), 'limiters.yaml', [
    '- name: free-users',
    '  control_point: ingress',
    '  label_matcher: { match_labels: { http.request.header.user_tier: free } }',
    '  label_key: http.request.header.user_id',
    '  bucket_capacity: 2',
    '  fill_amount: 1',
    '  interval: 1h',
    '',
  ].join('\n'));
  const agent = await startAgent(t, { args: ['--local-limiters', limiters], ready: 'live' });
  const client = authzClient(t, agent.address);
  const free = (user: string) => envoyRequest('/cart', { 'user-tier': 'free', 'user-id': user });

  await t.test('accepted: status OK, ok_response, the decision in dynamic_metadata; no control point named: ingress', async () => {
    const a = await check(client, free('u1'));
    assert.equal(a.status?.code, 0);
    assert.equal(a.http_response, 'ok_response');
    const d = decisionOf(a);
    assert.equal(d.control_point, 'ingress');
    assert.equal(d.decision_type, 'DECISION_TYPE_ACCEPTED');
  });

  await t.test('rate limited: status UNAVAILABLE, denied 429 with Retry-After and a JSON body', async () => {
    assert.equal((await check(client, free('u1'))).status?.code, 0, 'the second fits the bucket');
    const a = await check(client, free('u1'));
    assert.equal(a.status?.code, 14);
    assert.equal(a.http_response, 'denied_response');
    assert.equal(a.denied_response?.status.code, 'TooManyRequests');
    const retry = Number(headerOf(a.denied_response?.headers, 'retry-after'));
    assert.ok(retry >= 1, `Retry-After ${retry}`);
    assert.equal((JSON.parse(a.denied_response?.body ?? '{}') as { reason?: string }).reason, 'RATE_LIMITED');
    const d = decisionOf(a);
    assert.equal(d.decision_type, 'DECISION_TYPE_REJECTED');
    assert.equal(d.reject_reason, 'REJECT_REASON_RATE_LIMITED');
    assert.equal((await check(client, free('u2'))).status?.code, 0, 'another user has its own bucket');
  });

  await t.test('header_map (encode_raw_headers) gives the same labels as headers', async () => {
    const req = envoyRequest('/cart', {}) as { attributes: { request: { http: Record<string, unknown> } } };
    req.attributes.request.http.headers = {};
    req.attributes.request.http.header_map = { headers: [{ key: 'user-tier', raw_value: Buffer.from('free') }, { key: 'user-id', value: 'u1' }] };
    assert.equal((await check(client, req)).denied_response?.status.code, 'TooManyRequests', 'u1 is limited whichever way its headers come');
  });

  await t.test('the control point: call metadata first, then context_extensions, else ingress', async () => {
    const byMetadata = await check(client, envoyRequest('/cart', { 'user-tier': 'free', 'user-id': 'u1' }, { contextExtensions: { 'control-point': 'ext-cp' } }), { 'control-point': 'egress' });
    assert.equal(byMetadata.status?.code, 0, 'the limiter is at ingress only');
    assert.equal(decisionOf(byMetadata).control_point, 'egress');
    const byExtension = await check(client, envoyRequest('/cart', { 'user-tier': 'free', 'user-id': 'u1' }, { contextExtensions: { 'control-point': 'ext-cp' } }));
    assert.equal(decisionOf(byExtension).control_point, 'ext-cp');
    const cps = await (await fetch(`${agent.base}/v1/flowcontrol/controlpoints`)).json() as { control_points: { control_point: string }[] };
    const names = cps.control_points.map((c) => c.control_point);
    for (const cp of ['ingress', 'egress', 'ext-cp']) assert.ok(names.includes(cp), `${cp} registered: ${names.join(',')}`);
  });

  await t.test('an ambiguous request target is refused: denied 400 with INVALID_ARGUMENT', async () => {
    const a = await check(client, envoyRequest('/admin%2Fusers', {}));
    assert.equal(a.status?.code, 3);
    assert.equal(a.denied_response?.status.code, 'BadRequest');
    assert.match(a.denied_response?.body ?? '', /%2F/);
    assert.equal(decisionOf(a).decision_type, 'DECISION_TYPE_REJECTED');
  });

  await t.test('agent-side errors are gRPC errors (Envoy applies failure_mode_allow): no HTTP attributes, a control point too long', async () => {
    await assert.rejects(check(client, { attributes: {} }), { code: grpc.status.INVALID_ARGUMENT });
    await assert.rejects(check(client, free('u9'), { 'control-point': 'x'.repeat(600) }), { code: grpc.status.INVALID_ARGUMENT });
  });

  await t.test('huge headers are bounded: too many fields is a 431 denial; a message past gRPC\'s limit is refused; the agent goes on', async () => {
    const many: Record<string, string> = {};
    for (let i = 0; i < 1001; i++) many[`x-h${i}`] = 'v';
    const a = await check(client, envoyRequest('/cart', many));
    assert.equal(a.status?.code, 3);
    assert.equal(a.denied_response?.status.code, 'RequestHeaderFieldsTooLarge');
    await assert.rejects(check(client, envoyRequest('/cart', { 'x-big': 'y'.repeat(5 << 20) })), { code: grpc.status.RESOURCE_EXHAUSTED });
    assert.equal((await check(client, free('u3'))).status?.code, 0);
  });

  await t.test('a preview sees an ext_authz request (method, path, headers, body)', async () => {
    const preview = post(`${agent.base}/v1/flowcontrol/preview/http_requests/ingress?samples=1`, JSON.stringify({ match_labels: { 'http.target': '/orders/7' } }));
    let done = false;
    void preview.finally(() => { done = true; }).catch(() => undefined);
    for (let i = 0; !done && i < 200; i++) {
      await check(client, envoyRequest('/orders/7', { 'content-type': 'application/json', 'user-tier': 'gold' }, { method: 'POST', body: '{"qty":2}' }));
      await new Promise((r) => setTimeout(r, 10));
    }
    const r = await preview;
    assert.equal(r.status, 200, r.text);
    const [s] = (JSON.parse(r.text) as { samples: { attributes: { request: { http: { method: string; path: string; headers: Record<string, string>; body: string } } }; parsed_body: unknown }[] }).samples;
    assert.equal(s?.attributes.request.http.method, 'POST');
    assert.equal(s?.attributes.request.http.path, '/orders/7');
    assert.equal(s?.attributes.request.http.headers['user-tier'], 'gold');
    assert.equal(s?.attributes.request.http.body, '{"qty":2}');
    assert.deepEqual(s?.parsed_body, { qty: 2 });
  });
});

interface Msg { fromObject(o: unknown): unknown; encode(m: unknown): { finish(): Uint8Array }; decode(b: Uint8Array): unknown }
const otlpLogs = (otlpMessages() as unknown as { ExportLogsServiceRequest: Msg; ExportLogsServiceResponse: Msg });
type LogsExporter = grpc.Client & { Export: (b: Buffer, o: grpc.CallOptions, cb: Cb) => void };
const LogsCtor = grpc.makeGenericClientConstructor({
  Export: {
    path: '/opentelemetry.proto.collector.logs.v1.LogsService/Export', requestStream: false, responseStream: false, originalName: 'export',
    requestSerialize: (b: Buffer) => b, requestDeserialize: (b: Buffer) => b,
    responseSerialize: (b: Buffer) => b, responseDeserialize: (b: Buffer) => otlpLogs.ExportLogsServiceResponse.decode(b),
  },
}, 'LogsService');

/** An Envoy access log record as deploy/istio's EnvoyFilter configures it: every attribute a string. */
function accessLog(checkResponse: string, attrs: Record<string, string>): object {
  const all: Record<string, string> = { 'aperture.source': 'envoy', 'aperture.check_response': checkResponse, 'http.status_code': '200', ...attrs };
  return { timeUnixNano: Date.now() * 1e6, body: { stringValue: 'GET' }, attributes: Object.entries(all).map(([key, v]) => ({ key, value: { stringValue: v } })) };
}

function exportLogs(c: LogsExporter, records: object[]): Promise<{ partialSuccess?: { rejectedLogRecords: unknown; errorMessage: string } }> {
  const body = Buffer.from(otlpLogs.ExportLogsServiceRequest.encode(otlpLogs.ExportLogsServiceRequest.fromObject({ resourceLogs: [{ scopeLogs: [{ logRecords: records }] }] })).finish());
  return new Promise((resolve, reject) => c.Export(body, { deadline: Date.now() + 5000 }, (e, r) => (e ? reject(e) : resolve(r as never))));
}

async function fluxMeterCount(agent: SluiceProcess, name: string): Promise<number> {
  const text = await (await fetch(`${agent.base}/metrics`)).text();
  let n = 0;
  for (const m of text.matchAll(new RegExp(`^flux_meter_count\\{flux_meter_name="${name}",[^}]*\\} (\\d+)$`, 'gm'))) n += Number(m[1]);
  return n;
}

test('Envoy access log records (OTLP logs) end ext_authz flows into a published flux meter', { timeout: 120_000 }, async (t) => {
  const etcd = await startEtcd(t);
  const raw = new Etcd3({ hosts: [etcd.endpoint] });
  t.after(() => raw.close());
  const agent = await startAgent(t, { env: { SLUICE_AGENT_ETCD_ENDPOINTS: endpointsJson(etcd) } });
  await raw.put('sluice/config/default/shop/flux_meter.lat').value(JSON.stringify({
    kind: 'flux_meter', policy_name: 'shop', policy_hash: 'h1', component_id: 'flux_meter.lat', agent_group: 'default',
    selectors: [{ control_point: 'ingress', agent_group: 'default' }], name: 'lat', attribute_key: 'workload_duration_ms', buckets: [10, 100, 1000],
  }));
  await until(async () => {
    const body = await (await fetch(`${agent.base}/v1/policies/enforced`)).json() as { components: { component_id: string }[] };
    return body.components.some((c) => c.component_id === 'flux_meter.lat');
  }, 5000, 'flux meter enforced');

  const client = authzClient(t, agent.address);
  const a = await check(client, envoyRequest('/pay', {}));
  assert.equal(a.status?.code, 0);
  const d = decisionOf(a);
  assert.deepEqual(d.flux_meter_infos, [{ flux_meter_name: 'lat' }]);
  assert.equal(d.expect_end, true, 'the access log is to end the flow');
  const b64 = a.dynamic_metadata?.fields['aperture.check_response']?.stringValue ?? '';

  const logs = new LogsCtor(agent.address, grpc.credentials.createInsecure()) as unknown as LogsExporter;
  t.after(() => logs.close());
  const ok = await exportLogs(logs, [accessLog(b64, { RESPONSE_DURATION: '57', authz_duration: '2', DURATION: '60' })]);
  assert.equal(Number(ok.partialSuccess?.rejectedLogRecords ?? 0), 0, JSON.stringify(ok));
  assert.equal(await fluxMeterCount(agent, 'lat'), 1);
  const text = await (await fetch(`${agent.base}/metrics`)).text();
  assert.match(text, /flux_meter_sum\{flux_meter_name="lat",policy_name="shop",decision_type="DECISION_TYPE_ACCEPTED",response_status="200",http_status_code="200",flow_status="OK"\} 55/);

  // Trust checks as for SDK spans: a meter not at the record's control point, a duration past the cap, no decision.
  const type = messageType('aperture.flowcontrol.check.v1.CheckResponse');
  const forged = Buffer.from(type.encode(type.fromObject({ control_point: 'elsewhere', flux_meter_infos: [{ flux_meter_name: 'lat' }] })).finish()).toString('base64');
  const bad = await exportLogs(logs, [
    accessLog(forged, { RESPONSE_DURATION: '5' }),
    accessLog(b64, { RESPONSE_DURATION: '1000000000000' }),
    accessLog('-', { RESPONSE_DURATION: '5' }),
    accessLog('not base64 protobuf!', { RESPONSE_DURATION: '5' }),
    { attributes: [{ key: 'service.name', value: { stringValue: 'someone else' } }] },
  ]);
  assert.equal(Number(bad.partialSuccess?.rejectedLogRecords), 4, JSON.stringify(bad));
  assert.match(bad.partialSuccess?.errorMessage ?? '', /none of which is at its control point/);
  assert.equal(await fluxMeterCount(agent, 'lat'), 1, 'nothing more recorded');
  const metrics = await (await fetch(`${agent.base}/metrics`)).text();
  assert.match(metrics, /flow_ends_total\{source="access_log",result="recorded"\} 1/);
  assert.match(metrics, /flow_ends_total\{source="access_log",result="out_of_range"\} 1/);
});
