import assert from 'node:assert/strict';
import test from 'node:test';
import type { TakeResult, TokenBucketParams } from '@sluice/flowcontrol';
import type { DistCache } from './dist-cache.js';
import { DistributedTokenBucketStore } from './distributed-store.js';

/** A cache whose every key is owned by another member that never answers in time. */
function remoteOnlyCache(): { cache: DistCache; remoteCalls: () => number } {
  let calls = 0;
  const cache = {
    id: 'me',
    ownerTimeoutMs: 100,
    currentRing: () => ({ owner: () => 'other' }),
    localTake: (): TakeResult => { throw new Error('not the owner'); },
    remoteTake: async () => { calls++; return { ok: false as const, reason: 'timeout' }; },
    countFallback: () => undefined,
    setParams: () => undefined,
  } as unknown as DistCache;
  return { cache, remoteCalls: () => calls };
}

const params = (capacity: number): TokenBucketParams => ({ capacity, fillAmount: 1, intervalMs: 1000, continuousFill: true });

test('capacity 0 or a cost above the capacity is rejected without asking the owner (no fail-open)', async () => {
  const { cache, remoteCalls } = remoteOnlyCache();
  const store = new DistributedTokenBucketStore(cache, { limiterId: 'p/root.0', params: params(0) });
  assert.equal((await store.take('alice', 1, 0)).ok, false);
  store.setParams(params(5));
  assert.equal((await store.take('alice', 6, 0)).ok, false);
  assert.equal(remoteCalls(), 0);
  // A cost the bucket can hold goes to the owner; it does not answer, so the decision fails open.
  assert.equal((await store.take('alice', 1, 0)).ok, true);
  assert.equal(remoteCalls(), 1);
});
