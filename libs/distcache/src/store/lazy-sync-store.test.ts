import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { TokenBucketParams } from '@sluice/tokenbucket';
import type { DistCache } from '../dist-cache.js';
import { LazySyncStore } from './lazy-sync-store.js';

interface FakeGroup { known: number; minority: boolean; left: number; consumed: number[]; cache: DistCache }

/** A cache whose owner answers `left` tokens to every reconciliation, with `known` members counted on. */
function group(known: number): FakeGroup {
  const g: FakeGroup = { known, minority: false, left: 0, consumed: [], cache: undefined as unknown as DistCache };
  g.cache = {
    id: 'me',
    ownerTimeoutMs: 100,
    currentRing: () => ({ owner: () => 'other', members: ['me'] }),
    knownMembers: () => g.known,
    inMinority: () => g.minority,
    consume: async (_key: string, n: number) => { g.consumed.push(n); return g.left; },
    setParams: () => undefined,
  } as unknown as DistCache;
  return g;
}

const params: TokenBucketParams = { capacity: 30, fillAmount: 0, intervalMs: 60_000, continuousFill: true };

function admitted(store: LazySyncStore, n: number): number {
  let ok = 0;
  for (let i = 0; i < n; i++) if (store.take('u', 1, Date.now()).ok) ok++;
  return ok;
}

test('lazy sync shares by the members counted on, not only those in the ring (a member out of reach still holds its share)', (t) => {
  const g = group(3); // the ring holds only this member; two more are counted on
  const store = new LazySyncStore(g.cache, { limiterId: 'p/lazy', params, numSync: 1 });
  t.after(() => store.shutdown());
  assert.equal(admitted(store, 30), 10);
});

test('cut off in a minority, lazy sync does not reconcile: it keeps to its share and reports what it consumed once back', async (t) => {
  const g = group(3);
  g.left = 30;
  const store = new LazySyncStore(g.cache, { limiterId: 'p/lazy', params, numSync: 1 });
  t.after(() => store.shutdown());
  g.minority = true;
  assert.equal(admitted(store, 20), 10);
  await store.sync();
  assert.deepEqual(g.consumed, [], 'no owner asked while in a minority');
  assert.equal(admitted(store, 5), 0, 'the share was not refreshed from the wrong side');
  g.minority = false;
  g.left = 15;
  await store.sync();
  assert.deepEqual(g.consumed, [10], 'what was consumed while cut off is reported');
  assert.equal(admitted(store, 20), 5, 'then the share is what the owner has left ÷ members');
});
