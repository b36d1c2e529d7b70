import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Counter, Registry } from 'prom-client';
import { createTelemetryPipeline, otlpMetricsUrl } from './pipeline.js';
import { fetchHttp, startTestReceiver } from './test-receiver.js';

test('otlpMetricsUrl adds /v1/metrics to a bare endpoint only', () => {
  assert.equal(otlpMetricsUrl('http://127.0.0.1:4318'), 'http://127.0.0.1:4318/v1/metrics');
  assert.equal(otlpMetricsUrl('http://c:4318/custom/path'), 'http://c:4318/custom/path');
});

async function startOtlpReceiver(): Promise<{ url: string; bodies: string[]; close(): Promise<void> }> {
  const bodies: string[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => { body += c; });
    req.on('end', () => { if (req.url === '/v1/metrics') bodies.push(body); res.writeHead(200, { 'content-type': 'application/json' }).end('{}'); });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    bodies,
    close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}

test('the pipeline exports the registry and its own meter by remote write and OTLP every interval', async (t) => {
  const rx = await startTestReceiver();
  const otlp = await startOtlpReceiver();
  t.after(async () => { await rx.close(); await otlp.close(); });
  const registry = new Registry();
  new Counter({ name: 'checks_total', help: 'checks', registers: [registry] }).inc(5);
  new Counter({ name: 'grpcserver_started_total', help: 'hidden', registers: [registry] }).inc();
  const pipeline = createTelemetryPipeline({
    registry, highCardinality: false, exportIntervalMs: 200,
    resource: { 'service.name': 'sluice-agent' },
    remoteWrite: { url: rx.url, http: fetchHttp, labels: { agent_group: 'g1', instance: 'i1' }, backoff: { next: () => 10, reset: () => undefined } },
    otlpUrl: otlp.url,
  });
  pipeline.meter.createCounter('sluice_limiter_decisions_total').add(2, { policy_name: 'p' });
  t.after(() => pipeline.shutdown());
  const deadline = Date.now() + 10_000;
  // An exporter counts what it sent once the receiver's answer reaches it, after the receiver has the body.
  const exported = (name: string): boolean => pipeline.exporters.some((e) => e.name === name && e.sentPoints > 0);
  while ((rx.requests.length < 2 || otlp.bodies.length < 2 || !exported('remote_write') || !exported('otlp')) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.ok(rx.requests.length >= 2, 'periodic remote writes');
  const series = rx.requests[0].body?.timeseries.map((s) => Object.fromEntries(s.labels.map((l) => [l.name, l.value]))) ?? [];
  assert.ok(series.some((l) => l.__name__ === 'checks_total' && l.agent_group === 'g1' && l.instance === 'i1'), JSON.stringify(series));
  assert.ok(series.some((l) => l.__name__ === 'sluice_limiter_decisions_total' && l.policy_name === 'p'));
  assert.ok(!series.some((l) => l.__name__ === 'grpcserver_started_total'), 'high-cardinality families are filtered');
  assert.ok(otlp.bodies.length >= 2, 'periodic OTLP exports');
  const otlpBody = otlp.bodies[0];
  assert.match(otlpBody, /"checks_total"/);
  assert.match(otlpBody, /sluice-agent/);
  const rw = pipeline.exporters.find((e) => e.name === 'remote_write');
  assert.ok(rw !== undefined && rw.sentPoints > 0 && rw.healthy);
  const o = pipeline.exporters.find((e) => e.name === 'otlp');
  assert.ok(o !== undefined && o.sentPoints > 0 && o.healthy);
});

test('without prometheus.address or an OTLP endpoint nothing is exported', () => {
  const pipeline = createTelemetryPipeline({ registry: new Registry(), highCardinality: false, exportIntervalMs: 1000, resource: {} });
  assert.equal(pipeline.exporting, false);
  assert.deepEqual(pipeline.exporters, []);
  return pipeline.shutdown();
});
