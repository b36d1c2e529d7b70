import { test } from 'node:test';
import assert from 'node:assert/strict';
import { toProto3Json } from './to-proto3-json.js';

test('Timestamps and Durations become their proto3 JSON strings', () => {
  const r = toProto3Json('aperture.flowcontrol.check.v1.CheckResponse', {
    start: { seconds: 1795314037, nanos: 876711000 },
    end: { seconds: 1795314037, nanos: 0 },
    wait_time: { seconds: 1, nanos: 500_000_000 },
    decision_type: 'DECISION_TYPE_ACCEPTED',
    limiter_decisions: [{ component_id: 'a', wait_time: { seconds: 0, nanos: 0 }, rate_limiter_info: { label: 'u1' }, details: 'rate_limiter_info' }],
    cache_lookup_response: null,
    telemetry_flow_labels: { a: 'b' },
  });
  assert.equal(r.start, '2026-11-22T02:20:37.876711Z');
  assert.equal(r.end, '2026-11-22T02:20:37Z');
  assert.equal(r.wait_time, '1.5s');
  const d = (r.limiter_decisions as Record<string, unknown>[])[0];
  assert.equal(d.wait_time, '0s');
  assert.deepEqual(d.rate_limiter_info, { label: 'u1' });
  assert.equal('details' in d, false, 'oneof discriminator dropped');
  assert.equal('cache_lookup_response' in r, false, 'unset member dropped');
  assert.deepEqual(r.telemetry_flow_labels, { a: 'b' });
});

test('a oneof discriminator of the loader is dropped, nested messages kept', () => {
  const r = toProto3Json('sluice.flowcontrol.checkhttp.v1.CheckHTTPResponse', { http_response: 'ok_response', ok_response: { headers: [{ key: 'baggage', value: 'a=b' }] } });
  assert.deepEqual(r, { ok_response: { headers: [{ key: 'baggage', value: 'a=b' }] } });
  assert.deepEqual(toProto3Json('sluice.flowcontrol.checkhttp.v1.CheckHTTPResponse', null), {});
});

test('negative and sub-second durations', () => {
  const r = toProto3Json('aperture.flowcontrol.check.v1.FlowEndRequest', { duration: { seconds: 0, nanos: 250_000_000 } });
  assert.equal(r.duration, '0.25s');
  assert.equal(toProto3Json('aperture.flowcontrol.check.v1.FlowEndRequest', { duration: { seconds: -2, nanos: -500_000_000 } }).duration, '-2.5s');
});
