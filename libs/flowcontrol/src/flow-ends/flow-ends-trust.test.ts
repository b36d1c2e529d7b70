import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Registry } from 'prom-client';
import { Engine } from '../check/engine.js';
import { FlowEnds, MAX_FLOW_DURATION_MS } from './flow-ends.js';
import { FluxMeterComponent } from '../flux-meters/flux-meter.js';
import { FluxMeterHistogram } from '../flux-meters/flux-meter-metrics.js';
import { OTLP_TRACE_SERVICE, registerOtlpTraceService } from './otlp-trace-service.js';
import type { ReceivedSpan } from './sdk-flow-span.js';
import { otlpExportClient, startTestServer } from '../testing/test-support.js';
import { otlpMessages } from '@sluice/proto';

interface Msg<T> { fromObject(o: unknown): T; encode(m: T): { finish(): Uint8Array }; decode(b: Uint8Array): unknown }
const otlp = (otlpMessages() as unknown as { ExportTraceServiceRequest: Msg<unknown>; ExportTraceServiceResponse: Msg<unknown> });

function setup(maxDurationMs?: number) {
  const registry = new Registry();
  const engine = new Engine();
  const flowEnds = new FlowEnds({ fluxMeters: engine, histogram: new FluxMeterHistogram(registry), registry, ...(maxDurationMs !== undefined ? { maxDurationMs } : {}) });
  engine.register(new FluxMeterComponent({ name: 'checkout-latency', policy_name: 'shop', buckets: [10, 100, 1000] }), { control_point: 'checkout' });
  engine.register(new FluxMeterComponent({ name: 'search-latency', policy_name: 'shop', buckets: [10, 100, 1000] }), { control_point: 'search' });
  const sum = async (meter: string): Promise<number> => {
    const m = new RegExp(`^flux_meter_sum\\{flux_meter_name="${meter}"[^}]*\\} ([\\d.e+]+)$`, 'm').exec(await registry.metrics());
    return m === null ? 0 : Number(m[1]);
  };
  const counted = async (source: string, result: string): Promise<number> => {
    const m = new RegExp(`^flow_ends_total\\{source="${source}",result="${result}"\\} (\\d+)$`, 'm').exec(await registry.metrics());
    return m === null ? 0 : Number(m[1]);
  };
  return { engine, flowEnds, registry, sum, counted };
}

function sdkSpan(controlPoint: string, meters: string[], startMs: number, endMs: number): ReceivedSpan {
  return {
    attributes: new Map<string, string | number>([
      ['aperture.source', 'sdk'],
      ['aperture.check_response', JSON.stringify({ controlPoint, decisionType: 0, fluxMeterInfos: meters.map((fluxMeterName) => ({ fluxMeterName })) })],
      ['aperture.workload_start_timestamp_ms', startMs],
      ['aperture.flow_end_timestamp_ms', endMs],
    ]),
    startTimeMs: NaN,
    endTimeMs: NaN,
  };
}

test('a span is recorded only into the flux meters at its control point', async () => {
  const { flowEnds, sum, counted } = setup();
  assert.equal(flowEnds.recordSpan(sdkSpan('elsewhere', ['checkout-latency'], 1000, 1050)), 'unselected', 'a meter of another control point');
  assert.equal(flowEnds.recordSpan(sdkSpan('search', ['checkout-latency'], 1000, 1050)), 'unselected', 'a meter registered, but not at this control point');
  assert.equal(flowEnds.recordSpan(sdkSpan('checkout', ['no-such-meter'], 1000, 1050)), 'unselected');
  assert.equal(await sum('checkout-latency'), 0);
  assert.equal(flowEnds.recordSpan(sdkSpan('checkout', ['checkout-latency', 'search-latency'], 1000, 1040)), 'recorded');
  assert.equal(await sum('checkout-latency'), 40);
  assert.equal(await sum('search-latency'), 0, 'the meter not at the span\'s control point is left out');
  assert.equal(await counted('otlp', 'unselected'), 3);
});

test('span and FlowEnd durations: past the maximum, negative, or end before start are refused and counted', async () => {
  const { engine, flowEnds, sum, counted } = setup();
  assert.equal(MAX_FLOW_DURATION_MS, 3_600_000);
  const now = Date.now();
  assert.equal(flowEnds.recordSpan(sdkSpan('checkout', ['checkout-latency'], 1, 1e15)), 'out_of_range', 'the forged 1e15 ms flow');
  assert.equal(flowEnds.recordSpan(sdkSpan('checkout', ['checkout-latency'], now - MAX_FLOW_DURATION_MS - 1, now)), 'out_of_range');
  assert.equal(flowEnds.recordSpan(sdkSpan('checkout', ['checkout-latency'], now, now - 5)), 'malformed', 'end before start');
  assert.equal(flowEnds.recordSpan(sdkSpan('checkout', ['checkout-latency'], -50, 10)), 'malformed', 'a negative time');
  assert.equal(await sum('checkout-latency'), 0);
  assert.equal(flowEnds.recordSpan(sdkSpan('checkout', ['checkout-latency'], now - MAX_FLOW_DURATION_MS, now)), 'recorded', 'the maximum itself');
  assert.equal(await sum('checkout-latency'), MAX_FLOW_DURATION_MS);
  assert.equal(await counted('otlp', 'out_of_range'), 2);

  const id = flowEnds.begin(await engine.check({ controlPoint: 'checkout', labels: {}, services: [] }));
  assert.ok(id !== undefined);
  assert.equal(flowEnds.end({ controlPoint: 'checkout', flowId: id, statusCode: 200, durationMs: 1e15 }), 'out_of_range');
  assert.equal(await counted('flow_end', 'out_of_range'), 1);
  assert.equal(await sum('checkout-latency'), MAX_FLOW_DURATION_MS, 'nothing more recorded');
});

test('a lower maximum is an option', () => {
  const { flowEnds } = setup(1000);
  assert.equal(flowEnds.recordSpan(sdkSpan('checkout', ['checkout-latency'], 1000, 2001)), 'out_of_range');
  assert.equal(flowEnds.recordSpan(sdkSpan('checkout', ['checkout-latency'], 1000, 2000)), 'recorded');
});

test('OTLP Export with FlowEnds as the consumer: refused spans are answered rejected, with why', async (t) => {
  const { flowEnds, sum } = setup();
  const s = await startTestServer((server) => registerOtlpTraceService(server, flowEnds));
  t.after(() => s.server.shutdown({ deadlineMs: 2000 }));
  type Answer = { partialSuccess?: { rejectedSpans: number | { toNumber(): number }; errorMessage: string } };
  const c = otlpExportClient<Answer>(s.grpcAddress, OTLP_TRACE_SERVICE, (b) => otlp.ExportTraceServiceResponse.decode(b));
  t.after(() => c.close());
  const attr = (key: string, value: Record<string, unknown>) => ({ key, value });
  const span = (cp: string, start: number, end: number) => ({
    traceId: Buffer.alloc(16, 1), spanId: Buffer.alloc(8, 1), name: 's', startTimeUnixNano: 1, endTimeUnixNano: 2,
    attributes: [attr('aperture.source', { stringValue: 'sdk' }),
      attr('aperture.check_response', { stringValue: JSON.stringify({ controlPoint: cp, fluxMeterInfos: [{ fluxMeterName: 'checkout-latency' }] }) }),
      attr('aperture.workload_start_timestamp_ms', { intValue: start }), attr('aperture.flow_end_timestamp_ms', { intValue: end })],
  });
  const exportOf = (spans: unknown[]): Promise<Answer> =>
    c.export(Buffer.from(otlp.ExportTraceServiceRequest.encode(otlp.ExportTraceServiceRequest.fromObject({ resourceSpans: [{ scopeSpans: [{ spans }] }] })).finish()));
  const forged = await exportOf([span('checkout', 1, 1e15)]);
  assert.equal(Number(forged.partialSuccess?.rejectedSpans), 1);
  assert.match(forged.partialSuccess?.errorMessage ?? '', /longer than 3600000 ms/);
  const elsewhere = await exportOf([span('admin', 1000, 1010)]);
  assert.match(elsewhere.partialSuccess?.errorMessage ?? '', /none of which is at its control point/);
  const ok = await exportOf([span('checkout', 1000, 1010)]);
  assert.equal(ok.partialSuccess ?? null, null);
  assert.equal(await sum('checkout-latency'), 10);
});
