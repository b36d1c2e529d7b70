import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { BucketTable, ENTRY_BYTES, type EvictReason } from './bucket-table.js';

const SLOW = { capacity: 5, fillAmount: 5, intervalMs: 3_600_000, continuousFill: false };
const FAST = { capacity: 5, fillAmount: 5, intervalMs: 100, continuousFill: true };

function counting(): { evicted: Record<EvictReason, number>; onEvict: (r: EvictReason, n: number) => void } {
  const evicted = { idle: 0, bound: 0 };
  return { evicted, onEvict: (r, n) => (evicted[r] += n) };
}

test('a flood of new keys never holds more than max entries or max bytes, whatever the keys', () => {
  fc.assert(fc.property(fc.integer({ min: 10, max: 300 }), fc.integer({ min: 1, max: 500 }), fc.array(fc.string({ minLength: 1, maxLength: 512 }), { minLength: 1, maxLength: 2000 }), (maxEntries, kb, keys) => {
    const maxBytes = ENTRY_BYTES * 4 + kb * 64;
    const t = new BucketTable({ maxEntries, maxBytes });
    keys.forEach((k, i) => {
      t.take(`l|${k}|${i}`, 1, SLOW, 1000 + i);
      assert.ok(t.size <= maxEntries, `${t.size} entries`);
      assert.ok(t.bytes <= Math.max(maxBytes, ENTRY_BYTES + 2 * 513 + 2 * 16), `${t.bytes} bytes`);
    });
  }), { numRuns: 40 });
});

test('past the bound the least recently used go first: a bucket in use keeps its count', () => {
  const { evicted, onEvict } = counting();
  const t = new BucketTable({ maxEntries: 100, onEvict });
  let now = 1000;
  assert.equal(t.take('l|hot', 5, SLOW, now).ok, true); // the hot bucket is empty now
  for (let i = 0; i < 1000; i++) {
    now++;
    t.take(`l|flood${i}`, 1, SLOW, now);
    if (i % 10 === 0) t.take('l|hot', 1, SLOW, now); // used all along: denied, and recent
  }
  assert.equal(t.take('l|hot', 1, SLOW, now).ok, false, 'the hot bucket was dropped and started full again');
  assert.ok(evicted.bound >= 900, JSON.stringify(evicted));
  assert.ok(t.size <= 100);
});

test('idle buckets that are full again are swept without waiting for a bound; ones still refilling stay', () => {
  const { evicted, onEvict } = counting();
  const t = new BucketTable({ sweepEveryMs: 1000, freshWindowMs: 500, onEvict });
  for (let i = 0; i < 50; i++) t.take(`l|fast${i}`, 5, FAST, 0);
  t.take('l|slow', 5, SLOW, 0);
  t.take('l|trigger', 1, FAST, 2000); // a take after the sweep interval sweeps
  assert.equal(evicted.idle, 50);
  assert.ok(t.has('l|slow'), 'a bucket still refilling was dropped (it would come back full)');
  assert.equal(t.take('l|slow', 1, SLOW, 2000).ok, false);
});

test('replicas and handed-over buckets count against the bound too', () => {
  const t = new BucketTable({ maxEntries: 10 });
  for (let i = 0; i < 50; i++) t.putReplica(`l|r${i}`, { available: 1, fillAgoMs: 0 }, SLOW, i);
  for (let i = 0; i < 50; i++) t.adopt(`l|h${i}`, { available: 1, fillAgoMs: 0 }, SLOW, 100 + i);
  assert.ok(t.size <= 10);
  assert.ok(t.has('l|h49'), 'the newest stays');
  let sum = 0;
  for (const k of t.keys()) sum += ENTRY_BYTES + 2 * k.length;
  assert.equal(t.bytes, sum, 'bytes follow what is held');
});
