// The membership tick: a member alone ticks slowly (QUIET_TICK_MS); one that learns of another
// member, by a join it sends or by a packet it receives, ticks fast (TICK_MS) at once, and the
// pair forms a ring as before; a member that left stops ticking.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Registry } from 'prom-client';
import { DistCache } from '../dist-cache.js';
import { QUIET_TICK_MS, TICK_MS, type MembershipWiring } from './membership-wiring.js';
import { until } from '../testing/until.js';

const FAST = { probeIntervalMs: 100, probeTimeoutMs: 40, suspicionTimeoutMs: 400, syncIntervalMs: 300 };

async function node(id: string): Promise<DistCache> {
  const c = new DistCache({ id, group: 'g1', bindAddr: '127.0.0.1:0', memberlistBindAddr: '127.0.0.1:0', membership: FAST, registry: new Registry() });
  await c.start();
  return c;
}

/** The tick period of a started member (its wiring is private to DistCache). */
function tickOf(c: DistCache): number {
  const wiring = (c as unknown as { wiring: MembershipWiring | undefined }).wiring;
  assert.ok(wiring !== undefined, 'the member is started');
  return wiring.tickPeriodMs;
}

test('a member alone ticks slowly; members that know each other tick fast and form the ring', async (t) => {
  const a = await node('a');
  const b = await node('b');
  let stopped = false;
  t.after(async () => { if (!stopped) await Promise.all([a.shutdown(), b.shutdown()]); });
  assert.equal(tickOf(a), QUIET_TICK_MS);
  assert.equal(tickOf(b), QUIET_TICK_MS);
  b.join([a.gossipAddr]);
  await until(() => a.currentRing().members.length === 2 && b.currentRing().members.length === 2);
  assert.equal(tickOf(a), TICK_MS, 'a learnt of b from a packet');
  assert.equal(tickOf(b), TICK_MS, 'b learnt of a from the answer to its join');
  await Promise.all([a.shutdown(), b.shutdown()]);
  stopped = true;
  assert.equal(tickOf(a), 0);
  assert.equal(tickOf(b), 0);
});
