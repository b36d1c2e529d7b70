import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Counter, Gauge, Histogram, Registry, Summary } from 'prom-client';
import { DataPointType, type MetricData } from '@opentelemetry/sdk-metrics';
import { PromClientProducer } from './prom-producer.js';

function byName(metrics: MetricData[], name: string): MetricData {
  const m = metrics.find((x) => x.descriptor.name === name);
  assert.ok(m, `${name} missing from ${metrics.map((x) => x.descriptor.name).join(', ')}`);
  return m;
}

test('counters, gauges, histograms and summaries cross into OpenTelemetry metric data', async () => {
  const registry = new Registry();
  const c = new Counter({ name: 'reqs_total', help: 'requests', labelNames: ['code'], registers: [registry] });
  c.inc({ code: '200' }, 3);
  c.inc({ code: '500' });
  new Gauge({ name: 'temp', help: 'temperature', registers: [registry] }).set(21.5);
  const h = new Histogram({ name: 'lat_seconds', help: 'latency', buckets: [0.1, 1], labelNames: ['op'], registers: [registry] });
  h.observe({ op: 'a' }, 0.05);
  h.observe({ op: 'a' }, 0.5);
  h.observe({ op: 'a' }, 5);
  const s = new Summary({ name: 'size', help: 'sizes', percentiles: [0.5], registers: [registry] });
  s.observe(10);
  const producer = new PromClientProducer(registry, false, () => 5_000);
  const { resourceMetrics, errors } = await producer.collect();
  assert.deepEqual(errors, []);
  const metrics = resourceMetrics.scopeMetrics[0].metrics;

  const counter = byName(metrics, 'reqs_total');
  assert.equal(counter.dataPointType, DataPointType.SUM);
  assert.equal(counter.dataPointType === DataPointType.SUM && counter.isMonotonic, true);
  assert.deepEqual(counter.dataPoints.map((p) => [p.attributes, p.value]), [[{ code: '200' }, 3], [{ code: '500' }, 1]]);
  assert.deepEqual(counter.dataPoints[0].endTime, [5, 0]);

  const gauge = byName(metrics, 'temp');
  assert.equal(gauge.dataPointType, DataPointType.GAUGE);
  assert.equal(gauge.dataPoints[0].value, 21.5);

  const hist = byName(metrics, 'lat_seconds');
  assert.equal(hist.dataPointType, DataPointType.HISTOGRAM);
  if (hist.dataPointType !== DataPointType.HISTOGRAM) return;
  assert.deepEqual(hist.dataPoints[0].attributes, { op: 'a' });
  // Cumulative 1, 2, 3 (+Inf) become per-bucket 1, 1, 1.
  assert.deepEqual(hist.dataPoints[0].value.buckets, { boundaries: [0.1, 1], counts: [1, 1, 1] });
  assert.equal(hist.dataPoints[0].value.count, 3);
  assert.equal(hist.dataPoints[0].value.sum, 5.55);

  assert.equal(byName(metrics, 'size').dataPoints[0].attributes.quantile, '0.5');
  assert.equal(byName(metrics, 'size_sum').dataPoints[0].value, 10);
  assert.equal(byName(metrics, 'size_count').dataPoints[0].value, 1);
});

test('the high-cardinality platform families are left out unless enabled', async () => {
  const registry = new Registry();
  new Counter({ name: 'grpcserver_handled_total', help: 'h', registers: [registry] }).inc();
  new Counter({ name: 'kept_total', help: 'k', registers: [registry] }).inc();
  const names = async (hc: boolean) => (await new PromClientProducer(registry, hc).collect()).resourceMetrics.scopeMetrics[0].metrics.map((m) => m.descriptor.name).sort();
  assert.deepEqual(await names(false), ['kept_total']);
  assert.deepEqual(await names(true), ['grpcserver_handled_total', 'kept_total']);
});
