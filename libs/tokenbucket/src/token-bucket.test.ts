import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { LocalTokenBucketStore, newBucket, take, type TokenBucketParams } from './index.js';

const continuous: TokenBucketParams = { capacity: 10, fillAmount: 5, intervalMs: 1000, continuousFill: true };
const whole: TokenBucketParams = { ...continuous, continuousFill: false };

test('a new bucket starts full and takes until empty', () => {
  const b = newBucket(continuous, 0);
  for (let i = 0; i < 10; i++) assert.equal(take(b, continuous, 1, 0).ok, true);
  const r = take(b, continuous, 1, 0);
  assert.equal(r.ok, false);
  assert.equal(r.waitMs, 200, '1 token at 5 per second: 200 ms');
});

test('continuous fill accrues fractions, capped at capacity', () => {
  const b = newBucket(continuous, 0);
  assert.equal(take(b, continuous, 10, 0).ok, true);
  assert.equal(take(b, continuous, 1, 100).ok, false, '0.5 tokens after 100 ms');
  const r = take(b, continuous, 1, 200);
  assert.equal(r.ok, true, '1 token after 200 ms');
  assert.ok(Math.abs(r.remaining) < 1e-9);
  const later = take(b, continuous, 0, 1_000_000);
  assert.equal(later.current, 10, 'never above capacity');
});

test('whole-interval fill adds only full intervals, and the wait counts from the interval start', () => {
  const b = newBucket(whole, 0);
  assert.equal(take(b, whole, 10, 0).ok, true);
  const r = take(b, whole, 1, 999);
  assert.equal(r.ok, false, 'nothing before a whole interval');
  assert.equal(r.waitMs, 1, 'one interval after 0 is at 1000');
  assert.equal(take(b, whole, 5, 1000).ok, true, '5 tokens at 1000');
  assert.equal(take(b, whole, 1, 1500).ok, false);
  const r2 = take(b, whole, 7, 1500);
  assert.equal(r2.waitMs, 1500, '7 tokens need two intervals from 1000: at 3000');
  assert.equal(take(b, whole, 7, 2999).ok, false, 'one interval only: 5 tokens');
  const r3 = take(b, whole, 7, 3000);
  assert.equal(r3.ok, true, 'two intervals: 10 tokens');
  assert.equal(r3.remaining, 3);
});

test('capacity 0 rejects everything; more tokens than capacity are refused without a wait', () => {
  const zero = { ...continuous, capacity: 0 };
  const b = newBucket(zero, 0);
  const r = take(b, zero, 1, 10_000);
  assert.equal(r.ok, false);
  assert.equal(r.waitMs, 0);
  const b2 = newBucket(continuous, 0);
  const big = take(b2, continuous, 11, 0);
  assert.equal(big.ok, false);
  assert.equal(big.waitMs, 0);
  assert.equal(b2.available, 10, 'nothing taken');
});

test('a clock going back does not add tokens', () => {
  const b = newBucket(continuous, 1000);
  take(b, continuous, 10, 1000);
  assert.equal(take(b, continuous, 1, 500).ok, false);
  assert.equal(take(b, continuous, 1, 700).ok, true, '200 ms after the new start');
});

test('local store: one bucket per key, give back, idle eviction, key cap', () => {
  const s = new LocalTokenBucketStore({ ...continuous, capacity: 2 }, { maxIdleMs: 1000, maxKeys: 3 });
  assert.equal(s.take('a', 2, 0).ok, true);
  assert.equal(s.take('a', 1, 0).ok, false);
  assert.equal(s.take('b', 1, 0).ok, true, 'another key has its own bucket');
  s.giveBack('a', 1, 0);
  assert.equal(s.take('a', 1, 0).ok, true, 'given back');
  s.giveBack('a', 100, 0);
  assert.equal(s.peek('a'), 2, 'give back caps at capacity');
  assert.equal(s.size, 2);
  s.take('c', 1, 500);
  s.take('d', 1, 600);
  assert.equal(s.size, 3, 'at most maxKeys buckets');
  assert.equal(s.peek('b'), undefined, 'the least recently used went first');
  assert.equal(s.peek('a'), 2, 'a, used after b, kept');
  s.take('a', 1, 700);
  s.take('d', 1, 1600);
  assert.equal(s.size, 2, 'buckets idle for max_idle_time are swept');
  assert.equal(s.peek('c'), undefined);
  assert.notEqual(s.peek('a'), undefined, 'used 900 ms ago: kept');
});

test('local store: repeated takes of the most recent key keep the order of use (least recently used evicted)', () => {
  const s = new LocalTokenBucketStore({ ...continuous, capacity: 100 }, { maxKeys: 2, maxIdleMs: 0 });
  s.take('a', 1, 0);
  s.take('b', 1, 0);
  s.take('b', 1, 0);
  s.take('a', 1, 0);
  s.take('a', 1, 0);
  s.take('c', 1, 0);
  assert.equal(s.peek('b'), undefined, 'b, used before a, went first');
  assert.equal(s.peek('a'), 97, 'a kept, with its three takes');
  s.take('c', 1, 0);
  s.take('a', 1, 0);
  s.take('d', 1, 0);
  assert.equal(s.peek('c'), undefined, 'c, used before a, went');
  assert.equal(s.peek('a'), 96);
  assert.equal(s.take('d', 1, 0).ok, true);
  s.take('a', 1, 0);
  s.take('e', 1, 0);
  assert.equal(s.peek('d'), undefined, 'the most recent key after an eviction is tracked again');
});

test('new parameters cap the tokens of existing buckets', () => {
  const s = new LocalTokenBucketStore(continuous);
  s.take('a', 1, 0);
  s.setParams({ ...continuous, capacity: 3 });
  assert.equal(s.peek('a'), 3);
  assert.equal(s.take('a', 4, 0).ok, false);
});

test('local store: long keys (label values of any size) cost bounded memory and keep their own buckets', () => {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const s = new LocalTokenBucketStore({ ...continuous, capacity: 2 });
  const long = (i: number, tail = ''): string => `${i}:${'k'.repeat(100_000)}${tail}`;
  assert.equal(s.take(long(0, 'a'), 2, 0).ok, true);
  assert.equal(s.take(long(0, 'a'), 1, 0).ok, false, 'the same long key is the same bucket');
  assert.equal(s.take(long(0, 'b'), 1, 0).ok, true, 'long keys differing at the end have their own buckets');
  s.giveBack(long(0, 'a'), 1, 0);
  assert.equal(s.peek(long(0, 'a')), 1, 'tokens go back to the long key');
  const digestLike = `sha256:${'0'.repeat(64)}`;
  assert.equal(s.take(digestLike, 2, 0).ok, true);
  assert.equal(s.peek(digestLike), 0);
  gc();
  const before = process.memoryUsage().heapUsed;
  for (let i = 1; i <= 200; i++) s.take(long(i), 1, 0);
  gc();
  const grown = process.memoryUsage().heapUsed - before;
  assert.equal(s.size, 203);
  assert.ok(grown < 4_000_000, `200 keys of 100 000 characters kept ${grown} bytes`);
});

test('local store: a flood of new keys evicts idle buckets, never the exhausted one in use, and counts evictions', () => {
  const evicted: Record<string, number> = { capacity: 0, idle: 0 };
  const s = new LocalTokenBucketStore({ capacity: 5, fillAmount: 1, intervalMs: 3_600_000, continuousFill: true }, {
    maxKeys: 1000, onEvict: (reason, n) => { evicted[reason] += n; },
  });
  assert.equal(s.take('victim', 5, 0).ok, true, 'the attacked key exhausts its bucket');
  for (let i = 0; i < 100_000; i++) {
    s.take(`flood-${i}`, 1, 1);
    if (i % 500 === 0) assert.equal(s.take('victim', 1, 1).ok, false, `still exhausted after ${i} flood keys`);
  }
  assert.equal(s.take('victim', 1, 1).ok, false, 'the exhausted bucket survived 100 000 distinct keys');
  assert.equal(s.size, 1000);
  assert.equal(evicted.capacity, 100_000 + 1 - 1000, 'every capacity eviction counted');
  assert.equal(evicted.idle, 0);
});

test('local store: an idle sweep reports how many buckets it dropped', () => {
  let idle = 0;
  const s = new LocalTokenBucketStore(continuous, { maxIdleMs: 1000, onEvict: (reason, n) => { if (reason === 'idle') idle += n; } });
  s.take('a', 1, 0);
  s.take('b', 1, 0);
  s.take('c', 1, 900);
  s.take('c', 1, 1500);
  assert.equal(idle, 2);
  assert.equal(s.size, 1);
});
