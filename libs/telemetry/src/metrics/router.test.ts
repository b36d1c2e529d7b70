import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { createMetricsRegistry } from './registry.js';
import { metricsRouter } from './router.js';
import { HIGH_CARDINALITY_METRICS } from './high-cardinality.js';
import { PedanticRegistry } from './pedantic.js';
import { serve } from '../test-server.js';

const OFF = { enable_go_metrics: false, enable_process_collector: false, pedantic: false };

function platformMetrics(registry: Registry): void {
  const labelNames = ['grpc_method', 'grpc_service', 'grpc_type'];
  const labels = { grpc_method: 'Check', grpc_service: 'flowcontrol', grpc_type: 'unary' };
  for (const name of ['grpcserver_started_total', 'grpcserver_msg_received_total', 'grpcserver_msg_sent_total']) {
    new Counter({ name, help: name, labelNames, registers: [registry] }).inc(labels);
  }
  new Counter({ name: 'grpcserver_handled_total', help: 'handled', labelNames: [...labelNames, 'grpc_code'], registers: [registry] }).inc({ ...labels, grpc_code: 'OK' });
  new Histogram({ name: 'grpcserver_handling_seconds', help: 'handling', labelNames, registers: [registry] }).observe(labels, 0.01);
  new Gauge({ name: 'flowcontrol_workload_seconds', help: 'kept', registers: [registry] }).set(2);
}

const HIDDEN = /^grpcserver_(handled_total|handling_seconds(_bucket|_sum|_count)?|msg_received_total|msg_sent_total|started_total)\b/m;

test('GET /metrics hides the high-cardinality grpcserver families by default and keeps the rest', async (t) => {
  const registry = createMetricsRegistry(OFF);
  platformMetrics(registry);
  const base = await serve(t, metricsRouter(registry));
  const res = await fetch(`${base}/metrics`);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'text/plain; version=0.0.4; charset=utf-8');
  const text = await res.text();
  assert.doesNotMatch(text, /grpcserver_/);
  assert.match(text, /^# TYPE flowcontrol_workload_seconds gauge$/m);
  assert.match(text, /^flowcontrol_workload_seconds 2$/m);
  assert.ok(text.endsWith('\n'));
});

test('the registry remembers enable_high_cardinality_platform_metrics; the router option overrides it', async (t) => {
  const registry = createMetricsRegistry(OFF, { highCardinality: true });
  platformMetrics(registry);
  const shown = await (await fetch(`${await serve(t, metricsRouter(registry))}/metrics`)).text();
  for (const name of ['grpcserver_handled_total', 'grpcserver_started_total', 'grpcserver_msg_received_total', 'grpcserver_msg_sent_total', 'grpcserver_handling_seconds_bucket', 'grpcserver_handling_seconds_sum', 'grpcserver_handling_seconds_count']) {
    assert.match(shown, new RegExp(`^${name}\\{`, 'm'), name);
  }
  const hidden = await (await fetch(`${await serve(t, metricsRouter(registry, { highCardinality: false }))}/metrics`)).text();
  assert.doesNotMatch(hidden, HIDDEN);
  assert.match(hidden, /flowcontrol_workload_seconds 2/);
});

test('every listed family is filtered, including separately registered _bucket/_count/_sum names', async (t) => {
  const registry = new Registry();
  for (const name of HIGH_CARDINALITY_METRICS) new Gauge({ name, help: name, registers: [registry] }).set(1);
  new Gauge({ name: 'grpcserver_handling_seconds_other', help: 'not listed', registers: [registry] }).set(1);
  const text = await (await fetch(`${await serve(t, metricsRouter(registry))}/metrics`)).text();
  assert.doesNotMatch(text, HIDDEN);
  assert.match(text, /^grpcserver_handling_seconds_other 1$/m);
});

test('an inconsistent metric in a pedantic registry fails the scrape with 500 naming it', async (t) => {
  const registry = createMetricsRegistry({ ...OFF, pedantic: true });
  assert.ok(registry instanceof PedanticRegistry);
  new Counter({ name: 'broken_total', help: 'x', labelNames: ['a', 'b'], registers: [registry] }).inc({ a: '1' });
  for (const highCardinality of [false, true]) {
    const res = await fetch(`${await serve(t, metricsRouter(registry, { highCardinality }))}/metrics`);
    assert.equal(res.status, 500);
    const body = (await res.json()) as { code: number; message: string; details: unknown[] };
    assert.equal(body.code, 13);
    assert.match(body.message, /metric "broken_total": label values missing: "b"/);
  }
});

test('a collect callback that throws answers 500 with the reason, not a crash', async (t) => {
  const registry = new Registry();
  new Gauge({ name: 'throws', help: 'x', registers: [registry], collect() { throw new Error('source unavailable'); } });
  const res = await fetch(`${await serve(t, metricsRouter(registry))}/metrics`);
  assert.equal(res.status, 500);
  assert.match(((await res.json()) as { message: string }).message, /collecting metrics failed: source unavailable/);
});

test('metricsRouter refuses an OpenMetrics registry', () => {
  const registry = new Registry();
  registry.setContentType(Registry.OPENMETRICS_CONTENT_TYPE as unknown as typeof registry.contentType);
  assert.throws(() => metricsRouter(registry), TypeError);
});
