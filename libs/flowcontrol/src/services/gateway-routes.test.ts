import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { createStaticDiscovery } from '@sluice/discovery';
import { serviceClient, type CheckResponse__Output } from '@sluice/proto';
import { Engine } from '../check/engine.js';
import { applyLocalLimiters } from '../local-limiters/apply-local-limiters.js';
import { loadLocalLimiters } from '../local-limiters/local-limiters-config.js';
import { registerFlowControlServices } from './register-services.js';
import { startTestServer } from '../testing/test-support.js';

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,9})?Z$/;

async function setup(t: TestContext, limiters = '- { control_point: ingress, bucket_capacity: 0, fill_amount: 1, interval: 1s }') {
  const engine = new Engine();
  applyLocalLimiters(engine, loadLocalLimiters(limiters));
  const discovery = createStaticDiscovery({ entities: [{ ip_address: '10.1.2.3', uid: 'web', services: ['web-svc'] }] });
  const s = await startTestServer((server) => registerFlowControlServices(server, engine, discovery));
  t.after(() => s.server.shutdown({ deadlineMs: 2000 }));
  const post = async (body: unknown): Promise<{ status: number; json: Record<string, unknown> }> => {
    const r = await fetch(`${s.base}/v1/flowcontrol/checkhttp`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    return { status: r.status, json: (await r.json()) as Record<string, unknown> };
  };
  return { ...s, post };
}

const httpReq = (request: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) => ({
  control_point: 'ingress',
  source: { address: '10.9.9.9', port: 51000, protocol: 'TCP' },
  destination: { address: '10.1.2.3', port: 8080 },
  request: { method: 'GET', path: '/api/items?id=7', host: 'web', scheme: 'http', size: 0, protocol: 'HTTP/1.1', headers: { 'x-user': 'u1' }, body: '', ...request },
  ...extra,
});

/** What the loader alone would have coerced or dropped: refused with 400, the field named. */
const BAD: Array<[string, unknown, string, RegExp]> = [
  ['a number for the control point', { ...httpReq(), control_point: 5 }, 'control_point', /want a string, got number/],
  ['a field of Sluice\'s own CheckHTTP only', httpReq({ truncated_body: false }), 'request.truncated_body', /unknown field/],
  ['letters for a port', httpReq({}, { source: { port: 'abc' } }), 'source.port', /whole number|integer/],
  ['letters for an int64', httpReq({ size: 'abc' }), 'request.size', /whole number/],
  ['an array for the headers map', httpReq({ headers: [] }), 'request.headers', /want a JSON object \(map\)/],
  ['a number for the method', httpReq({ method: 7 }), 'request.method', /want a string, got number/],
  ['an unknown field', httpReq({}, { control_pont: 'x' }), 'control_pont', /unknown field/],
  ['an unknown nested field', httpReq({ verb: 'GET' }), 'request.verb', /unknown field/],
  ['an unknown enum name', httpReq({}, { source: { protocol: 'SCTP' } }), 'source.protocol', /want one of TCP, UDP/],
  ['a negative port', httpReq({}, { destination: { port: -1 } }), 'destination.port', /out of range/],
  ['not an object', [1, 2], 'body', /want a JSON object/],
];

test('POST /v1/flowcontrol/checkhttp refuses wrong-typed JSON with 400 naming the field', async (t) => {
  const { post } = await setup(t);
  for (const [name, body, field, message] of BAD) {
    const r = await post(body);
    assert.equal(r.status, 400, name);
    assert.equal(r.json.code, 3, `${name}: INVALID_ARGUMENT`);
    assert.match(String(r.json.message), message, name);
    const details = r.json.details as { field_violations: { field: string }[] }[];
    assert.equal(details[0].field_violations[0].field, field, name);
  }
  const missing = await post({ ...httpReq(), control_point: '' });
  assert.equal(missing.status, 400);
  assert.match(String(missing.json.message), /control_point is required/);
});

/** The flow's CheckResponse, from the answer's `dynamic_metadata["aperture.check_response"]` (base64 protobuf). */
function checkResponseOf(json: Record<string, unknown>): CheckResponse__Output {
  const b64 = (json.dynamic_metadata as Record<string, unknown>)['aperture.check_response'];
  assert.equal(typeof b64, 'string', 'dynamic_metadata carries aperture.check_response');
  return serviceClient('flowControl').service.Check.responseDeserialize(Buffer.from(b64 as string, 'base64')) as CheckResponse__Output;
}

test('POST /v1/flowcontrol/checkhttp takes JSON names as well as .proto names, and int64 and ports as strings', async (t) => {
  const { post } = await setup(t, '[]');
  const r = await post({ controlPoint: 'ingress', destination: { address: '10.1.2.3', port: '8080' }, request: { method: 'POST', size: '12', headers: { baggage: 'tier=gold' } } });
  assert.equal(r.status, 200);
  const check = checkResponseOf(r.json);
  assert.equal(check.control_point, 'ingress', 'controlPoint reached the agent');
  assert.deepEqual(check.services, ['web-svc']);
  assert.ok(check.flow_label_keys.includes('http.request_content_length'));
  assert.ok(check.flow_label_keys.includes('tier'));
});

test('POST /v1/flowcontrol/checkhttp answers Aperture\'s proto3 JSON: status, header maps, the check response as dynamic metadata', async (t) => {
  const { post } = await setup(t);
  const r = await post(httpReq());
  assert.equal(r.status, 200);
  assert.deepEqual(Object.keys(r.json).sort(), ['denied_response', 'dynamic_metadata', 'status']);
  const denied = r.json.denied_response as { status: number; headers: Record<string, string>; body: string };
  assert.equal(denied.status, 429, 'capacity 0 rejects');
  assert.equal(denied.headers['content-type'], 'application/json', 'headers are a map');
  assert.equal((r.json.status as { code: number }).code, 8, 'RESOURCE_EXHAUSTED');
  const check = checkResponseOf(r.json);
  assert.equal(check.decision_type, 'DECISION_TYPE_REJECTED');
  assert.equal(check.reject_reason, 'REJECT_REASON_RATE_LIMITED');
  assert.equal(check.limiter_decisions[0].component_id, 'local-limiter-0');
  const ok = await post(httpReq({}, { control_point: 'other' }));
  assert.deepEqual(ok.json.ok_response, { headers: {} }, 'an empty header map, no dynamic_metadata of its own');
  assert.equal((ok.json.status as { code?: number }).code ?? 0, 0);
  assert.equal(checkResponseOf(ok.json).decision_type, 'DECISION_TYPE_ACCEPTED');
});

test('GET /v1/flowcontrol/controlpoints answers last_seen as an RFC 3339 string', async (t) => {
  const { post, base } = await setup(t);
  const before = Date.now();
  assert.equal((await post(httpReq())).status, 200);
  const r = await fetch(`${base}/v1/flowcontrol/controlpoints`);
  assert.equal(r.status, 200);
  const list = (await r.json()) as { control_points: Record<string, unknown>[] };
  assert.equal(list.control_points.length, 1);
  const [cp] = list.control_points;
  assert.deepEqual([cp.control_point, cp.service, cp.type, cp.flows], ['ingress', 'web-svc', 'http', 1]);
  assert.equal(typeof cp.last_seen, 'string');
  assert.match(String(cp.last_seen), ISO);
  const seen = Date.parse(String(cp.last_seen));
  assert.ok(seen >= before - 1000 && seen <= Date.now() + 1000, `last_seen ${String(cp.last_seen)} is about now`);
});

test('POST /v1/flowcontrol/checkhttp is answered in process: it decides with Aperture\'s gRPC service absent', async (t) => {
  const engine = new Engine();
  applyLocalLimiters(engine, loadLocalLimiters('- { control_point: ingress, bucket_capacity: 0, fill_amount: 1, interval: 1s }'));
  const apertureHttp = serviceClient('apertureFlowControlHttp').service;
  // Every service but Aperture's CheckHTTP: a route that called it over gRPC would answer 501.
  const s = await startTestServer((server) => registerFlowControlServices({
    addService: (def, impl) => { if (def !== apertureHttp) server.addService(def, impl); },
    addGatewayRoute: (route) => server.addGatewayRoute(route),
    addUpgradeRoute: (route) => server.addUpgradeRoute(route),
  }, engine));
  t.after(() => s.server.shutdown({ deadlineMs: 2000 }));
  const post = (body: unknown) => fetch(`${s.base}/v1/flowcontrol/checkhttp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const denied = await post(httpReq());
  assert.equal(denied.status, 200);
  const json = (await denied.json()) as { denied_response?: { status: number }; dynamic_metadata?: Record<string, unknown> };
  assert.equal(json.denied_response?.status, 429, 'the limiter decided');
  assert.equal(typeof json.dynamic_metadata?.['aperture.check_response'], 'string');
  const bad = await post(httpReq({ method: 7 }));
  assert.equal(bad.status, 400);
  assert.match(JSON.stringify(await bad.json()), /request\.method/);
});
