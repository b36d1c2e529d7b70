import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { INCARNATION_MODULUS, laterIncarnation, nextIncarnation, type MemberUpdate } from './member.js';
import { SimNetwork, seededRandom } from '../testing/sim-network.js';
import type { Sender } from './messages.js';

// Property tests of the membership against a hostile member on the simulated network: every message
// goes through the packet codec (as between processes), so a value the codec refuses drops the packet.

const netArb = fc.record({
  seed: fc.integer(),
  n: fc.integer({ min: 3, max: 5 }),
  dropRate: fc.double({ min: 0, max: 0.1, noNaN: true }),
  maxDelayMs: fc.integer({ min: 1, max: 40 }),
});
const ROGUE: Sender = { id: 'rogue', gossipAddr: 'rogue' };

function clusterOf(p: { seed: number; n: number; dropRate: number; maxDelayMs: number }, admit?: (u: MemberUpdate) => boolean): SimNetwork {
  const net = new SimNetwork({ dropRate: p.dropRate, minDelayMs: 0, maxDelayMs: p.maxDelayMs, random: seededRandom(p.seed), wire: true });
  for (let i = 0; i < p.n; i++) net.add(`m${i}`, ['m0'], admit === undefined ? {} : { admit });
  return net;
}

function rumour(net: SimNetwork, id: string, incarnation: number, state: MemberUpdate['state']): MemberUpdate {
  const m = net.nodes.get(id)?.self ?? { id, gossipAddr: id, opsAddr: `${id}:ops` };
  return { ...m, incarnation, state };
}

test('incarnations compare as serial numbers: a refutation always exists and stays in range', () => {
  const top = INCARNATION_MODULUS - 1;
  assert.equal(nextIncarnation(top), 0);
  assert.ok(laterIncarnation(0, top), 'wrapped past the top is later');
  assert.ok(laterIncarnation(5, 4) && !laterIncarnation(4, 5) && !laterIncarnation(4, 4));
  fc.assert(fc.property(fc.integer({ min: 0, max: top }), (i) => {
    const n = nextIncarnation(i);
    assert.ok(Number.isSafeInteger(n) && n >= 0 && n < INCARNATION_MODULUS);
    assert.ok(laterIncarnation(n, i));
  }));
});

test('a spoofed `left`/`dead`/`suspect` at any incarnation, the top of the range included, is refuted and every member sees the victim alive again', () => {
  fc.assert(
    fc.property(netArb, fc.oneof(fc.constantFrom(INCARNATION_MODULUS - 1, Number.MAX_SAFE_INTEGER), fc.integer({ min: 0, max: INCARNATION_MODULUS - 1 })),
      fc.constantFrom('left', 'dead', 'suspect') as fc.Arbitrary<MemberUpdate['state']>, fc.integer({ min: 1, max: 3 }), (p, inc, state, times) => {
        const net = clusterOf(p);
        net.run(3_000);
        const victim = `m${p.n - 1}`;
        for (let k = 0; k < times; k++) {
          for (const to of net.nodes.keys()) if (to !== victim) net.inject(to, ROGUE, { t: 'gossip', gossip: [rumour(net, victim, inc, state)] });
          net.inject(victim, ROGUE, { t: 'gossip', gossip: [rumour(net, victim, inc, state)] });
          net.run(500);
        }
        net.opts = { ...net.opts, dropRate: 0 };
        net.run(8_000);
        assert.ok(net.converged(), `not converged: ${[...net.nodes.keys()].map((o) => `${o}:${net.stateOf(o, victim) ?? '-'}`).join(' ')}`);
        assert.deepEqual([...net.dropped.keys()].filter((id) => id !== ROGUE.id), [], 'a member\'s packets were dropped by the codec');
      }),
    { numRuns: 20 },
  );
});

test('a reaped member is not handed back by a push-pull, by a member that restarted, or by a hostile sync at its old incarnation', () => {
  fc.assert(
    fc.property(netArb, (p) => {
      const net = clusterOf({ ...p, n: Math.max(p.n, 4) });
      net.run(3_000);
      const old = net.nodes.get('m1')?.currentIncarnation ?? 0;
      const m1 = rumour(net, 'm1', old, 'alive');
      net.crash('m1');
      net.run(10_000); // dead everywhere
      net.crash('m2'); // a rolling restart of another member while m1 is dead
      net.run(500);
      net.add('m2', ['m0']);
      net.run(40_000); // past the reap (30 s) of m1
      for (const o of net.nodes.keys()) assert.equal(net.stateOf(o, 'm1'), undefined, `${o} still lists m1 (${net.stateOf(o, 'm1')})`);
      for (const state of ['dead', 'alive', 'suspect'] as const) {
        for (const to of net.nodes.keys()) net.inject(to, ROGUE, { t: 'sync', reply: true, members: [{ ...m1, state }] });
      }
      net.run(3_000);
      for (const o of net.nodes.keys()) assert.equal(net.stateOf(o, 'm1'), undefined, `${o} took m1 back`);
      // m1 restarted (a later incarnation) is learnt again
      net.add('m1', ['m0']);
      net.opts = { ...net.opts, dropRate: 0 };
      net.run(6_000);
      assert.ok(net.converged(), 'the restarted m1 did not rejoin');
    }),
    { numRuns: 10 },
  );
});

test('with admission, a member discovery does not name is never learnt, however it announces itself', () => {
  fc.assert(
    fc.property(netArb, (p) => {
      const peers = new Set(Array.from({ length: p.n }, (_, i) => `m${i}`));
      const net = clusterOf(p, (u) => peers.has(u.id) && u.gossipAddr === u.id && u.opsAddr === `${u.id}:ops`);
      net.run(2_000);
      const self = { id: 'rogue', gossipAddr: 'rogue', opsAddr: 'rogue:ops', incarnation: 1, state: 'alive' as const };
      for (const to of net.nodes.keys()) {
        net.inject(to, ROGUE, { t: 'sync', reply: false, members: [self] });
        net.inject(to, ROGUE, { t: 'ping', seq: 1, target: to, gossip: [self, { ...self, id: 'rogue2', gossipAddr: 'rogue2', opsAddr: 'rogue2:ops' }] });
        // a peer's id with the rogue's counter address: the takes would go to the rogue
        net.inject(to, ROGUE, { t: 'gossip', gossip: [{ ...rumour(net, 'm1', INCARNATION_MODULUS / 4, 'alive'), opsAddr: 'rogue:ops' }] });
      }
      net.run(4_000);
      for (const o of net.nodes.keys()) {
        assert.equal(net.stateOf(o, 'rogue'), undefined);
        assert.equal(net.stateOf(o, 'rogue2'), undefined);
        if (o !== 'm1') assert.equal(net.nodes.get(o)?.member('m1')?.opsAddr, 'm1:ops');
      }
      net.opts = { ...net.opts, dropRate: 0 };
      net.run(5_000);
      assert.ok(net.converged());
    }),
    { numRuns: 15 },
  );
});
