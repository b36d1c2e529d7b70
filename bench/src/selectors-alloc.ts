/**
 * Allocation and time per `LabelMatcher#matches` call, against a no-op
 * baseline measured in the same run. Allocation is summed from V8's GC
 * profiler (bytes allocated between collections), so it needs no flags.
 *
 *   npx tsc -p bench && node bench/dist/selectors-alloc.js
 */
import { GCProfiler, getHeapStatistics } from 'node:v8';
import { compileLabelMatcher, type FlowLabels, type LabelMatcher } from '@sluice/selectors';
import { printResult } from './support/result-line.js';

interface Measurement {
  bytesPerOp: number;
  nsPerOp: number;
}

const labelSets: FlowLabels[] = [
  { method: 'GET', path: '/api/users', tier: 'web', status: '200', user: 'alice' },
  { method: 'POST', path: '/admin/x', tier: 'db', status: '503' },
  { method: 'HEAD', path: '/', constructor: 'c', word: 'λόγος' },
  {},
];

let sink = 0;

function measure(matcher: LabelMatcher, iterations: number): Measurement {
  for (let i = 0; i < 10_000; i++) if (matcher.matches(labelSets[i & 3])) sink++; // warm up
  (globalThis as { gc?: () => void }).gc?.();
  const profiler = new GCProfiler();
  const startUsed = getHeapStatistics().used_heap_size;
  profiler.start();
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) if (matcher.matches(labelSets[i & 3])) sink++;
  const t1 = process.hrtime.bigint();
  const endUsed = getHeapStatistics().used_heap_size;
  const { statistics } = profiler.stop();
  let allocated = 0;
  let previous = startUsed;
  for (const gc of statistics) {
    allocated += Math.max(0, gc.beforeGC.heapStatistics.usedHeapSize - previous);
    previous = gc.afterGC.heapStatistics.usedHeapSize;
  }
  allocated += Math.max(0, endUsed - previous);
  return { bytesPerOp: allocated / iterations, nsPerOp: Number(t1 - t0) / iterations };
}

const baseline: LabelMatcher = { matches: (labels) => labels !== undefined };

const cases: Array<[string, LabelMatcher, number]> = [
  ['no-op baseline', baseline, 1_000_000],
  ['{} (empty filter)', compileLabelMatcher({}), 1_000_000],
  ['match_labels x2', compileLabelMatcher({ match_labels: { tier: 'web', method: 'GET' } }), 1_000_000],
  [
    'match_expressions In/NotIn/Exists',
    compileLabelMatcher({
      match_expressions: [
        { key: 'method', operator: 'In', values: ['GET', 'HEAD', 'OPTIONS'] },
        { key: 'status', operator: 'NotIn', values: ['500', '502', '503'] },
        { key: 'path', operator: 'Exists' },
      ],
    }),
    1_000_000,
  ],
  [
    'nested all/any/not, no regex',
    compileLabelMatcher({
      expression: {
        all: {
          of: [
            { any: { of: [{ label_equals: { label: 'method', value: 'GET' } }, { label_equals: { label: 'method', value: 'HEAD' } }] } },
            { not: { label_exists: 'constructor' } },
            { not: { label_equals: { label: 'tier', value: 'db' } } },
          ],
        },
      },
    }),
    1_000_000,
  ],
  ['label_matches ^/admin (re2js test)', compileLabelMatcher({ expression: { label_matches: { label: 'path', regex: '^/admin' } } }), 200_000],
  ['label_matches \\p{Greek} (re2js test)', compileLabelMatcher({ expression: { label_matches: { label: 'word', regex: '\\p{Greek}+' } } }), 200_000],
];

const base = measure(baseline, 1_000_000);
console.log('selectors-alloc: LabelMatcher#matches, bytes and ns per call (ratio = ns / baseline ns)');
let worstNonRegexBytes = 0;
let worstNonRegexRatio = 0;
for (const [name, matcher, iterations] of cases) {
  const m = name === 'no-op baseline' ? base : measure(matcher, iterations);
  if (!name.includes('re2js')) {
    worstNonRegexBytes = Math.max(worstNonRegexBytes, m.bytesPerOp);
    worstNonRegexRatio = Math.max(worstNonRegexRatio, m.nsPerOp / base.nsPerOp);
  }
  console.log(
    `${name.padEnd(38)} ${m.bytesPerOp.toFixed(2).padStart(8)} B/op  ${m.nsPerOp.toFixed(1).padStart(7)} ns/op  x${(m.nsPerOp / base.nsPerOp).toFixed(1)}`,
  );
}
printResult('selectors-alloc', { worst_no_regex_bytes_per_op: worstNonRegexBytes.toFixed(2), worst_no_regex_ns_ratio: worstNonRegexRatio.toFixed(1) });
if (sink === -1) console.log('unreachable');
