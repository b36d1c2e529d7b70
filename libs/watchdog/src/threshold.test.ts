import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nextThreshold, pastLastMark, policyMode } from './threshold.js';
import type { WatchdogPolicyType } from './config.js';

const off = { enabled: false, factor: 0.5 };
const marks = (watermarks: number[]): WatchdogPolicyType => ({ adaptive_policy: off, watermarks_policy: { enabled: true, watermarks } });
const adaptive = (factor: number): WatchdogPolicyType => ({ adaptive_policy: { enabled: true, factor }, watermarks_policy: { enabled: false, watermarks: [0.5] } });

test('watermarks: the first watermark above usage, Infinity past the last', () => {
  const p = marks([0.5, 0.75, 0.99]);
  const cases: Array<[number, number]> = [[0, 500], [499, 500], [500, 750], [800, 990], [990, Infinity], [2000, Infinity]];
  for (const [used, want] of cases) assert.equal(nextThreshold(p, used, 1000), want, `used ${used}`);
});

test('watermarks need not be given in order', () => {
  assert.equal(nextThreshold(marks([0.9, 0.5]), 100, 1000), 500);
});

test('adaptive: used + (limit - used) × factor, at least the limit once reached', () => {
  assert.equal(nextThreshold(adaptive(0.5), 200, 1000), 600);
  assert.equal(nextThreshold(adaptive(0), 200, 1000), 200);
  assert.equal(nextThreshold(adaptive(1), 200, 1000), 1000);
  assert.equal(nextThreshold(adaptive(0.5), 1000, 1000), 1000);
  assert.equal(nextThreshold(adaptive(0.5), 1200, 1000), 1200, 'over the limit: fires on every check');
});

test('when both are enabled only watermarks is used', () => {
  const both: WatchdogPolicyType = { adaptive_policy: { enabled: true, factor: 0.1 }, watermarks_policy: { enabled: true, watermarks: [0.8] } };
  assert.equal(policyMode(both), 'watermarks');
  assert.equal(nextThreshold(both, 100, 1000), 800);
  assert.equal(policyMode({ adaptive_policy: off, watermarks_policy: { enabled: false, watermarks: [] } }), undefined);
  assert.equal(nextThreshold({ adaptive_policy: off, watermarks_policy: { enabled: false, watermarks: [] } }, 1, 10), Infinity);
});

test('the floor ratio (heap min_gogc) keeps the threshold at least used × ratio', () => {
  assert.equal(nextThreshold(adaptive(0.1), 500, 1000, 1.25), 625);
  assert.equal(nextThreshold(adaptive(0.9), 500, 1000, 1.25), 950);
  assert.equal(nextThreshold(marks([0.5, 0.55]), 480, 1000, 1.25), 600);
});

test('pastLastMark: the last watermark, or the limit for adaptive', () => {
  assert.equal(pastLastMark(marks([0.5, 0.9]), 899, 1000), false);
  assert.equal(pastLastMark(marks([0.5, 0.9]), 900, 1000), true);
  assert.equal(pastLastMark(adaptive(0.5), 999, 1000), false);
  assert.equal(pastLastMark(adaptive(0.5), 1000, 1000), true);
});
