// A member joins a group of two while traffic flows on one key that moves to it, on the simulated counter
// network of @sluice/distcache/testing: the rings change one member at a time, answers are late or lost, and
// the link between the joiner and the key's previous owner may be slow past the owner deadline for a while.
// Whatever happens, every admission beyond the limit is a counted fallback on an agent's share.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import type { TokenBucketParams } from '@sluice/tokenbucket';
import { SimMember, SimOps, seededRandom } from '../testing/index.js';
import { DistributedTokenBucketStore } from '../store/distributed-store.js';
import { Ring } from '../ring/ring.js';

const OWNER_TIMEOUT_MS = 100;
const JOIN_MS = 300;
const RUN_MS = 2000;
const LIMITER = 'p/root.0';

interface Scenario {
  seed: number;
  capacity: number;
  /** When each member's ring takes the joiner in, after JOIN_MS (m0, m1, then the joiner m2). */
  ringAfterMs: [number, number, number];
  maxDelayMs: number;
  /** Share of operations and answers lost from the join on. */
  dropRate: number;
  /** Extra delay both ways between the joiner and the key's previous owner, from the join on, and for how long. */
  slowMs: number;
  slowForMs: number;
  /** Milliseconds between two takes on each member. */
  gapMs: number;
}

interface Outcome {
  admitted: number;
  rejected: number;
  fallbacks: number;
  fallbacksAdmitted: number;
  /** The key's previous owner (before the join). */
  previous: string;
}

/** A label whose key m0 or m1 owns among the two, and the joiner m2 among three. */
function movingLabel(store: DistributedTokenBucketStore): string {
  for (let i = 0; ; i++) {
    if (new Ring(['m0', 'm1', 'm2']).owner(store.keyOf(`u${i}`)) === 'm2') return `u${i}`;
  }
}

async function joinUnderTraffic(s: Scenario): Promise<Outcome> {
  const random = seededRandom(s.seed);
  const net = new SimOps({ random, minDelayMs: 1, maxDelayMs: s.maxDelayMs, dropRate: 0 });
  const members = [new SimMember('m0', net, ['m0', 'm1']), new SimMember('m1', net, ['m0', 'm1']), new SimMember('m2', net, ['m2'])];
  const params: TokenBucketParams = { capacity: s.capacity, fillAmount: 0, intervalMs: 3_600_000, continuousFill: false };
  const stores = members.map((m) => new DistributedTokenBucketStore(m, { limiterId: LIMITER, params }));
  const label = movingLabel(stores[0]);
  const previous = new Ring(['m0', 'm1']).owner(stores[0].keyOf(label)) ?? '';
  let admitted = 0;
  let rejected = 0;
  const pending: Promise<void>[] = [];
  const takeEvery = (i: number, fromMs: number): void => {
    for (let t = fromMs + Math.floor(random() * s.gapMs); t < RUN_MS; t += s.gapMs) {
      net.at(t, () => pending.push(Promise.resolve(stores[i].take(label, 1, net.nowMs)).then((r) => void (r.ok ? admitted++ : rejected++))));
    }
  };
  takeEvery(0, 0);
  takeEvery(1, 0);
  // membership learns of the joiner before its counter port answers a ping (then it enters the rings)
  net.at(JOIN_MS - 50, () => members.forEach((m) => m.setKnown(3)));
  net.at(JOIN_MS, () => {
    net.opts.dropRate = s.dropRate;
    net.slowDown('m2', previous, s.slowMs, JOIN_MS + s.slowForMs);
    net.slowDown(previous, 'm2', s.slowMs, JOIN_MS + s.slowForMs);
  });
  members.forEach((m, i) => net.at(JOIN_MS + s.ringAfterMs[i], () => m.setRing(['m0', 'm1', 'm2'])));
  // the joiner's own traffic starts once its ring holds the group
  takeEvery(2, JOIN_MS + s.ringAfterMs[2]);
  await net.run(RUN_MS + 3 * OWNER_TIMEOUT_MS + 1200);
  await Promise.all(pending);
  const sum = (f: (m: SimMember) => number): number => members.reduce((a, m) => a + f(m), 0);
  return { admitted, rejected, fallbacks: sum((m) => m.counts.fallbacks), fallbacksAdmitted: sum((m) => m.counts.fallbacksAdmitted), previous };
}

const scenarios = fc.record<Scenario>({
  seed: fc.integer({ min: 1, max: 2 ** 31 - 1 }),
  capacity: fc.integer({ min: 20, max: 60 }),
  ringAfterMs: fc.tuple(fc.integer({ min: 0, max: 400 }), fc.integer({ min: 0, max: 400 }), fc.integer({ min: 0, max: 400 })),
  maxDelayMs: fc.integer({ min: 1, max: 30 }),
  dropRate: fc.constantFrom(0, 0, 0.02, 0.1),
  slowMs: fc.constantFrom(0, 0, 80, 150, 400),
  slowForMs: fc.integer({ min: 0, max: 1500 }),
  gapMs: fc.integer({ min: 3, max: 12 }),
});

test('a member joins under traffic: admitted ≤ limit + counted fallback admissions, which stay within the agents\' shares', async () => {
  await fc.assert(
    fc.asyncProperty(scenarios, async (s) => {
      const o = await joinUnderTraffic(s);
      // the traffic offered is well above the limit: the bucket runs out, and no take is left unanswered
      assert.ok(o.rejected > 0, `the bucket never ran out: ${JSON.stringify(o)}`);
      assert.ok(o.admitted >= s.capacity / 3, `admitted ${o.admitted} of ${s.capacity}`);
      assert.ok(o.admitted <= s.capacity + o.fallbacksAdmitted, `admitted ${o.admitted} of ${s.capacity} with ${o.fallbacksAdmitted} fallback admissions (${o.fallbacks} fallbacks, previous owner ${o.previous})`);
      // every member counts 3 from before the first fallback: each share is capacity ÷ 3
      assert.ok(o.fallbacksAdmitted <= s.capacity + 1e-9, `${o.fallbacksAdmitted} fallback admissions past the shares of ${s.capacity}`);
    }),
    { numRuns: 60 },
  );
});

test('a join on a quiet network, the joiner\'s ring first: the key is handed over exactly, the limit, no fallback', async () => {
  for (const seed of [1, 2, 3, 4, 5]) {
    const o = await joinUnderTraffic({ seed, capacity: 40, ringAfterMs: [50 + seed * 60, 200, 0], maxDelayMs: 3, dropRate: 0, slowMs: 0, slowForMs: 0, gapMs: 5 });
    assert.equal(o.fallbacks, 0, `seed ${seed}: ${JSON.stringify(o)}`);
    assert.equal(o.admitted, 40, `seed ${seed}: ${JSON.stringify(o)}`);
  }
});

test('the others\' rings take the joiner in before its own does: it does not start their key full, the askers fall back on their shares', async () => {
  for (const seed of [1, 2, 3]) {
    const o = await joinUnderTraffic({ seed, capacity: 40, ringAfterMs: [0, 400, 150], maxDelayMs: 5, dropRate: 0, slowMs: 0, slowForMs: 0, gapMs: 4 });
    assert.ok(o.fallbacks > 0, `seed ${seed}: the joiner answered before its ring held the group (${JSON.stringify(o)})`);
    assert.ok(o.admitted <= 40 + o.fallbacksAdmitted, `seed ${seed}: ${JSON.stringify(o)}`);
    assert.ok(o.fallbacksAdmitted <= 40, `seed ${seed}: ${JSON.stringify(o)}`);
  }
});

test('the previous owner does not answer the joiner for a while: the joiner does not start the key full, the takes fall back on the shares', async () => {
  const o = await joinUnderTraffic({ seed: 7, capacity: 60, ringAfterMs: [300, 0, 0], maxDelayMs: 5, dropRate: 0, slowMs: 400, slowForMs: 1000, gapMs: 4 });
  assert.ok(o.fallbacks > 0, `no fallback: the slow link did not matter (${JSON.stringify(o)})`);
  assert.ok(o.admitted <= 60 + o.fallbacksAdmitted, JSON.stringify(o));
  assert.ok(o.fallbacksAdmitted <= 60, JSON.stringify(o));
});
