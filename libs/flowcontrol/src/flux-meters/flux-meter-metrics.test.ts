import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Registry } from 'prom-client';
import { FluxMeterComponent, checkBuckets } from './flux-meter.js';
import { FluxMeterHistogram, MAX_SERIES_PER_FLUX_METER } from './flux-meter-metrics.js';

const ok = { decisionType: 'DECISION_TYPE_ACCEPTED', responseStatus: '200', flowStatus: 'OK' } as const;

test('one flux_meter family, each meter with its own buckets, in the text format PromQL reads', async () => {
  const registry = new Registry();
  const h = new FluxMeterHistogram(registry);
  const fast = new FluxMeterComponent({ name: 'fast', policy_name: 'p1', buckets: [1, 10] });
  const slow = new FluxMeterComponent({ name: 'slow', policy_name: 'p2', buckets: [100, 1000, 5000] });
  h.record(fast, 0.5, ok);
  h.record(fast, 5, ok);
  h.record(fast, 50, { ...ok, responseStatus: '503', flowStatus: 'Error' });
  h.record(slow, 700, ok);
  const text = await registry.metrics();
  const base = 'flux_meter_name="fast",policy_name="p1",decision_type="DECISION_TYPE_ACCEPTED",response_status="200",http_status_code="200",flow_status="OK"';
  assert.match(text, /# TYPE flux_meter histogram/);
  assert.ok(text.includes(`flux_meter_bucket{${base},le="1"} 1\n`), text);
  assert.ok(text.includes(`flux_meter_bucket{${base},le="10"} 2\n`));
  assert.ok(text.includes(`flux_meter_bucket{${base},le="+Inf"} 2\n`));
  assert.ok(text.includes(`flux_meter_sum{${base}} 5.5\n`));
  assert.ok(text.includes(`flux_meter_count{${base}} 2\n`));
  assert.ok(text.includes('flux_meter_count{flux_meter_name="fast",policy_name="p1",decision_type="DECISION_TYPE_ACCEPTED",response_status="503",http_status_code="503",flow_status="Error"} 1'));
  assert.ok(text.includes('flux_meter_bucket{flux_meter_name="slow",policy_name="p2",decision_type="DECISION_TYPE_ACCEPTED",response_status="200",http_status_code="200",flow_status="OK",le="1000"} 1'));
  assert.ok(!text.includes('flux_meter_name="slow",policy_name="p2",decision_type="DECISION_TYPE_ACCEPTED",response_status="200",http_status_code="200",flow_status="OK",le="10"}'), 'slow has no 10 ms bucket');
});

test('new buckets start the meter afresh; forget drops it; bad durations are ignored', async () => {
  const h = new FluxMeterHistogram();
  const m = new FluxMeterComponent({ name: 'm', policy_name: 'p' });
  assert.equal(h.record(m, 3, ok), true);
  assert.equal(h.record(m, -1, ok), false);
  assert.equal(h.record(m, Number.NaN, ok), false);
  let values = (await h.get()).values;
  assert.equal(values.find((v) => v.metricName === 'flux_meter_count')?.value, 1);
  m.update({ policy_name: 'p', buckets: [2, 4] });
  h.record(m, 3, ok);
  values = (await h.get()).values;
  assert.equal(values.filter((v) => v.metricName === 'flux_meter_bucket').length, 3, 'two bounds and +Inf');
  assert.equal(values.find((v) => v.metricName === 'flux_meter_count')?.value, 1);
  h.forget('m');
  assert.equal((await h.get()).values.length, 0);
});

test('series per meter are bounded', () => {
  const h = new FluxMeterHistogram();
  const m = new FluxMeterComponent({ name: 'm', policy_name: 'p' });
  for (let i = 0; i < MAX_SERIES_PER_FLUX_METER + 5; i++) h.record(m, 1, { ...ok, responseStatus: String(i) });
  assert.equal(h.droppedSeries, 5);
});

test('bad buckets are refused', () => {
  for (const b of [[], [1, 1], [2, 1], [1, Infinity], [Number.NaN]]) {
    assert.throws(() => checkBuckets('m', b), RangeError, JSON.stringify(b));
    assert.throws(() => new FluxMeterComponent({ name: 'm', policy_name: 'p', buckets: b }), RangeError);
  }
  const m = new FluxMeterComponent({ name: 'm', policy_name: 'p', buckets: [1, 2] });
  assert.throws(() => m.update({ policy_name: 'p', buckets: [3, 2] }), RangeError);
  assert.deepEqual(m.buckets, [1, 2], 'unchanged');
  assert.throws(() => new FluxMeterComponent({ name: '', policy_name: 'p' }), TypeError);
});
