import assert from 'node:assert/strict';
import test, { type TestContext } from 'node:test';
import { Registry } from 'prom-client';
import { epochNowMs, type TakeResult, type TokenBucketParams } from '@sluice/tokenbucket';
import { DistCache, type RemoteTake } from '../dist-cache.js';
import { Ring } from '../ring/ring.js';
import { until } from '../testing/until.js';
import { DistributedTokenBucketStore } from './distributed-store.js';

/*
 * The store keeps per label its bucket key, its owner in the ring it was looked up in, and the
 * bucket while this member holds it: looked up again when the ring changes and when the
 * published policy sets new parameters.
 */

const params = (capacity: number, fillAmount = 0): TokenBucketParams => ({ capacity, fillAmount, intervalMs: 1000, continuousFill: true });

/** A cache whose every key another member owns, in the ring `box.ring` (replaced by `box.newRing()`), counting the owner lookups. */
function countingCache(): { cache: DistCache; lookups: string[]; box: { ring: Ring; newRing(): void } } {
  const lookups: string[] = [];
  const ring = (): Ring => ({ owner: (key: string) => { lookups.push(key); return 'other'; } }) as unknown as Ring;
  const box = { ring: ring(), newRing: () => { box.ring = ring(); } };
  const cache = {
    id: 'me',
    ownerTimeoutMs: 100,
    sharedClock: true,
    currentRing: () => box.ring,
    remoteTake: (): Promise<RemoteTake> => Promise.resolve({ ok: true, result: { ok: true, remaining: 1, current: 2, waitMs: 0 } }),
    countFallback: () => undefined,
    knownMembers: () => 2,
    inMinority: () => false,
    setParams: () => undefined,
  } as unknown as DistCache;
  return { cache, lookups, box };
}

test('the owner of a label is looked up once per ring, again in a new ring and after new parameters', async () => {
  const { cache, lookups, box } = countingCache();
  const store = new DistributedTokenBucketStore(cache, { limiterId: 'p/c', params: params(10) });
  for (let i = 0; i < 3; i++) assert.equal((await store.take('alice', 1, 0)).ok, true);
  assert.deepEqual(lookups, ['p/c|alice'], 'one lookup for three takes in one ring');
  await store.take('bob', 1, 0);
  await store.take('alice', 1, 0);
  assert.deepEqual(lookups, ['p/c|alice', 'p/c|bob'], 'each label once');
  box.newRing();
  await store.take('alice', 1, 0);
  assert.equal(lookups.length, 3, 'a new ring: looked up again');
  assert.equal(store.keptLabels, 2);
  store.setParams(params(20));
  assert.equal(store.keptLabels, 0, 'new parameters: every label looked up again');
  await store.take('alice', 1, 0);
  assert.equal(lookups.length, 4);
});

const TIMINGS = { probeIntervalMs: 100, probeTimeoutMs: 40, suspicionTimeoutMs: 300, syncIntervalMs: 300, reapAfterMs: 800 };

async function member(t: TestContext, id: string): Promise<DistCache> {
  const c = new DistCache({ id, group: 'g1', bindAddr: '127.0.0.1:0', memberlistBindAddr: '127.0.0.1:0', membership: TIMINGS, registry: new Registry() });
  await c.start();
  t.after(() => c.shutdown());
  return c;
}

async function take(store: DistributedTokenBucketStore, label: string): Promise<TakeResult> {
  return store.take(label, 1, epochNowMs());
}

test('a label whose key moves to a member that joins goes to it; back to this member when it leaves', async (t) => {
  const a = await member(t, 'n0');
  assert.equal(a.sharedClock, true, 'the default clock is the engine\'s');
  const store = new DistributedTokenBucketStore(a, { limiterId: 'p/root.0', params: params(100), ownerTimeoutMs: 2000 });
  let label = '';
  for (let i = 0; label === ''; i++) if (new Ring(['n0', 'n1']).owner(store.keyOf(`u${i}`)) === 'n1') label = `u${i}`;
  for (let i = 0; i < 5; i++) assert.equal((await take(store, label)).remaining, 99 - i);
  assert.deepEqual(a.stats().operations, { local: 5, remote: 0, served: 0 });

  const b = await member(t, 'n1');
  b.join([a.gossipAddr]);
  await until(() => a.currentRing().members.length === 2 && b.currentRing().members.length === 2);
  const r = await take(store, label);
  assert.equal(r.ok, true);
  assert.equal(a.stats().operations.remote, 1, 'the take went to the new owner, not to the bucket this member kept');
  assert.equal(b.stats().operations.local, 1, 'decided on the new owner');
  assert.equal(r.remaining, 94, 'from the spent bucket handed over, not a full one');

  await b.shutdown();
  await until(() => a.currentRing().members.length === 1);
  const back = await take(store, label);
  assert.equal(back.ok, true);
  assert.equal(a.stats().operations.local, 6, 'this member owns the key again: decided here');
});

test('new parameters of the published policy reach the bucket a label holds: tokens kept, capped', async (t) => {
  const a = await member(t, 'n0');
  const store = new DistributedTokenBucketStore(a, { limiterId: 'p/root.0', params: params(10) });
  for (let i = 0; i < 2; i++) assert.equal((await take(store, 'alice')).ok, true);
  store.setParams(params(5));
  assert.equal((await take(store, 'alice')).remaining, 4, '8 left, capped at 5, one taken');
  store.setParams(params(20));
  assert.equal((await take(store, 'alice')).remaining, 3, 'a larger capacity adds no tokens');
  store.setParams(params(0));
  assert.equal((await take(store, 'alice')).ok, false, 'capacity 0 admits nothing');
});
