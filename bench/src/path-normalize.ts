/**
 * Time per request target of the normalizer (@sluice/flowcontrol's
 * normalizeRequestTarget, as the tap and the agent call it), against a no-op
 * baseline in the same run: already normal targets take the fast scan and
 * come back unchanged; the others are rewritten or refused.
 *
 *   npx tsc -b bench && node bench/dist/path-normalize.js
 */
import { isNormalTarget, normalizeRequestTarget } from '@sluice/flowcontrol';
import { printResult } from './support/result-line.js';

const OPTS = { mergeSlashes: true };
let sink = 0;

function nsPerOp(targets: readonly string[], fn: (t: string) => number, iterations: number): number {
  for (let i = 0; i < 100_000; i++) sink += fn(targets[i % targets.length] as string); // warm up
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) sink += fn(targets[i % targets.length] as string);
  return Number(process.hrtime.bigint() - t0) / iterations;
}

const normal = ['/api/users/123', '/v1/orders?id=7&x=%2F', '/', '/static/app.3f2a1b.js', '/admin/users/alice/settings/notifications'];
const rewritten = ['//admin/users', '/x/../admin/users', '/%61dmin/users', 'http://api/admin/users?x=1', '/a/./b/%7euser/'];
const refused = ['/admin%2Fusers', '/../admin', '/a\\b', '/admin%00'];

const baseline = (t: string): number => t.length;
const full = (t: string): number => {
  const r = normalizeRequestTarget(t, OPTS);
  return r.ok ? r.target.length : 1;
};
const scan = (t: string): number => (isNormalTarget(t, true) ? 1 : 0);

const N = 5_000_000;
const rows: [string, number][] = [
  ['no-op baseline', nsPerOp(normal, baseline, N)],
  ['normal: isNormalTarget (the fast scan)', nsPerOp(normal, scan, N)],
  ['normal: normalizeRequestTarget', nsPerOp(normal, full, N)],
  ['rewritten: normalizeRequestTarget', nsPerOp(rewritten, full, N / 5)],
  ['refused: normalizeRequestTarget', nsPerOp(refused, full, N / 5)],
];
for (const [name, ns] of rows) console.log(`${name.padEnd(42)} ${ns.toFixed(1).padStart(7)} ns/target`);
if (sink === 42) console.log('');
printResult('path-normalize', {
  normal_scan_ns: (rows[1]?.[1] ?? 0).toFixed(1),
  normal_ns: (rows[2]?.[1] ?? 0).toFixed(1),
  rewritten_ns: (rows[3]?.[1] ?? 0).toFixed(1),
  refused_ns: (rows[4]?.[1] ?? 0).toFixed(1),
});
