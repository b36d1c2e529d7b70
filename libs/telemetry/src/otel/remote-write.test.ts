import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ValueType } from '@opentelemetry/api';
import { emptyResource } from '@opentelemetry/resources';
import { AggregationTemporality, DataPointType, type ResourceMetrics } from '@opentelemetry/sdk-metrics';
import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import { ExporterStats } from './exporter-stats.js';
import { PrometheusRemoteWriteExporter, remoteWriteUrl } from './remote-write-exporter.js';
import { decodeWriteRequest, encodeWriteRequest } from './remote-write-proto.js';
import { promName, toWriteRequest } from './remote-write-series.js';
import { fetchHttp, startTestReceiver } from './test-receiver.js';

const T: [number, number] = [1_700_000_000, 500_000_000];

function sample(): ResourceMetrics {
  const d = (name: string) => ({ name, description: `${name} help`, unit: '', valueType: ValueType.DOUBLE });
  return {
    resource: emptyResource(),
    scopeMetrics: [{
      scope: { name: 't' },
      metrics: [
        { descriptor: d('hits_total'), aggregationTemporality: AggregationTemporality.CUMULATIVE, dataPointType: DataPointType.SUM, isMonotonic: true, dataPoints: [{ startTime: T, endTime: T, attributes: { policy_name: 'p', 'k8s.odd': 'x' }, value: 7 }] },
        { descriptor: d('lat'), aggregationTemporality: AggregationTemporality.CUMULATIVE, dataPointType: DataPointType.HISTOGRAM, dataPoints: [{ startTime: T, endTime: T, attributes: {}, value: { buckets: { boundaries: [1, 5], counts: [2, 1, 4] }, sum: 40, count: 7 } }] },
      ],
    }],
  };
}

test('promName keeps Prometheus names and replaces the rest', () => {
  assert.equal(promName('a.b-c:d'), 'a_b_c:d');
  assert.equal(promName('a.b:c', true), 'a_b_c');
  assert.equal(promName('9lives'), '_9lives');
});

test('a collection becomes sorted-label series with the external labels, histograms as buckets, sum and count', () => {
  const req = toWriteRequest(sample(), { agent_group: 'g', instance: 'i1', pod: '' });
  const series = req.timeseries.map((s) => [Object.fromEntries(s.labels.map((l) => [l.name, l.value])), s.samples[0].value, s.samples[0].timestamp] as const);
  assert.deepEqual(series[0], [{ __name__: 'hits_total', agent_group: 'g', instance: 'i1', k8s_odd: 'x', policy_name: 'p' }, 7, 1_700_000_000_500]);
  for (const s of req.timeseries) {
    const names = s.labels.map((l) => l.name);
    assert.deepEqual(names, [...names].sort(), 'labels sorted by name');
    assert.ok(!names.includes('pod'), 'an empty external label is left out');
  }
  const buckets = series.filter(([l]) => l.__name__ === 'lat_bucket').map(([l, v]) => [l.le, v]);
  assert.deepEqual(buckets, [['1', 2], ['5', 3], ['+Inf', 7]]);
  assert.equal(series.find(([l]) => l.__name__ === 'lat_sum')?.[1], 40);
  assert.equal(series.find(([l]) => l.__name__ === 'lat_count')?.[1], 7);
  assert.deepEqual(req.metadata.map((m) => [m.metricFamilyName, m.type]), [['hits_total', 1], ['lat', 3]]);
  // The protobuf round trip keeps it all.
  assert.deepEqual(decodeWriteRequest(encodeWriteRequest(req)), req);
});

test('remoteWriteUrl appends the write path to prometheus.address', () => {
  assert.equal(remoteWriteUrl('127.0.0.1:9090'), 'http://127.0.0.1:9090/api/v1/write');
  assert.equal(remoteWriteUrl('https://prom.example/base/'), 'https://prom.example/base/api/v1/write');
});

function exporter(url: string, stats: ExporterStats, delays: number[] = [], timeoutMs = 10_000) {
  return new PrometheusRemoteWriteExporter({
    url, http: fetchHttp, labels: { instance: 'i' }, stats, timeoutMs,
    backoff: { next: () => 1, reset: () => undefined },
    sleep: async (ms) => { delays.push(ms); },
  });
}

function exportOnce(e: PrometheusRemoteWriteExporter): Promise<ExportResult> {
  return new Promise((resolve) => e.export(sample(), resolve));
}

test('posts a snappy-compressed protobuf WriteRequest with the protocol headers', async (t) => {
  const rx = await startTestReceiver();
  t.after(() => rx.close());
  const stats = new ExporterStats('remote_write');
  const e = exporter(rx.url, stats);
  const result = await exportOnce(e);
  assert.equal(result.code, ExportResultCode.SUCCESS);
  assert.equal(rx.requests.length, 1);
  const { headers, body } = rx.requests[0];
  assert.equal(headers['content-encoding'], 'snappy');
  assert.equal(headers['content-type'], 'application/x-protobuf');
  assert.equal(headers['x-prometheus-remote-write-version'], '0.1.0');
  assert.ok(body, 'the body decodes');
  assert.equal(body.timeseries.length, 6);
  assert.equal(stats.sentPoints, 6);
  await e.shutdown();
});

test('5xx and 429 answers are retried after the backoff; success counts once', async (t) => {
  const rx = await startTestReceiver([503, 429]);
  t.after(() => rx.close());
  const stats = new ExporterStats('remote_write');
  const delays: number[] = [];
  const result = await exportOnce(exporter(rx.url, stats, delays));
  assert.equal(result.code, ExportResultCode.SUCCESS);
  assert.equal(rx.requests.length, 3);
  assert.deepEqual(delays, [1, 1]);
  assert.equal(stats.retries, 2);
  assert.equal(stats.exports, 1);
  assert.equal(stats.healthy, true);
});

test('a 400 answer fails the export at once, without retrying', async (t) => {
  const rx = await startTestReceiver([400]);
  t.after(() => rx.close());
  const stats = new ExporterStats('remote_write');
  const result = await exportOnce(exporter(rx.url, stats));
  assert.equal(result.code, ExportResultCode.FAILED);
  assert.match(String(result.error?.message), /HTTP 400 no thanks/);
  assert.equal(rx.requests.length, 1);
  assert.equal(stats.failedPoints, 6);
  assert.equal(stats.healthy, false);
});

test('an unreachable server is retried until the export time is spent, then the export fails', async (t) => {
  const rx = await startTestReceiver();
  await rx.close();
  t.after(() => undefined);
  const stats = new ExporterStats('remote_write');
  let clock = 0;
  const e = new PrometheusRemoteWriteExporter({
    url: rx.url, http: fetchHttp, labels: {}, stats, timeoutMs: 1000,
    backoff: { next: () => 300, reset: () => undefined },
    sleep: async (ms) => { clock += ms; },
    now: () => clock,
  });
  const result = await exportOnce(e);
  assert.equal(result.code, ExportResultCode.FAILED);
  assert.match(String(result.error?.message), /gave up after 4 attempts/);
  assert.equal(stats.retries, 3);
});

test('after stopRetrying an export makes one attempt', async (t) => {
  const rx = await startTestReceiver([503, 503]);
  t.after(() => rx.close());
  const stats = new ExporterStats('remote_write');
  const e = exporter(rx.url, stats);
  e.stopRetrying();
  const result = await exportOnce(e);
  assert.equal(result.code, ExportResultCode.FAILED);
  assert.equal(rx.requests.length, 1);
  assert.equal(stats.retries, 0);
});

test('a data point\'s own label wins over an external one of the same Prometheus name; external label names are sanitised', () => {
  const rm = sample();
  const m = rm.scopeMetrics[0].metrics[0];
  rm.scopeMetrics[0].metrics[0] = { ...m, dataPoints: [{ ...m.dataPoints[0], attributes: { instance: 'mine', 'k8s.odd': 'x' } }] } as typeof m;
  for (let round = 0; round < 2; round++) {
    const req = toWriteRequest(rm, { instance: 'ext', 'agent.group': 'g' });
    const labels = req.timeseries[0].labels;
    assert.deepEqual(labels, [
      { name: '__name__', value: 'hits_total' }, { name: 'agent_group', value: 'g' },
      { name: 'instance', value: 'mine' }, { name: 'k8s_odd', value: 'x' },
    ], `round ${round}: the same answer with the label names already known`);
  }
  const bucket = toWriteRequest(sample(), { le: 'ext' }).timeseries.find((s) => s.labels.some((l) => l.value === '+Inf'));
  assert.deepEqual(bucket?.labels.filter((l) => l.name === 'le'), [{ name: 'le', value: '+Inf' }], 'the bucket bound wins over an external le');
});
