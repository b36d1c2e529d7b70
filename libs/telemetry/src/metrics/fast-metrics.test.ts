import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Counter, Histogram, Registry } from 'prom-client';
import { FastCounter } from './fast-counter.js';
import { FastHistogram } from './fast-histogram.js';
import { PedanticRegistry } from './pedantic.js';

const OBSERVATIONS: Array<[Record<'method' | 'route', string>, number]> = [
  [{ method: 'GET', route: '/a' }, 0.003], [{ method: 'GET', route: '/a' }, 0.025], [{ method: 'GET', route: '/a' }, 0.4],
  [{ method: 'POST', route: '/b' }, 7], [{ method: 'GET', route: '/a' }, 0], [{ method: 'POST', route: '/b' }, 0.1],
];

test('a FastCounter and a FastHistogram print exactly what prom-client prints for the same updates', async () => {
  const expected = new Registry();
  const c1 = new Counter({ name: 'x_total', help: 'X.', labelNames: ['method', 'route'], registers: [expected] });
  const h1 = new Histogram({ name: 'x_seconds', help: 'X time.', labelNames: ['method', 'route'], buckets: [0.01, 0.025, 0.5, 5], registers: [expected] });
  const actual = new Registry();
  const c2 = new FastCounter({ name: 'x_total', help: 'X.', labelNames: ['method', 'route'], registers: [actual] });
  const h2 = new FastHistogram({ name: 'x_seconds', help: 'X time.', labelNames: ['method', 'route'], buckets: [0.5, 0.01, 5, 0.025], registers: [actual] });
  for (const [labels, v] of OBSERVATIONS) {
    c1.inc(labels);
    h1.observe(labels, v);
    c2.child(labels).inc();
    h2.child(labels).observe(v);
  }
  c1.inc({ method: 'GET', route: '/a' }, 2.5);
  c2.inc({ method: 'GET', route: '/a' }, 2.5);
  assert.equal(await actual.metrics(), await expected.metrics());
  assert.deepEqual(await actual.getMetricsAsJSON(), await expected.getMetricsAsJSON());
});

test('children are resolved once and keep counting; reset empties; labels() and inc/observe still work', async () => {
  const r = new Registry();
  const c = new FastCounter({ name: 'y_total', help: 'Y.', labelNames: ['code'], registers: [r] });
  const h = new FastHistogram({ name: 'y_seconds', help: 'Y.', labelNames: ['code'], buckets: [1], registers: [r] });
  const ok = c.child({ code: 'OK' });
  for (let i = 0; i < 1000; i++) ok.inc();
  c.labels({ code: 'OK' }).inc(1);
  h.labels('OK').observe(2);
  h.observe({ code: 'OK' }, 0.5);
  const text = await r.metrics();
  assert.match(text, /y_total\{code="OK"\} 1001/);
  assert.match(text, /y_seconds_bucket\{le="1",code="OK"\} 1/);
  assert.match(text, /y_seconds_bucket\{le="\+Inf",code="OK"\} 2/);
  assert.match(text, /y_seconds_sum\{code="OK"\} 2\.5/);
  r.resetMetrics();
  assert.doesNotMatch(await r.metrics(), /code="OK"/);
});

test('remove drops one label set of a FastCounter (by object or by values); a child made again counts afresh', async () => {
  const r = new Registry();
  const c = new FastCounter({ name: 'z_total', help: 'Z.', labelNames: ['code', 'kind'], registers: [r] });
  c.child({ code: 'OK', kind: 'a' }).inc(3);
  c.child({ code: 'OK', kind: 'b' }).inc(4);
  c.remove({ code: 'OK', kind: 'a' });
  let text = await r.metrics();
  assert.doesNotMatch(text, /kind="a"/);
  assert.match(text, /z_total\{code="OK",kind="b"\} 4/);
  c.remove('OK', 'b');
  assert.doesNotMatch(await r.metrics(), /z_total\{/);
  c.child({ code: 'OK', kind: 'a' }).inc();
  text = await r.metrics();
  assert.match(text, /z_total\{code="OK",kind="a"\} 1/);
});

test('bad updates are refused like prom-client refuses them', () => {
  const c = new FastCounter({ name: 'z_total', help: 'Z.', labelNames: ['a'], registers: [] });
  const h = new FastHistogram({ name: 'z_seconds', help: 'Z.', labelNames: ['a'], registers: [] });
  assert.throws(() => c.child({ b: 'x' } as unknown as { a: string }), /label "b" is not included/);
  assert.throws(() => c.child({ a: 'x' }).inc(-1), /only grows/);
  assert.throws(() => c.child({ a: 'x' }).inc(Number.NaN), /only grows/);
  assert.throws(() => h.child({ a: 'x' }).observe(Number.POSITIVE_INFINITY), /finite/);
});

test('they pass the pedantic registry checks as counter and histogram', async () => {
  const r = new PedanticRegistry();
  new FastCounter({ name: 'p_total', help: 'P.', labelNames: ['a'], registers: [r] }).child({ a: '1' }).inc();
  new FastHistogram({ name: 'p_seconds', help: 'P.', labelNames: ['a'], buckets: [1], registers: [r] }).child({ a: '1' }).observe(0.2);
  const text = await r.metrics();
  assert.match(text, /# TYPE p_total counter/);
  assert.match(text, /# TYPE p_seconds histogram/);
  assert.throws(() => new Counter({ name: 'p_seconds', help: 'other', registers: [r] }), /p_seconds/);
});
