import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readSdkSpan, type SpanAttributeValue } from './sdk-flow-span.js';

const span = (attrs: Record<string, SpanAttributeValue>, startTimeMs = Number.NaN, endTimeMs = Number.NaN) =>
  ({ attributes: new Map(Object.entries(attrs)), startTimeMs, endTimeMs });
const cr = (o: unknown) => JSON.stringify(o);

test('an SDK span: camelCase or snake_case check responses, enum numbers or names, workload duration', () => {
  const r = readSdkSpan(span({
    'aperture.source': 'sdk', 'aperture.check_response': cr({ controlPoint: 'cp', decisionType: 1, fluxMeterInfos: [{ fluxMeterName: 'a' }, { fluxMeterName: 'b' }] }),
    'aperture.flow.status': 'Error', 'aperture.flow_start_timestamp_ms': 1000, 'aperture.workload_start_timestamp_ms': 1010, 'aperture.flow_end_timestamp_ms': 1060,
  }));
  assert.deepEqual(r, { kind: 'flow', flow: { controlPoint: 'cp', fluxMeters: ['a', 'b'], decisionType: 'DECISION_TYPE_REJECTED', flowStatus: 'Error', durationMs: 50 } });
  const s = readSdkSpan(span({
    'aperture.check_response': cr({ control_point: 'cp', decision_type: 'DECISION_TYPE_ACCEPTED', flux_meter_infos: [{ flux_meter_name: 'a' }] }),
    'aperture.flow_start_timestamp_ms': '2000', 'aperture.flow_end_timestamp_ms': '2005',
  }));
  assert.equal(s.kind === 'flow' && s.flow.durationMs, 5, 'flow start when no workload start; numbers as strings');
  const u = readSdkSpan(span({ 'aperture.check_response': cr({}) }, 100, 130));
  assert.deepEqual(u.kind === 'flow' && [u.flow.durationMs, u.flow.decisionType, u.flow.flowStatus, u.flow.fluxMeters], [30, 'DECISION_TYPE_ACCEPTED', 'OK', []], 'the span\'s own times');
});

test('spans without Aperture attributes are not ours; broken ones are malformed', () => {
  assert.equal(readSdkSpan(span({ 'http.method': 'GET' })).kind, 'not_aperture');
  const times = { 'aperture.flow_start_timestamp_ms': 1, 'aperture.flow_end_timestamp_ms': 2 };
  const bad: Record<string, SpanAttributeValue>[] = [
    { 'aperture.source': 'sdk' },
    { 'aperture.check_response': 5 },
    { 'aperture.check_response': 'x'.repeat((1 << 20) + 1) },
    { 'aperture.check_response': '[1]' },
    { 'aperture.check_response': cr({ decisionType: 7 }), ...times },
    { 'aperture.check_response': cr({ fluxMeterInfos: 'a' }), ...times },
    { 'aperture.check_response': cr({ fluxMeterInfos: [{}] }), ...times },
    { 'aperture.check_response': cr({ fluxMeterInfos: Array.from({ length: 65 }, () => ({ fluxMeterName: 'a' })) }), ...times },
    { 'aperture.check_response': cr({}), 'aperture.flow.status': 'Maybe', ...times },
    { 'aperture.check_response': cr({}) },
    { 'aperture.check_response': cr({}), 'aperture.flow_start_timestamp_ms': 5, 'aperture.flow_end_timestamp_ms': 2 },
    { 'aperture.check_response': cr({}), 'http.status_code': 'teapot', ...times },
    { 'aperture.check_response': cr({}), 'http.status_code': 99, ...times },
    { 'aperture.check_response': cr({}), 'http.status_code': 600, ...times },
    { 'aperture.check_response': cr({}), 'http.status_code': 200.5, ...times },
    { 'aperture.check_response': cr({}), 'http.status_code': true, ...times },
  ];
  for (const attrs of bad) assert.equal(readSdkSpan(span(attrs)).kind, 'malformed', JSON.stringify(attrs).slice(0, 120));
});

test('a gateway span\'s http.status_code is the flow\'s response status (an int or a string)', () => {
  const times = { 'aperture.flow_start_timestamp_ms': 1, 'aperture.flow_end_timestamp_ms': 2 };
  const r = readSdkSpan(span({ 'aperture.source': 'lua', 'aperture.check_response': cr({ fluxMeterInfos: [{ fluxMeterName: 'a' }] }), 'http.status_code': 503, 'aperture.flow.status': 'Error', ...times }));
  assert.deepEqual(r.kind === 'flow' && [r.flow.responseStatus, r.flow.flowStatus], ['503', 'Error']);
  const s = readSdkSpan(span({ 'aperture.check_response': cr({}), 'http.status_code': '204', ...times }));
  assert.equal(s.kind === 'flow' && s.flow.responseStatus, '204');
  const sdk = readSdkSpan(span({ 'aperture.check_response': cr({}), ...times }));
  assert.equal(sdk.kind === 'flow' && sdk.flow.responseStatus, undefined, 'SDK spans carry none');
});
