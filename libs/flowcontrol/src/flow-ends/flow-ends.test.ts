import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as grpc from '@grpc/grpc-js';
import { ApertureClient } from '@fluxninja/aperture-js';
import { Registry } from 'prom-client';
import { serviceClient, type CheckHTTPResponse__Output, otlpMessages } from '@sluice/proto';
import { Engine } from '../check/engine.js';
import { FlowEnds } from './flow-ends.js';
import { FluxMeterComponent } from '../flux-meters/flux-meter.js';
import { FluxMeterHistogram } from '../flux-meters/flux-meter-metrics.js';
import { OTLP_TRACE_SERVICE, registerOtlpTraceService } from './otlp-trace-service.js';
import { Sampler } from '../limiters/sampler.js';
import { registerFlowControlServices } from '../services/register-services.js';
import type { Limiter } from '../check/component.js';
import { otlpExportClient, startTestServer, TEST_KINDS } from '../testing/test-support.js';

type Cb<T> = (err: grpc.ServiceError | null, res: T) => void;
type Client = grpc.Client & Record<string, (req: unknown, opts: grpc.CallOptions, cb: Cb<unknown>) => void>;

function call<T>(client: Client, rpc: string, req: unknown): Promise<T> {
  return new Promise((resolve, reject) => {
    client[rpc](req, { deadline: Date.now() + 5000 }, (err, res) => (err ? reject(err) : resolve(res as T)));
  });
}

interface Msg<T> { fromObject(o: unknown): T; encode(m: T): { finish(): Uint8Array }; decode(b: Uint8Array): unknown }
const otlp = (otlpMessages() as unknown as { ExportTraceServiceRequest: Msg<unknown>; ExportTraceServiceResponse: Msg<unknown> });

async function setup(t: import('node:test').TestContext) {
  const registry = new Registry();
  const engine = new Engine();
  const histogram = new FluxMeterHistogram(registry);
  const flowEnds = new FlowEnds({ fluxMeters: engine, histogram, registry });
  engine.register(new FluxMeterComponent({ name: 'checkout-latency', policy_name: 'shop', buckets: [10, 100, 1000] }), { control_point: 'checkout' });
  const s = await startTestServer((server) => {
    registerFlowControlServices(server, engine, undefined, { flowEnds });
    registerOtlpTraceService(server, { consume: (span) => flowEnds.recordSpan(span) !== 'malformed' });
  });
  t.after(() => s.server.shutdown({ deadlineMs: 2000 }));
  const count = async (labels: string): Promise<number> => {
    const m = new RegExp(`^flux_meter_count\\{flux_meter_name="checkout-latency",policy_name="shop",${labels}\\} (\\d+)$`, 'm').exec(await registry.metrics());
    return m === null ? 0 : Number(m[1]);
  };
  return { ...s, engine, flowEnds, registry, count };
}

const httpCheck = (cp: string) => ({
  control_point: cp, source: { address: '127.0.0.1', port: 1 }, destination: { address: '127.0.0.1', port: 2 },
  request: { method: 'GET', path: '/', headers: { host: 'x' } },
});

test('CheckHTTP answers a flow_id and expect_end for measured flows; FlowEnd records the duration', async (t) => {
  const { grpcAddress, count, flowEnds, registry } = await setup(t);
  const http = new (serviceClient('flowControlHttp'))(grpcAddress, grpc.credentials.createInsecure()) as unknown as Client;
  const fcs = new (serviceClient('flowControl'))(grpcAddress, grpc.credentials.createInsecure()) as unknown as Client;
  t.after(() => { http.close(); fcs.close(); });

  const sdkCheck = await call<{ expect_end: boolean; flux_meter_infos: unknown[] }>(fcs, 'Check', { control_point: 'checkout', labels: {} });
  assert.equal(sdkCheck.expect_end, true, 'Check: flux meters measure the flow');
  assert.equal((await call<{ expect_end: boolean }>(fcs, 'Check', { control_point: 'other', labels: {} })).expect_end, false);

  const plain = await call<CheckHTTPResponse__Output>(http, 'CheckHTTP', httpCheck('other'));
  assert.equal(plain.flow_id, '');
  assert.equal(plain.check_response?.expect_end, false);

  const r = await call<CheckHTTPResponse__Output>(http, 'CheckHTTP', httpCheck('checkout'));
  assert.notEqual(r.flow_id, '');
  assert.equal(r.check_response?.expect_end, true);
  assert.deepEqual(r.check_response?.flux_meter_infos, [{ flux_meter_name: 'checkout-latency' }]);
  await call(fcs, 'FlowEnd', { control_point: 'checkout', flow_id: r.flow_id, status_code: 200, duration: { seconds: 0, nanos: 42_000_000 } });
  assert.equal(await count('decision_type="DECISION_TYPE_ACCEPTED",response_status="200",http_status_code="200",flow_status="OK"'), 1);
  assert.match(await registry.metrics(), /flux_meter_sum\{flux_meter_name="checkout-latency",policy_name="shop",decision_type="DECISION_TYPE_ACCEPTED",response_status="200",http_status_code="200",flow_status="OK"\} 42\n/, 'the duration given wins');

  // an end without a duration is measured from the check; a 5xx is an Error
  const r2 = await call<CheckHTTPResponse__Output>(http, 'CheckHTTP', httpCheck('checkout'));
  await call(fcs, 'FlowEnd', { control_point: 'checkout', flow_id: r2.flow_id, status_code: 503 });
  assert.equal(await count('decision_type="DECISION_TYPE_ACCEPTED",response_status="503",http_status_code="503",flow_status="Error"'), 1);

  // a second end, an unknown id, another control point: answered, counted, not recorded
  await call(fcs, 'FlowEnd', { control_point: 'checkout', flow_id: r2.flow_id, status_code: 200 });
  await call(fcs, 'FlowEnd', { control_point: 'checkout', flow_id: 'no-such-flow', status_code: 200 });
  const r3 = await call<CheckHTTPResponse__Output>(http, 'CheckHTTP', httpCheck('checkout'));
  await call(fcs, 'FlowEnd', { control_point: 'elsewhere', flow_id: r3.flow_id, status_code: 200 });
  assert.equal(await count('decision_type="DECISION_TYPE_ACCEPTED",response_status="200",http_status_code="200",flow_status="OK"'), 1);
  assert.equal(flowEnds.inflight.stats.unknown, 3);
  assert.match(await registry.metrics(), /flow_ends_total\{source="flow_end",result="unknown"\} 3/);

  // bad FlowEnd requests
  for (const [req, field] of [[{ control_point: 'checkout' }, 'flow_id'], [{ flow_id: 'x'.repeat(200) }, 'flow_id'], [{ flow_id: 'a', duration: { seconds: -1 } }, 'duration']] as const) {
    await assert.rejects(call(fcs, 'FlowEnd', req), (e: grpc.ServiceError) => e.code === grpc.status.INVALID_ARGUMENT && e.details.includes(field));
  }
});

test('a rejected measured flow is recorded at once, without a flow_id', async (t) => {
  const { grpcAddress, count, engine } = await setup(t);
  engine.register(new Sampler({ identity: { policy_name: 'shop', policy_hash: 'h', component_id: 'root.0' }, decision: { accept_percentage: 0, pass_through: false } }), { control_point: 'checkout' });
  const http = new (serviceClient('flowControlHttp'))(grpcAddress, grpc.credentials.createInsecure()) as unknown as Client;
  t.after(() => http.close());
  const r = await call<CheckHTTPResponse__Output>(http, 'CheckHTTP', httpCheck('checkout'));
  assert.equal(r.denied_response?.status, 403);
  assert.equal(r.flow_id, '');
  assert.equal(await count('decision_type="DECISION_TYPE_REJECTED",response_status="403",http_status_code="403",flow_status="Error"'), 1);
});

test('the Aperture SDK: Check names the flux meter, the span it exports is accepted and recorded', async (t) => {
  const { grpcAddress, count } = await setup(t);
  const client = new ApertureClient({ address: grpcAddress, channelCredentials: grpc.credentials.createInsecure() });
  const parts = client as unknown as { fcsClient: grpc.Client; tracerProvider: { forceFlush(): Promise<void>; shutdown(): Promise<void> } };
  t.after(async () => {
    await parts.tracerProvider.shutdown().catch(() => undefined);
    parts.fcsClient.close();
  });
  const flow = await client.startFlow('checkout', { labels: { user: 'a' }, grpcCallOptions: { deadline: Date.now() + 5000 }, rampMode: false });
  assert.equal(flow.shouldRun(), true);
  // (the SDK's copy of check.proto predates expect_end: it cannot read that field)
  const cr = flow.checkResponse() as unknown as { fluxMeterInfos: { fluxMeterName: string }[] };
  assert.deepEqual(cr.fluxMeterInfos, [{ fluxMeterName: 'checkout-latency' }]);
  await new Promise((r) => setTimeout(r, 20));
  flow.end();
  // forceFlush rejects when the exporter fails (as it did against an agent without the trace service)
  await parts.tracerProvider.forceFlush();
  assert.equal(await count('decision_type="DECISION_TYPE_ACCEPTED",response_status="OK",http_status_code="",flow_status="OK"'), 1);
});

test('OTLP Export: malformed Aperture spans are answered as rejected, others ignored; garbage is INVALID_ARGUMENT', async (t) => {
  const { grpcAddress, registry } = await setup(t);
  const c = otlpExportClient<{ partialSuccess?: { rejectedSpans: { toNumber(): number } | number; errorMessage: string } }>(
    grpcAddress, OTLP_TRACE_SERVICE, (b) => otlp.ExportTraceServiceResponse.decode(b));
  t.after(() => c.close());
  const attr = (key: string, value: Record<string, unknown>) => ({ key, value });
  const span = (attributes: unknown[]) => ({ traceId: Buffer.alloc(16, 1), spanId: Buffer.alloc(8, 1), name: 's', startTimeUnixNano: 1, endTimeUnixNano: 2, attributes });
  const body = (spans: unknown[]) => Buffer.from(otlp.ExportTraceServiceRequest.encode(otlp.ExportTraceServiceRequest.fromObject({ resourceSpans: [{ scopeSpans: [{ spans }] }] })).finish());
  const now = Date.now();
  const good = [attr('aperture.source', { stringValue: 'sdk' }), attr('aperture.check_response', { stringValue: JSON.stringify({ controlPoint: 'checkout', decisionType: 1, fluxMeterInfos: [{ fluxMeterName: 'checkout-latency' }] }) }),
    attr('aperture.flow.status', { stringValue: 'Error' }), attr('aperture.workload_start_timestamp_ms', { intValue: now - 30 }), attr('aperture.flow_end_timestamp_ms', { intValue: now })];
  const res = await c.export(body([
    span(good),
    span([attr('http.method', { stringValue: 'GET' })]),
    span([attr('aperture.source', { stringValue: 'sdk' }), attr('aperture.check_response', { stringValue: '{not json' })]),
    span([attr('aperture.source', { stringValue: 'sdk' })]),
    span([...good.slice(0, 2), attr('aperture.flow.status', { stringValue: 'Maybe' })]),
  ]));
  assert.equal(Number(res.partialSuccess?.rejectedSpans), 3);
  assert.match(res.partialSuccess?.errorMessage ?? '', /Aperture attributes/);
  const text = await registry.metrics();
  assert.match(text, /flux_meter_sum\{flux_meter_name="checkout-latency",policy_name="shop",decision_type="DECISION_TYPE_REJECTED",response_status="Error",http_status_code="",flow_status="Error"\} 30\n/);
  assert.match(text, /flow_ends_total\{source="otlp",result="malformed"\} 3/);
  assert.match(text, /flow_ends_total\{source="otlp",result="not_aperture"\} 1/);

  const all = await c.export(body([span(good)]));
  assert.equal(all.partialSuccess ?? null, null, 'all taken: no partial_success');
  await assert.rejects(c.export(Buffer.from([0x0a, 0xff, 0xff, 0xff])), (e: grpc.ServiceError) => e.code === grpc.status.INVALID_ARGUMENT);
});

test('a flow end feeds its duration to the scheduler that admitted it, for the workload it admitted the flow into', async () => {
  let now = 1_000;
  const engine = new Engine({ now: () => now });
  const flowEnds = new FlowEnds({ fluxMeters: engine, histogram: new FluxMeterHistogram(new Registry()), now: () => now });
  engine.register(new FluxMeterComponent({ name: 'checkout-latency', policy_name: 'shop', buckets: [10, 100, 1000] }), { control_point: 'checkout' });
  const seen: [string, string, number][] = [];
  const scheduler = (id: string, accept: boolean): Limiter => ({
    kind: TEST_KINDS.scheduler,
    identity: { policy_name: 'shop', policy_hash: 'h', component_id: id },
    decide: (labels) => ({ accepted: accept, waitMs: 0, workloadIndex: labels.tier === 'gold' ? '0' : 'default', priority: 1 }),
    observeFlowDuration: (workloadIndex, durationMs) => { seen.push([id, workloadIndex, durationMs]); },
  });
  const unregister = engine.register(scheduler('root.4', true), { control_point: 'checkout' });
  const check = async (tier: string) => engine.check({ controlPoint: 'checkout', labels: { tier }, services: [] });
  const gold = flowEnds.begin(await check('gold'));
  const free = flowEnds.begin(await check('free'));
  assert.ok(gold !== undefined && free !== undefined);
  now += 250;
  assert.equal(flowEnds.end({ controlPoint: 'checkout', flowId: gold, statusCode: 200 }), 'recorded');
  assert.equal(flowEnds.end({ controlPoint: 'checkout', flowId: free, statusCode: 200, durationMs: 40 }), 'recorded');
  assert.deepEqual(seen, [['root.4', '0', 250], ['root.4', 'default', 40]], 'measured here, or as the caller reports it');

  // a flow whose scheduler went away since its check: the end is recorded, nobody learns from it
  const orphan = flowEnds.begin(await check('gold'));
  unregister();
  assert.ok(orphan !== undefined);
  assert.equal(flowEnds.end({ controlPoint: 'checkout', flowId: orphan, statusCode: 200 }), 'recorded');
  assert.equal(seen.length, 2);

  // a rejected flow never reaches the workload: no duration for the estimate
  engine.register(scheduler('root.5', false), { control_point: 'checkout' });
  assert.equal(flowEnds.begin(await check('gold')), undefined);
  assert.equal(seen.length, 2);

  // an SDK span: the check response it carries names the scheduler and the workload
  const span = (limiterDecisions: unknown[], decisionType = 'DECISION_TYPE_ACCEPTED') => ({
    attributes: new Map<string, string | number>([
      ['aperture.source', 'sdk'],
      ['aperture.check_response', JSON.stringify({ controlPoint: 'checkout', decisionType, fluxMeterInfos: [{ fluxMeterName: 'checkout-latency' }], limiterDecisions })],
      ['aperture.flow_start_timestamp_ms', 5_000],
      ['aperture.flow_end_timestamp_ms', 5_075],
    ]),
    startTimeMs: NaN,
    endTimeMs: NaN,
  });
  engine.register(scheduler('root.4', true), { control_point: 'checkout' });
  seen.length = 0;
  assert.equal(flowEnds.recordSpan(span([{ policyName: 'shop', componentId: 'root.4', dropped: false, loadSchedulerInfo: { workloadIndex: '0', priority: 200 } }])), 'recorded');
  assert.deepEqual(seen, [['root.4', '0', 75]]);
  assert.equal(flowEnds.recordSpan(span([{ policy_name: 'shop', component_id: 'root.4', load_scheduler_info: { workload_index: 'default' } }])), 'recorded');
  assert.deepEqual(seen[1], ['root.4', 'default', 75], 'snake_case keys too');
  assert.equal(flowEnds.recordSpan(span([{ policyName: 'shop', componentId: 'root.4', dropped: true, loadSchedulerInfo: { workloadIndex: '0' } }], 'DECISION_TYPE_REJECTED')), 'recorded');
  assert.equal(flowEnds.recordSpan(span([{ policyName: 'shop', componentId: 'root.4', loadSchedulerInfo: { workloadIndex: 7 } }, { componentId: 'root.4', loadSchedulerInfo: { workloadIndex: '0' } }])), 'recorded');
  assert.equal(seen.length, 2, 'rejected flows and decisions without a string workload index or policy teach nothing');

  // a scheduler whose observer throws loses the reading; the end is recorded all the same
  const engine2 = new Engine({ now: () => now });
  const ends2 = new FlowEnds({ fluxMeters: engine2, histogram: new FluxMeterHistogram(new Registry()), now: () => now });
  engine2.register(new FluxMeterComponent({ name: 'm', policy_name: 'shop', buckets: [10] }), { control_point: 'cp' });
  engine2.register({ ...scheduler('root.6', true), observeFlowDuration: () => { throw new Error('boom'); } }, { control_point: 'cp' });
  const id = ends2.begin(await engine2.check({ controlPoint: 'cp', labels: {}, services: [] }));
  assert.ok(id !== undefined);
  assert.equal(ends2.end({ controlPoint: 'cp', flowId: id, statusCode: 200 }), 'recorded');
});
