import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { Registry } from 'prom-client';
import { Engine } from '../check/engine.js';
import { FlowEnds, MAX_FLOW_DURATION_MS } from './flow-ends.js';
import { FluxMeterComponent } from '../flux-meters/flux-meter.js';
import { FluxMeterHistogram } from '../flux-meters/flux-meter-metrics.js';
import { registerFlowControlServices } from '../services/register-services.js';
import { registerOtlpTracesHttpRoute } from './otlp-trace-http.js';
import { startTestServer } from '../testing/test-support.js';
import { otlpMessages } from '@sluice/proto';

interface Msg { fromObject(o: unknown): unknown; encode(m: unknown): { finish(): Uint8Array }; decode(b: Uint8Array): { partialSuccess?: { rejectedSpans?: unknown; errorMessage?: string } | null } }
const otlp = (otlpMessages() as unknown as { ExportTraceServiceRequest: Msg; ExportTraceServiceResponse: Msg });

async function setup(t: TestContext) {
  const registry = new Registry();
  const engine = new Engine();
  engine.register(new FluxMeterComponent({ name: 'lua-latency', policy_name: 'gw', buckets: [10, 100, 1000] }), { control_point: 'ingress' });
  const flowEnds = new FlowEnds({ fluxMeters: engine, histogram: new FluxMeterHistogram(registry), registry });
  const s = await startTestServer((server) => {
    registerFlowControlServices(server, engine);
    registerOtlpTracesHttpRoute(server, flowEnds);
  });
  t.after(() => s.server.shutdown({ deadlineMs: 2000 }));
  const count = async (): Promise<number> => {
    const m = /^flux_meter_count\{flux_meter_name="lua-latency"[^}]*\} (\d+)$/m.exec(await registry.metrics());
    return m === null ? 0 : Number(m[1]);
  };
  const send = (body: Uint8Array | string, type: string) => fetch(`${s.base}/v1/traces`, { method: 'POST', headers: { 'content-type': type }, body });
  return { ...s, count, send };
}

/** A span as Aperture's Lua plugin exports it: the CheckHTTP answer's dynamic_metadata check response (base64 protobuf), times in ns. */
function luaExport(checkResponse: string, startMs: number, endMs: number) {
  return {
    resourceSpans: [{ scopeSpans: [{ spans: [{
      traceId: '5b8efff798038103d269b633813fc60c', spanId: 'eee19b7ec3c1b174', name: 'Aperture CheckHTTP', kind: 2,
      startTimeUnixNano: String(startMs * 1e6), endTimeUnixNano: String(endMs * 1e6),
      attributes: [
        { key: 'aperture.source', value: { stringValue: 'lua' } },
        { key: 'aperture.check_response', value: { stringValue: checkResponse } },
        { key: 'http.status_code', value: { stringValue: '200' } },
      ],
    }] }] }],
  };
}

async function checkResponseOfLuaCall(base: string): Promise<string> {
  const r = await fetch(`${base}/v1/flowcontrol/checkhttp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ control_point: 'ingress', request: { method: 'GET', path: '/' } }) });
  return ((await r.json()) as { dynamic_metadata: Record<string, string> }).dynamic_metadata['aperture.check_response'];
}

test('POST /v1/traces (protobuf and JSON): a Lua plugin span with the base64 check response ends its flow in the flux meter', async (t) => {
  const { base, send, count } = await setup(t);
  const cr = await checkResponseOfLuaCall(base);
  const now = Date.now();
  const pb = await send(otlp.ExportTraceServiceRequest.encode(otlp.ExportTraceServiceRequest.fromObject(luaExport(cr, now - 40, now))).finish(), 'application/x-protobuf');
  assert.equal(pb.status, 200);
  assert.equal(pb.headers.get('content-type'), 'application/x-protobuf');
  assert.equal(otlp.ExportTraceServiceResponse.decode(new Uint8Array(await pb.arrayBuffer())).partialSuccess ?? null, null, 'all taken');
  assert.equal(await count(), 1);
  const js = await send(JSON.stringify(luaExport(cr, now - 20, now)), 'application/json');
  assert.equal(js.status, 200);
  assert.deepEqual(await js.json(), {});
  assert.equal(await count(), 2);
});

test('POST /v1/traces answers partial_success for spans the trust checks refuse (over the duration cap, unreadable check response)', async (t) => {
  const { base, send, count } = await setup(t);
  const cr = await checkResponseOfLuaCall(base);
  const now = Date.now();
  const body = luaExport(cr, now - MAX_FLOW_DURATION_MS - 1000, now);
  const r = await send(JSON.stringify(body), 'application/json');
  assert.equal(r.status, 200);
  const j = (await r.json()) as { partialSuccess: { rejectedSpans: number; errorMessage: string } };
  assert.equal(j.partialSuccess.rejectedSpans, 1);
  const bad = await send(otlp.ExportTraceServiceRequest.encode(otlp.ExportTraceServiceRequest.fromObject(luaExport('not-base64!', now - 10, now))).finish(), 'application/x-protobuf');
  const decoded = otlp.ExportTraceServiceResponse.decode(new Uint8Array(await bad.arrayBuffer()));
  assert.equal(Number(decoded.partialSuccess?.rejectedSpans), 1);
  assert.match(String(decoded.partialSuccess?.errorMessage), /aperture\.check_response|Aperture attributes/);
  assert.equal(await count(), 0);
});

test('POST /v1/traces refuses bad input: 400 not an export, 415 another type, 413 past the bound', async (t) => {
  const { send, base } = await setup(t);
  for (const [body, type, status] of [
    [new Uint8Array([0x0a, 0xff, 0xff, 0xff]), 'application/x-protobuf', 400],
    ['{"resourceSpans": "x"}', 'application/json', 400],
    ['{not json', 'application/json', 400],
    ['[1]', 'application/json', 400],
    ['{}', 'text/plain', 415],
  ] as const) {
    const r = await send(body, type);
    assert.equal(r.status, status, `${type} ${String(body)}`);
    const j = (await r.json()) as { code: number; message: string; details: unknown[] };
    assert.equal(typeof j.message, 'string');
    assert.deepEqual(j.details, []);
  }
  const big = await fetch(`${base}/v1/traces`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: 'x'.repeat(5 * 1024 * 1024) });
  assert.equal(big.status, 413);
});
