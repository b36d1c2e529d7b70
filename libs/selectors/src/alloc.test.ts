import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GCProfiler, getHeapStatistics } from 'node:v8';
import { compileLabelMatcher, type FlowLabels } from './index.js';

/** Bytes allocated on the V8 heap while `run` executes, summed across collections. */
function allocatedBytes(run: () => void): number {
  const profiler = new GCProfiler();
  const startUsed = getHeapStatistics().used_heap_size;
  profiler.start();
  run();
  const endUsed = getHeapStatistics().used_heap_size;
  const { statistics } = profiler.stop();
  let allocated = 0;
  let previous = startUsed;
  for (const gc of statistics) {
    allocated += Math.max(0, gc.beforeGC.heapStatistics.usedHeapSize - previous);
    previous = gc.afterGC.heapStatistics.usedHeapSize;
  }
  return allocated + Math.max(0, endUsed - previous);
}

test('matches() without regexes allocates nothing per call (generous bound: < 4 bytes/call)', () => {
  const matcher = compileLabelMatcher({
    match_labels: { tier: 'web' },
    match_expressions: [
      { key: 'method', operator: 'In', values: ['GET', 'HEAD', 'OPTIONS'] },
      { key: 'status', operator: 'NotIn', values: ['500', '503'] },
      { key: 'admin', operator: 'DoesNotExist' },
    ],
    expression: { any: { of: [{ not: { label_exists: 'constructor' } }, { label_equals: { label: 'user', value: '' } }] } },
  });
  const labelSets: FlowLabels[] = [
    { tier: 'web', method: 'GET', status: '200', user: 'alice' },
    { tier: 'web', method: 'HEAD', constructor: 'x', user: '' },
    { tier: 'db' },
    {},
  ];
  const iterations = 200_000;
  let hits = 0;
  const loop = (n: number) => {
    for (let i = 0; i < n; i++) if (matcher.matches(labelSets[i & 3])) hits++;
  };
  loop(20_000); // warm up the optimizing compiler first
  const bytes = allocatedBytes(() => loop(iterations));
  assert.equal(hits, 20_000 / 2 + iterations / 2); // the first two label sets match
  assert.ok(bytes / iterations < 4, `${(bytes / iterations).toFixed(2)} bytes per call`);
});
