// Aperture's middlewares and gateways against a real sluice-agent: the unary
// aperture.flowcontrol.checkhttp.v1 CheckHTTP (Aperture's Go/Java middlewares) through a
// grpc-js client of Aperture's checkhttp.proto, the HTTP JSON route with the exact body
// Aperture's nginx/Kong Lua plugin posts, and the published aperture-js SDK reading a
// sampler's rejection as reject reason 3 (a sampler published in a real etcd), and the
// plugin's flow-end spans over OTLP/HTTP /v1/traces measured by a published flux meter.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as grpc from '@grpc/grpc-js';
import { ApertureClient } from '@fluxninja/aperture-js';
import { Etcd3 } from 'etcd3';
import { serviceClient, otlpMessages } from '@sluice/proto';
import { apertureCheckHttpRequest, grpcClient, post, unaryCall } from './support/clients.js';
import { endpointsJson, startEtcd } from './support/etcd.js';
import { startAgent, tempDir, until, writeFile } from './support/processes.js';

interface ApertureAnswer {
  status: { code: number } | null;
  ok_response?: { headers: Record<string, string> } | null;
  denied_response?: { status: number; headers: Record<string, string>; body: string } | null;
  dynamic_metadata: { fields: Record<string, { stringValue?: string }> } | null;
}

/** The CheckResponse an Aperture gateway reads from dynamic_metadata["aperture.check_response"] (base64 protobuf). */
function checkResponseOf(b64: string | undefined): { control_point: string; decision_type: string; reject_reason: string; services: string[] } {
  assert.equal(typeof b64, 'string', 'aperture.check_response is set');
  return serviceClient('flowControl').service.Check.responseDeserialize(Buffer.from(b64 as string, 'base64')) as never;
}

/** The body access.lua builds with cjson from ngx variables: ports and Content-Length are strings. */
function luaBody(controlPoint: string): string {
  return JSON.stringify({
    source: { protocol: 'TCP', address: '127.0.0.1', port: '51234' },
    destination: { protocol: 'TCP', address: '127.0.0.1', port: '8080' },
    request: {
      method: 'POST', headers: { host: 'shop', 'content-length': '9', 'content-type': 'application/json', 'user-id': 'lua-1' },
      path: '/orders', host: 'shop', scheme: 'http', size: '9', protocol: 'HTTP/1.1', body: '{"qty":2}',
    },
    control_point: controlPoint,
  });
}

const SERVICE = 'shop.demo.svc.cluster.local';

test('Aperture\'s CheckHTTP on a real agent: unary gRPC allowed/denied (429, Retry-After), the Lua plugin\'s JSON, bad input refused', { timeout: 60_000 }, async (t) => {
  const limiters = writeFile(tempDir(t), 'limiters.yaml', '- { name: one-per-user, control_point: ingress, label_key: http.request.header.user_id, bucket_capacity: 1, fill_amount: 1, interval: 1m }\n');
  const agent = await startAgent(t, {
    args: ['--local-limiters', limiters],
    env: { SLUICE_AGENT_SERVICE_DISCOVERY_STATIC_ENTITIES: JSON.stringify([{ ip_address: '127.0.0.1', uid: 'shop-0', name: 'shop-0', namespace: 'demo', services: [SERVICE] }]) },
  });
  const aperture = grpcClient(t, 'apertureFlowControlHttp', agent.address);
  const req = apertureCheckHttpRequest('ingress', '/items?id=1', { 'user-id': 'grpc-1' });
  const ok = await unaryCall<ApertureAnswer>(aperture, 'CheckHTTP', req);
  assert.deepEqual(ok.ok_response?.headers, {});
  assert.equal(ok.status?.code, 0);
  const c1 = checkResponseOf(ok.dynamic_metadata?.fields['aperture.check_response']?.stringValue);
  assert.deepEqual([c1.control_point, c1.decision_type, c1.services], ['ingress', 'DECISION_TYPE_ACCEPTED', [SERVICE]]);
  const denied = await unaryCall<ApertureAnswer>(aperture, 'CheckHTTP', req);
  assert.equal(denied.denied_response?.status, 429);
  assert.equal(denied.denied_response?.headers['retry-after'], '60');
  assert.equal(denied.status?.code, grpc.status.RESOURCE_EXHAUSTED);
  assert.equal(checkResponseOf(denied.dynamic_metadata?.fields['aperture.check_response']?.stringValue).reject_reason, 'REJECT_REASON_RATE_LIMITED');
  await assert.rejects(unaryCall(aperture, 'CheckHTTP', { request: { method: 'GET' } }), (e: grpc.ServiceError) => e.code === grpc.status.INVALID_ARGUMENT);

  // The Lua plugin: POST /v1/flowcontrol/checkhttp, reads dynamic_metadata and the header maps.
  const url = `${agent.base}/v1/flowcontrol/checkhttp`;
  const luaHeaders = { 'content-type': 'application/json', accept: 'application/json', 'grpc-timeout': '250m' };
  const first = await post(url, luaBody('ingress'), luaHeaders);
  assert.equal(first.status, 200, first.text);
  const j1 = JSON.parse(first.text) as { ok_response?: { headers: Record<string, string> }; dynamic_metadata: Record<string, string> };
  assert.deepEqual(j1.ok_response, { headers: {} });
  assert.equal(checkResponseOf(j1.dynamic_metadata['aperture.check_response']).control_point, 'ingress');
  const second = JSON.parse((await post(url, luaBody('ingress'), luaHeaders)).text) as { denied_response: { status: number; headers: Record<string, string> } };
  assert.equal(second.denied_response.status, 429);
  assert.equal(second.denied_response.headers['retry-after'], '60');
  const bad = await post(url, luaBody('ingress').replace('"port":"51234"', '"port":"five"'), luaHeaders);
  assert.equal(bad.status, 400);
  assert.equal((JSON.parse(bad.text) as { details: { field_violations: { field: string }[] }[] }).details[0].field_violations[0].field, 'source.port');
  assert.equal((await post(url, '{"control_point":"ingress","request":{"truncated_body":true}}', luaHeaders)).status, 400, 'Sluice-only fields are not Aperture\'s');
});

test('a published sampler\'s rejection: the aperture-js SDK reads reject reason 3, Aperture\'s CheckHTTP answers 403', { timeout: 60_000 }, async (t) => {
  const etcd = await startEtcd(t);
  const raw = new Etcd3({ hosts: [etcd.endpoint] });
  t.after(() => raw.close());
  const agent = await startAgent(t, { env: { SLUICE_AGENT_ETCD_ENDPOINTS: endpointsJson(etcd) } });
  await raw.put('sluice/decisions/default/sampled/root.0').value(JSON.stringify({ kind: 'sampler', accept_percentage: 0, pass_through: false }));
  await raw.put('sluice/config/default/sampled/root.0').value(JSON.stringify({
    kind: 'sampler', policy_name: 'sampled', policy_hash: 'h1', component_id: 'root.0', agent_group: 'default',
    selectors: [{ control_point: 'feature', agent_group: 'default' }], parameters: { label_key: '' }, pass_through_label_values: [],
  }));
  const client = new ApertureClient({ address: agent.address, channelCredentials: grpc.credentials.createInsecure() });
  t.after(async () => {
    const parts = client as unknown as { fcsClient: grpc.Client; tracerProvider: { shutdown(): Promise<void> } };
    await parts.tracerProvider.shutdown().catch(() => undefined);
    parts.fcsClient.close();
  });
  const start = () => client.startFlow('feature', { labels: { user: 'u1' }, grpcCallOptions: { deadline: Date.now() + 5000 }, rampMode: false });
  await until(async () => !(await start()).shouldRun(), 5000, 'sampler enforced');
  const flow = await start();
  const cr = flow.checkResponse() as unknown as { decisionType: number; rejectReason: number; limiterDecisions: { componentId: string; samplerInfo?: object }[] };
  assert.equal(cr.decisionType, 1);
  assert.equal(cr.rejectReason, 3, 'REGULATED (NOT_SAMPLED in this SDK\'s proto): a value the SDK defines');
  assert.equal(cr.limiterDecisions[0].componentId, 'root.0');
  const aperture = grpcClient(t, 'apertureFlowControlHttp', agent.address);
  const denied = await unaryCall<ApertureAnswer>(aperture, 'CheckHTTP', apertureCheckHttpRequest('feature', '/x'));
  assert.equal(denied.denied_response?.status, 403);
  assert.equal(checkResponseOf(denied.dynamic_metadata?.fields['aperture.check_response']?.stringValue).reject_reason, 'REJECT_REASON_REGULATED');
  // counted under Aperture's names and labels
  const metrics = await (await fetch(`${agent.base}/metrics`)).text();
  assert.match(metrics, /^sampler_counter_total\{policy_name="sampled",policy_hash="h1",component_id="root\.0",decision_type="DECISION_TYPE_REJECTED",sampler_dropped="true"\} [1-9]/m);
  assert.match(metrics, /^flowcontrol_reject_reasons_total\{control_point="feature",reject_reason="REJECT_REASON_REGULATED",agent_group="default"\} [1-9]/m);
  assert.match(metrics, /^flowcontrol_requests_total\{control_point="feature",agent_group="default"\} [1-9]/m);
});

async function fluxMeterCount(base: string, name: string): Promise<number> {
  const text = await (await fetch(`${base}/metrics`)).text();
  let n = 0;
  for (const m of text.matchAll(new RegExp(`^flux_meter_count\\{flux_meter_name="${name}",[^}]*\\} (\\d+)$`, 'gm'))) n += Number(m[1]);
  return n;
}

interface OtlpMsg { fromObject(o: unknown): unknown; encode(m: unknown): { finish(): Uint8Array }; decode(b: Uint8Array): { partialSuccess?: { rejectedSpans?: unknown } | null } }

test('the Lua plugin\'s flow end over OTLP/HTTP /v1/traces (protobuf and JSON) lands in a published flux meter; bad exports refused', { timeout: 60_000 }, async (t) => {
  const otlp = (otlpMessages() as unknown as { ExportTraceServiceRequest: OtlpMsg; ExportTraceServiceResponse: OtlpMsg });
  const etcd = await startEtcd(t);
  const raw = new Etcd3({ hosts: [etcd.endpoint] });
  t.after(() => raw.close());
  const agent = await startAgent(t, { env: { SLUICE_AGENT_ETCD_ENDPOINTS: endpointsJson(etcd) } });
  await raw.put('sluice/config/default/gw/flux_meter.lua').value(JSON.stringify({
    kind: 'flux_meter', policy_name: 'gw', policy_hash: 'h1', component_id: 'flux_meter.lua', agent_group: 'default',
    selectors: [{ control_point: 'ingress', agent_group: 'default' }], name: 'lua-latency', attribute_key: 'workload_duration_ms', buckets: [10, 100, 1000],
  }));
  const url = `${agent.base}/v1/flowcontrol/checkhttp`;
  const ask = async () => (JSON.parse((await post(url, luaBody('ingress'))).text) as { dynamic_metadata: Record<string, string> }).dynamic_metadata['aperture.check_response'];
  await until(async () => (checkResponseOf(await ask()) as unknown as { flux_meter_infos: unknown[] }).flux_meter_infos.length === 1, 5000, 'flux meter enforced');
  const cr = await ask();
  const now = Date.now();
  const span = (startMs: number) => ({ resourceSpans: [{ scopeSpans: [{ spans: [{
    traceId: '5b8efff798038103d269b633813fc60c', spanId: 'eee19b7ec3c1b174', name: 'Aperture CheckHTTP', kind: 2,
    startTimeUnixNano: String(startMs * 1e6), endTimeUnixNano: String(now * 1e6),
    attributes: [{ key: 'aperture.source', value: { stringValue: 'lua' } }, { key: 'aperture.check_response', value: { stringValue: cr } }],
  }] }] }] });
  const traces = `${agent.base}/v1/traces`;
  const pb = await fetch(traces, { method: 'POST', headers: { 'content-type': 'application/x-protobuf' }, body: otlp.ExportTraceServiceRequest.encode(otlp.ExportTraceServiceRequest.fromObject(span(now - 30))).finish() });
  assert.equal(pb.status, 200);
  assert.equal(otlp.ExportTraceServiceResponse.decode(new Uint8Array(await pb.arrayBuffer())).partialSuccess ?? null, null);
  const js = await post(traces, JSON.stringify(span(now - 15)));
  assert.equal(js.status, 200, js.text);
  assert.equal(await fluxMeterCount(agent.base, 'lua-latency'), 2);
  const capped = JSON.parse((await post(traces, JSON.stringify(span(now - 2 * 3_600_000)))).text) as { partialSuccess: { rejectedSpans: number } };
  assert.equal(Number(capped.partialSuccess.rejectedSpans), 1, 'past the duration cap');
  assert.equal((await post(traces, '{"resourceSpans":7}')).status, 400);
  assert.equal((await post(traces, '{}', { 'content-type': 'text/plain' })).status, 415);
  assert.equal(await fluxMeterCount(agent.base, 'lua-latency'), 2);
});
