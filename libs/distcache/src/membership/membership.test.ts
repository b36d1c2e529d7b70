import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Membership, accepts } from './membership.js';
import { SimNetwork, seededRandom } from '../testing/sim-network.js';

const netArb = fc.record({
  seed: fc.integer(),
  n: fc.integer({ min: 3, max: 6 }),
  dropRate: fc.double({ min: 0, max: 0.25, noNaN: true }),
  maxDelayMs: fc.integer({ min: 1, max: 60 }),
});

test('members converge to all alive over a lossy, reordering network once it heals', () => {
  fc.assert(
    fc.property(netArb, (p) => {
      const net = clusterOf(p);
      net.run(10_000);
      net.opts = { ...net.opts, dropRate: 0 };
      net.run(8_000);
      assert.ok(net.converged(), 'not converged');
    }),
    { numRuns: 25 },
  );
});

test('a crashed member is suspected then declared dead by every other member', () => {
  fc.assert(
    fc.property(netArb, (p) => {
      const net = clusterOf(p);
      net.run(3_000);
      net.crash('m1');
      // On a lossy network m1 may already be suspected when it crashes (and be declared dead within
      // the next 50 ms), so the suspicion is looked for from the moment of the crash on.
      const suspected = (): boolean => [...net.nodes.keys()].some((o) => net.stateOf(o, 'm1') === 'suspect');
      let sawSuspect = suspected();
      for (let i = 0; i < 100 && !sawSuspect; i++) {
        net.run(50);
        sawSuspect = suspected();
      }
      assert.ok(sawSuspect, 'never suspected');
      net.run(6_000);
      for (const o of net.nodes.keys()) assert.equal(net.stateOf(o, 'm1'), 'dead', `${o} sees m1 ${net.stateOf(o, 'm1')}`);
    }),
    { numRuns: 20 },
  );
});

test('a member restarted with the same id comes back alive at a new incarnation, not as its dead self', () => {
  fc.assert(
    fc.property(netArb, (p) => {
      const net = clusterOf({ ...p, dropRate: Math.min(p.dropRate, 0.1) });
      net.run(3_000);
      const oldInc = net.nodes.get('m2')?.currentIncarnation ?? -1;
      net.crash('m2');
      net.run(8_000);
      for (const o of net.nodes.keys()) assert.equal(net.stateOf(o, 'm2'), 'dead');
      const fresh = net.add('m2', ['m0']);
      assert.equal(fresh.view().length, 0, 'a restarted member starts knowing nobody');
      net.opts = { ...net.opts, dropRate: 0 };
      net.run(6_000);
      assert.ok(net.converged(), 'not converged after rejoin');
      for (const o of net.nodes.keys()) {
        if (o === 'm2') continue;
        const inc = net.nodes.get(o)?.member('m2')?.incarnation ?? -1;
        assert.ok(inc > oldInc, `${o} sees m2 at incarnation ${inc}, old ${oldInc}`);
      }
    }),
    { numRuns: 15 },
  );
});

test('a partition marks the other side dead; after it heals all members converge', () => {
  fc.assert(
    fc.property(netArb, (p) => {
      const net = clusterOf(p);
      net.run(3_000);
      const ids = [...net.nodes.keys()];
      const cut = Math.max(1, Math.floor(ids.length / 2));
      net.partition([ids.slice(0, cut), ids.slice(cut)]);
      net.run(6_000);
      assert.notEqual(net.stateOf(ids[0], ids[ids.length - 1]), 'alive');
      net.heal();
      net.opts = { ...net.opts, dropRate: 0 };
      net.run(10_000);
      assert.ok(net.converged(), 'not converged after the partition healed');
    }),
    { numRuns: 15 },
  );
});

test('a suspected member refutes with a higher incarnation and is never declared dead', () => {
  const net = clusterOf({ seed: 7, n: 4, dropRate: 0, maxDelayMs: 5 });
  net.run(3_000);
  const inc = net.nodes.get('m3')?.currentIncarnation ?? 0;
  net.nodes.get('m0')?.suspect('m3', net.nowMs);
  assert.equal(net.stateOf('m0', 'm3'), 'suspect');
  for (let i = 0; i < 60; i++) {
    net.run(50);
    for (const o of net.nodes.keys()) assert.notEqual(net.stateOf(o, 'm3'), 'dead');
  }
  assert.ok((net.nodes.get('m3')?.currentIncarnation ?? 0) > inc);
  assert.ok(net.converged());
});

test('a member that leaves is seen as left, not dead, and is no longer probed', () => {
  const net = clusterOf({ seed: 3, n: 3, dropRate: 0, maxDelayMs: 5 });
  net.run(2_000);
  const m2 = net.nodes.get('m2') as Membership;
  net.dispatch(m2, m2.leave(net.nowMs));
  assert.deepEqual(m2.tick(net.nowMs + 1000), []);
  net.run(500);
  assert.equal(net.stateOf('m0', 'm2'), 'left');
  assert.equal(net.stateOf('m1', 'm2'), 'left');
  net.run(5_000);
  assert.equal(net.stateOf('m0', 'm2'), 'left');
});

test('updates follow incarnation precedence', () => {
  const base = { id: 'x', gossipAddr: 'x', opsAddr: 'x', sinceMs: 0 };
  assert.ok(accepts(undefined, { ...base, incarnation: 1, state: 'dead' }));
  assert.ok(accepts({ ...base, incarnation: 1, state: 'alive' }, { ...base, incarnation: 1, state: 'suspect' }));
  assert.ok(!accepts({ ...base, incarnation: 1, state: 'suspect' }, { ...base, incarnation: 1, state: 'alive' }));
  assert.ok(accepts({ ...base, incarnation: 1, state: 'dead' }, { ...base, incarnation: 2, state: 'alive' }));
  assert.ok(!accepts({ ...base, incarnation: 2, state: 'alive' }, { ...base, incarnation: 1, state: 'dead' }));
  assert.ok(!accepts({ ...base, incarnation: 1, state: 'dead' }, { ...base, incarnation: 1, state: 'left' }));
});

function clusterOf(p: { seed: number; n: number; dropRate: number; maxDelayMs: number }): SimNetwork {
  const net = new SimNetwork({ dropRate: p.dropRate, minDelayMs: 0, maxDelayMs: p.maxDelayMs, random: seededRandom(p.seed) });
  for (let i = 0; i < p.n; i++) net.add(`m${i}`, ['m0']);
  return net;
}
