import { test } from 'node:test';
import assert from 'node:assert/strict';
import { messageType, type EnvoyAuth_CheckRequest__Output } from '@sluice/proto';
import { envoyControlPoint, envoyToCheckHttp, ENVOY_MAX_HEADER_BYTES, ENVOY_MAX_HEADERS } from './envoy-authz-request.js';
import { readEnvoyLog } from '../flow-ends/envoy-access-log.js';
import { httpFlowLabels } from '../labels/http-labels.js';

function request(http: Record<string, unknown> | null, ext: Record<string, string> = {}): EnvoyAuth_CheckRequest__Output {
  return {
    attributes: {
      source: { address: { socket_address: { protocol: 'TCP', address: '10.0.0.1', port_value: 5000 } } },
      destination: { address: { pipe: { path: '/tmp/s', mode: 0 } } },
      request: http === null ? null : { time: null, http: { id: '', method: '', headers: {}, header_map: null, path: '', host: '', scheme: '', query: '', fragment: '', size: -1, protocol: '', body: '', raw_body: '', ...http } },
      context_extensions: ext,
    },
  } as unknown as EnvoyAuth_CheckRequest__Output;
}

test('the control point: metadata, then context_extensions, then ingress; empty values count as absent', () => {
  assert.equal(envoyControlPoint('meta', request({}, { 'control-point': 'ext' })), 'meta');
  assert.equal(envoyControlPoint('', request({}, { 'control-point': 'ext' })), 'ext');
  assert.equal(envoyControlPoint(undefined, request({}, { 'control-point': '' })), 'ingress');
  assert.equal(envoyControlPoint(undefined, request({})), 'ingress');
});

test('an ext_authz request maps to the CheckHTTP request, and so to the same flow labels', () => {
  const r = envoyToCheckHttp(request({ method: 'POST', path: '/a?b=1', host: 'shop', scheme: 'https', protocol: 'HTTP/2', size: 12, headers: { 'User-Id': 'u1', baggage: 'tier=gold' }, body: '{"x":1}' }), 'ingress');
  assert.ok(r.ok);
  assert.deepEqual(r.req.source, { protocol: 'TCP', address: '10.0.0.1', port: 5000 });
  assert.equal(r.req.destination, null, 'a pipe has no socket address');
  assert.equal(r.req.request?.body, '{"x":1}');
  assert.deepEqual(httpFlowLabels(r.req.request), {
    tier: 'gold', 'http.request.header.user_id': 'u1', 'http.request.header.baggage': 'tier=gold', 'http.method': 'POST', 'http.target': '/a?b=1',
    'http.host': 'shop', 'http.scheme': 'https', 'http.flavor': '2.0', 'http.request_content_length': '12',
  });
});

test('header_map (raw values, repeated names joined) and raw_body are read when headers and body are empty', () => {
  const r = envoyToCheckHttp(request({
    header_map: { headers: [{ key: 'X-A', value: '', raw_value: Buffer.from('one').toString('base64') }, { key: 'x-a', value: 'two', raw_value: '' }] },
    raw_body: Buffer.from('bytes body').toString('base64'),
  }), 'cp');
  assert.ok(r.ok);
  assert.deepEqual(r.req.request?.headers, { 'x-a': 'one,two' });
  assert.equal(r.req.request?.body, 'bytes body');
});

test('headers past the bounds are refused with 431; at the bound they are read', () => {
  const many = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`h${i}`, 'v']));
  assert.equal(envoyToCheckHttp(request({ headers: many(ENVOY_MAX_HEADERS) }), 'cp').ok, true);
  const over = envoyToCheckHttp(request({ headers: many(ENVOY_MAX_HEADERS + 1) }), 'cp');
  assert.ok(!over.ok && over.status === 431);
  const big = envoyToCheckHttp(request({ headers: { a: 'x'.repeat(ENVOY_MAX_HEADER_BYTES) } }), 'cp');
  assert.ok(!big.ok && big.status === 431);
});

test('a request without HTTP attributes maps to one without request (the decision refuses it)', () => {
  const r = envoyToCheckHttp(request(null), 'cp');
  assert.ok(r.ok && r.req.request === null);
});

const cr = (o: object) => {
  const type = messageType('aperture.flowcontrol.check.v1.CheckResponse');
  return Buffer.from(type.encode(type.fromObject(o)).finish()).toString('base64');
};
const log = (o: Record<string, string>) => new Map(Object.entries({ 'aperture.source': 'envoy', ...o }));

test('an access log record: the workload duration is RESPONSE_DURATION less authz_duration, else RESPONSE_DURATION, else DURATION', () => {
  const b64 = cr({ control_point: 'ingress', flux_meter_infos: [{ flux_meter_name: 'm' }] });
  const durations = [
    [{ RESPONSE_DURATION: '50', authz_duration: '3', DURATION: '70' }, 47],
    [{ RESPONSE_DURATION: '50', authz_duration: '-', DURATION: '70' }, 50],
    [{ RESPONSE_DURATION: '-', DURATION: '70' }, 70],
    [{ RESPONSE_DURATION: '2', authz_duration: '3' }, 2],
  ] as const;
  for (const [attrs, want] of durations) {
    const r = readEnvoyLog(log({ 'aperture.check_response': b64, 'http.status_code': '503', ...attrs }));
    assert.equal(r.reading.kind, 'flow', JSON.stringify(attrs));
    if (r.reading.kind === 'flow') {
      assert.equal(r.reading.flow.durationMs, want, JSON.stringify(attrs));
      assert.deepEqual(r.reading.flow.fluxMeters, ['m']);
      assert.equal(r.reading.flow.flowStatus, 'Error');
    }
    assert.equal(r.statusCode, 503);
  }
});

test('access log records that are not Envoy\'s, or lack a decision or a duration, are not flows', () => {
  assert.equal(readEnvoyLog(new Map([['service.name', 'x']])).reading.kind, 'not_aperture');
  assert.equal(readEnvoyLog(log({ 'aperture.check_response': '-', DURATION: '5' })).reading.kind, 'malformed');
  assert.equal(readEnvoyLog(log({ 'aperture.check_response': cr({ control_point: 'a' }), DURATION: '-' })).reading.kind, 'malformed');
  assert.equal(readEnvoyLog(log({ 'aperture.check_response': Buffer.from([0xff, 0xff, 0xff]).toString('base64'), DURATION: '5' })).reading.kind, 'malformed');
  const rejected = readEnvoyLog(log({ 'aperture.check_response': cr({ control_point: 'a', decision_type: 1 }), DURATION: '5', 'http.status_code': '429' }));
  assert.ok(rejected.reading.kind === 'flow' && rejected.reading.flow.decisionType === 'DECISION_TYPE_REJECTED');
});

test('the schedulers\' workloads named by an accepted decision are read (not dropped ones)', () => {
  const b64 = cr({
    control_point: 'a',
    limiter_decisions: [
      { policy_name: 'p', component_id: 's1', load_scheduler_info: { workload_index: '2' } },
      { policy_name: 'p', component_id: 's2', dropped: true, load_scheduler_info: { workload_index: '1' } },
    ],
  });
  const r = readEnvoyLog(log({ 'aperture.check_response': b64, DURATION: '5' }));
  assert.deepEqual(r.workloads, [{ policyName: 'p', componentId: 's1', workloadIndex: '2' }]);
});
