// How a member answers another's pull of a key's state after a ring change, on the simulated counter network.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { TokenBucketParams } from '@sluice/tokenbucket';
import { SimMember, SimOps, seededRandom } from '../testing/index.js';
import { Ring } from '../ring/ring.js';
import type { OpResult } from '../transport/ops.js';

const params: TokenBucketParams = { capacity: 30, fillAmount: 0, intervalMs: 1000, continuousFill: false };

/** A key m0 owns among m0 and m1, and m2 among the three. */
function movingKey(): string {
  for (let i = 0; ; i++) {
    const k = `p/root.0|u${i}`;
    if (new Ring(['m0', 'm1']).owner(k) === 'm0' && new Ring(['m0', 'm1', 'm2']).owner(k) === 'm2') return k;
  }
}

async function pull(net: SimOps, from: string, key: string): Promise<OpResult> {
  const answer = net.call('m2', from, { o: 'pull', k: key }, 100);
  await net.run(10);
  return answer;
}

test('the previous owner answers a pull with the state it handed over lately (the handover may be late), then with nothing', async () => {
  const net = new SimOps({ random: seededRandom(1), minDelayMs: 1, maxDelayMs: 1, dropRate: 0 });
  const m0 = new SimMember('m0', net, ['m0', 'm1'], { windowMs: 5000 });
  new SimMember('m1', net, ['m0', 'm1']);
  const key = movingKey();
  assert.equal(m0.table.take(key, 10, params, net.nowMs).ok, true);
  // m0 hands the key to m2, which does not serve yet: the handover is lost
  m0.setRing(['m0', 'm1', 'm2']);
  assert.equal(m0.table.has(key), false);
  const r = await pull(net, 'm0', key);
  assert.ok('s' in r && r.s !== null, `no state: ${JSON.stringify(r)}`);
  assert.equal(r.s.available, 20);
  await net.run(5000);
  assert.deepEqual(await pull(net, 'm0', key), { s: null }, 'past the window the handed state is forgotten');
});
