import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ControlPointRegistry } from './control-point-registry.js';

test('bounded in count: the least recently seen go first', () => {
  const r = new ControlPointRegistry({ maxEntries: 10 });
  for (let i = 0; i < 10; i++) r.record(`cp${i}`, [], 'http', i);
  r.record('cp0', [], 'http', 100);
  r.record('cp-new', [], 'http', 101);
  assert.ok(r.size <= 10);
  const names = r.list(102).map((e) => e.controlPoint);
  assert.ok(names.includes('cp0'), 'recently seen kept');
  assert.ok(names.includes('cp-new'));
  assert.ok(!names.includes('cp1'), 'least recently seen dropped');
  for (let i = 0; i < 5000; i++) r.record(`many${i}`, ['s'], 'feature', 200 + i);
  assert.ok(r.size <= 10);
});

test('entries expire after the TTL', () => {
  const r = new ControlPointRegistry({ ttlMs: 1000 });
  r.record('old', ['s'], 'feature', 0);
  r.record('new', ['s'], 'feature', 900);
  assert.deepEqual(r.list(1500).map((e) => e.controlPoint), ['new']);
  assert.equal(r.size, 1);
});

test('listed most recently seen first, as the OpenAPI says; ties by control point, service, type', () => {
  const r = new ControlPointRegistry();
  r.record('a', ['s'], 'http', 10);
  r.record('b', ['s'], 'http', 30);
  r.record('c', ['s2', 's1'], 'feature', 20);
  r.record('a', ['s'], 'http', 40);
  assert.deepEqual(r.list(50).map((e) => `${e.controlPoint}/${e.service}`), ['a/s', 'b/s', 'c/s1', 'c/s2']);
});
