import assert from 'node:assert/strict';
import test from 'node:test';
import type { TakeResult, TokenBucketParams } from '@sluice/flowcontrol';
import type { DistCache, RemoteTake } from './dist-cache.js';
import { DistributedTokenBucketStore } from './distributed-store.js';

interface FakeOwner {
  cache: DistCache;
  /** Deadlines the store gave each remote take. */
  deadlines: number[];
  fallbacks: Array<{ reason: string; mode: string }>;
  known: number;
  minority: boolean;
  /** What the owner answers; undefined: it never answers in time (the take times out at its deadline). */
  answer: TakeResult | undefined;
}

/** A cache whose every key is owned by another member, slow or not, with `known` members in the group. */
function remoteOwner(known = 3): FakeOwner {
  const f: FakeOwner = { deadlines: [], fallbacks: [], known, minority: false, answer: undefined, cache: undefined as unknown as DistCache };
  f.cache = {
    id: 'me',
    ownerTimeoutMs: 100,
    currentRing: () => ({ owner: () => 'other' }),
    localTake: (): TakeResult => { throw new Error('not the owner'); },
    remoteTake: async (_o: string, _k: string, _n: number, _p: TokenBucketParams, timeoutMs: number): Promise<RemoteTake> => {
      f.deadlines.push(timeoutMs);
      if (f.answer !== undefined) return { ok: true, result: f.answer };
      await new Promise((r) => setTimeout(r, timeoutMs)); // a slow owner: the deadline passes first
      return { ok: false, reason: 'timeout' };
    },
    countFallback: (reason: string, mode: string) => { f.fallbacks.push({ reason, mode }); },
    knownMembers: () => f.known,
    inMinority: () => f.minority,
    setParams: () => undefined,
  } as unknown as DistCache;
  return f;
}

const params = (capacity: number, fillAmount = 0): TokenBucketParams => ({ capacity, fillAmount, intervalMs: 1000, continuousFill: true });

async function admitted(store: DistributedTokenBucketStore, label: string, n: number, nowMs = 0): Promise<number> {
  const rs = await Promise.all(Array.from({ length: n }, () => store.take(label, 1, nowMs)));
  return rs.filter((r) => r.ok).length;
}

test('capacity 0 or a cost above the capacity is rejected without asking the owner (no fail-open)', async () => {
  const f = remoteOwner();
  const store = new DistributedTokenBucketStore(f.cache, { limiterId: 'p/root.0', params: params(0) });
  assert.equal((await store.take('alice', 1, 0)).ok, false);
  store.setParams(params(5));
  assert.equal((await store.take('alice', 6, 0)).ok, false);
  assert.equal(f.deadlines.length, 0);
  // A cost the bucket can hold goes to the owner; it does not answer, so the decision falls back (and admits: 5/3 ≥ 1).
  assert.equal((await store.take('alice', 1, 0)).ok, true);
  assert.equal(f.deadlines.length, 1);
});

test('a slow owner: past the store\'s deadline each agent admits at most its share (capacity ÷ members), every fallback counted', async () => {
  const f = remoteOwner(3);
  const store = new DistributedTokenBucketStore(f.cache, { limiterId: 'p/root.0', params: params(30), ownerTimeoutMs: 25 });
  const t0 = Date.now();
  assert.equal(await admitted(store, 'alice', 100), 10);
  assert.ok(Date.now() - t0 >= 20, 'the fallback came before the owner deadline');
  assert.deepEqual(new Set(f.deadlines), new Set([25]));
  assert.equal(f.fallbacks.length, 100);
  assert.ok(f.fallbacks.every((x) => x.reason === 'timeout' && x.mode === 'open'));
  // each label has its own share; the next timeout of the same label finds its share spent
  assert.equal(await admitted(store, 'bob', 20), 10);
  assert.equal(await admitted(store, 'alice', 5), 0);
  assert.equal(store.fallbackBuckets, 2);
});

test('the default owner deadline is the cache\'s', async () => {
  const f = remoteOwner();
  f.answer = { ok: true, remaining: 4, current: 5, waitMs: 0 };
  const store = new DistributedTokenBucketStore(f.cache, { limiterId: 'p/root.0', params: params(5) });
  assert.deepEqual(await store.take('alice', 1, 0), f.answer);
  assert.deepEqual(f.deadlines, [100]);
  assert.equal(f.fallbacks.length, 0, 'an answer is no fallback');
});

test('the share refills at the share of the fill, and shrinks when the group grows', async () => {
  const f = remoteOwner(2);
  const store = new DistributedTokenBucketStore(f.cache, { limiterId: 'p/root.0', params: params(30, 10), ownerTimeoutMs: 5 });
  assert.equal(await admitted(store, 'alice', 40, 0), 15);
  // one second later: 10 ÷ 2 = 5 more tokens
  assert.equal(await admitted(store, 'alice', 40, 1000), 5);
  // the share of a fresh label with 3 members is 10; a used one keeps at most the new share
  f.known = 3;
  assert.equal(await admitted(store, 'bob', 40, 1000), 10);
  f.known = 2;
  assert.equal(await admitted(store, 'carol', 6, 1000), 6);
  f.known = 6;
  assert.equal(await admitted(store, 'carol', 40, 1000), 5);
});

test('fail-closed: a fallback rejects, and is counted as closed', async () => {
  const f = remoteOwner();
  const store = new DistributedTokenBucketStore(f.cache, { limiterId: 'p/root.0', params: params(30), ownerTimeoutMs: 5, failClosed: true });
  assert.equal(await admitted(store, 'alice', 5), 0);
  assert.deepEqual(f.fallbacks.map((x) => x.mode), ['closed', 'closed', 'closed', 'closed', 'closed']);
});

test('in a minority (cut off from most of the group) no owner is asked: the share decides, counted as minority', async () => {
  const f = remoteOwner(3);
  f.minority = true;
  const store = new DistributedTokenBucketStore(f.cache, { limiterId: 'p/root.0', params: params(30) });
  assert.equal(await admitted(store, 'alice', 30), 10);
  assert.equal(f.deadlines.length, 0);
  assert.equal(f.fallbacks.length, 30);
  assert.ok(f.fallbacks.every((x) => x.reason === 'minority'));
  // back in the majority: the owner decides again
  f.minority = false;
  f.answer = { ok: true, remaining: 1, current: 2, waitMs: 0 };
  assert.equal((await store.take('alice', 1, 0)).ok, true);
  assert.equal(f.deadlines.length, 1);
});

test('fallback buckets are bounded: the least recently used one goes first', async () => {
  const f = remoteOwner(1);
  const store = new DistributedTokenBucketStore(f.cache, { limiterId: 'p/root.0', params: params(2), ownerTimeoutMs: 1, maxFallbackBuckets: 2 });
  assert.equal(await admitted(store, 'a', 2), 2);
  assert.equal(await admitted(store, 'b', 2), 2);
  assert.equal(await admitted(store, 'a', 1), 0); // a is now the most recent
  assert.equal(await admitted(store, 'c', 1), 1); // b goes
  assert.equal(store.fallbackBuckets, 2);
  assert.equal(await admitted(store, 'a', 1), 0, 'a was kept');
  assert.equal(await admitted(store, 'b', 2), 2, 'b started afresh');
  // a bound below one still keeps one bucket
  const one = new DistributedTokenBucketStore(f.cache, { limiterId: 'p/root.0', params: params(2), ownerTimeoutMs: 1, maxFallbackBuckets: 0 });
  assert.equal(await admitted(one, 'a', 1), 1);
  assert.equal(one.fallbackBuckets, 1);
});
