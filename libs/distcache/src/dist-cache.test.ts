import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Registry } from 'prom-client';
import { DistCache, TIMED_LOCAL_TAKE_EVERY, type DistCacheOptions } from './dist-cache.js';
import { DistributedTokenBucketStore } from './store/distributed-store.js';
import { LazySyncStore } from './store/lazy-sync-store.js';
import { encodePacket } from './membership/wire.js';
import dgram from 'node:dgram';
import { splitHostPort } from './address.js';
import { until } from './testing/until.js';

const FAST = { probeIntervalMs: 100, probeTimeoutMs: 40, suspicionTimeoutMs: 400, syncIntervalMs: 300 };
const NO_REFILL = { capacity: 30, fillAmount: 0, intervalMs: 1000, continuousFill: true };
/**
 * For tests that count tokens: owners get 2 s and suspicion takes 3 s, so a
 * starved machine (2 cores shared by the whole suite) neither falls back nor
 * re-homes a bucket (a new owner starts it full) while the test counts.
 */
const PATIENT: Partial<DistCacheOptions> = { ownerTimeoutMs: 2000, membership: { probeIntervalMs: 200, probeTimeoutMs: 150, suspicionTimeoutMs: 3000, syncIntervalMs: 300 } };

async function node(id: string, extra: Partial<DistCacheOptions> = {}): Promise<DistCache> {
  const c = new DistCache({ id, group: 'g1', bindAddr: '127.0.0.1:0', memberlistBindAddr: '127.0.0.1:0', membership: FAST, registry: new Registry(), ...extra });
  await c.start();
  return c;
}

async function cluster(n: number, extra: Partial<DistCacheOptions> = {}): Promise<DistCache[]> {
  const nodes: DistCache[] = [];
  for (let i = 0; i < n; i++) nodes.push(await node(`n${i}`, extra));
  for (const c of nodes.slice(1)) c.join([nodes[0].gossipAddr]);
  await until(() => nodes.every((c) => c.currentRing().members.length === n));
  return nodes;
}

async function takeMany(store: DistributedTokenBucketStore, label: string, n: number): Promise<number> {
  const rs = await Promise.all(Array.from({ length: n }, () => store.take(label, 1, Date.now())));
  return rs.filter((r) => r.ok).length;
}

test('a limit of 30 holds across 3 members: exactly 30 admitted without refill', async (t) => {
  const nodes = await cluster(3, PATIENT);
  t.after(() => Promise.all(nodes.map((c) => c.shutdown())));
  // a generous owner deadline: this test checks the limit, not the fallback of a CPU-starved machine
  const stores = nodes.map((c) => new DistributedTokenBucketStore(c, { limiterId: 'p/root.0', params: NO_REFILL, ownerTimeoutMs: 2000 }));
  for (const label of ['alice', 'bob', 'carol', 'dave']) {
    const admitted = await Promise.all(stores.map((s) => takeMany(s, label, 20)));
    assert.equal(admitted.reduce((a, b) => a + b, 0), 30, `${label}: ${admitted}`);
  }
  const st = nodes.map((c) => c.stats());
  assert.equal(st.reduce((a, s) => a + s.keysOwned, 0), 4);
  assert.ok(st.some((s) => s.operations.remote > 0));
  assert.equal(st.reduce((a, s) => a + s.fallbacks, 0), 0);
});

test('with replica_count 2 a leaving owner hands its buckets on: no key starts full again', async (t) => {
  const nodes = await cluster(3, { ...PATIENT, replicaCount: 2 });
  const alive = new Set(nodes);
  t.after(() => Promise.all([...alive].map((c) => c.shutdown())));
  // owners get 2 s: these tests count tokens, and a starved machine must not pass a fail-open fallback for a take
  const stores = nodes.map((c) => new DistributedTokenBucketStore(c, { limiterId: 'p/root.1', params: NO_REFILL, ownerTimeoutMs: 2000 }));
  const labels = Array.from({ length: 12 }, (_, i) => `user-${i}`);
  for (const l of labels) assert.equal(await takeMany(stores[0], l, 10), 10);
  // replication is asynchronous: wait until every key has its replica rather than for a fixed time
  await until(() => nodes.reduce((a, c) => a + c.stats().replicasHeld, 0) >= labels.length, 10_000);
  const victim = nodes[1];
  await victim.shutdown();
  alive.delete(victim);
  await until(() => nodes[0].currentRing().members.length === 2 && nodes[2].currentRing().members.length === 2);
  for (const l of labels) {
    const admitted = (await takeMany(stores[0], l, 15)) + (await takeMany(stores[2], l, 15));
    assert.equal(admitted, 20, `${l} admitted ${admitted} after the owner left`);
  }
  assert.equal(nodes[0].stats().fallbacks + nodes[2].stats().fallbacks, 0);
});

test('a joining member takes over keys with their state (handover), not full buckets', async (t) => {
  const nodes = await cluster(2, PATIENT);
  const all = [...nodes];
  t.after(() => Promise.all(all.map((c) => c.shutdown())));
  const store = new DistributedTokenBucketStore(nodes[0], { limiterId: 'p/root.2', params: NO_REFILL, ownerTimeoutMs: 2000 });
  const labels = Array.from({ length: 20 }, (_, i) => `k${i}`);
  for (const l of labels) assert.equal(await takeMany(store, l, 25), 25);
  const late = await node('n-late', PATIENT);
  all.push(late);
  late.join([nodes[0].gossipAddr]);
  await until(() => [...nodes, late].every((c) => c.currentRing().members.length === 3));
  const lateStore = new DistributedTokenBucketStore(late, { limiterId: 'p/root.2', params: NO_REFILL, ownerTimeoutMs: 2000 });
  let moved = 0;
  for (const l of labels) {
    if (late.currentRing().owner(lateStore.keyOf(l)) === 'n-late') moved++;
    assert.equal(await takeMany(lateStore, l, 10), 5, `${l} after the join`);
  }
  assert.ok(moved > 0, 'no key moved to the new member');
  assert.equal(late.stats().fallbacks + nodes[0].stats().fallbacks, 0);
});

test('members of another group never merge; their packets are dropped and counted', async (t) => {
  const a = await cluster(2);
  const foreign = await node('x1', { group: 'g2' });
  t.after(() => Promise.all([...a, foreign].map((c) => c.shutdown())));
  foreign.join([a[0].gossipAddr]);
  a[1].join([foreign.gossipAddr]);
  const sock = dgram.createSocket('udp4');
  const { port } = splitHostPort(a[0].gossipAddr);
  await new Promise<void>((r) => sock.send(Buffer.from('garbage{'), port, '127.0.0.1', () => r()));
  await new Promise<void>((r) => sock.send(encodePacket('g1', { id: 'v', gossipAddr: 'x:1' }, { t: 'ping', seq: -5, target: 'n0', gossip: [] } as never), port, '127.0.0.1', () => r()));
  sock.close();
  await until(() => a[0].stats().droppedPackets >= 3);
  await new Promise((r) => setTimeout(r, 500));
  for (const c of a) assert.ok(!c.stats().members.some((m) => m.id === 'x1'), 'a foreign member was merged');
  assert.ok(!foreign.stats().members.some((m) => m.id.startsWith('n')));
  assert.equal(foreign.currentRing().members.length, 1);
});

test('lazy sync admits locally and stays within one bucket of the limit across members', async (t) => {
  const nodes = await cluster(3, PATIENT);
  const params = { capacity: 60, fillAmount: 0, intervalMs: 200, continuousFill: true };
  const stores = nodes.map((c) => new LazySyncStore(c, { limiterId: 'p/lazy', params, numSync: 4 }));
  t.after(async () => {
    for (const s of stores) void s.shutdown();
    await Promise.all(nodes.map((c) => c.shutdown()));
  });
  let admitted = 0;
  for (let round = 0; round < 10; round++) {
    for (const s of stores) for (let i = 0; i < 10; i++) if (s.take('u', 1, Date.now()).ok) admitted++;
    await Promise.all(stores.map((s) => s.sync()));
  }
  assert.ok(admitted >= 60 && admitted <= 120, `admitted ${admitted} against a bucket of 60`);
  // all reconciled: the owner's bucket is empty, so no member admits more
  for (const s of stores) assert.equal(s.take('u', 1, Date.now()).ok, false);
});

test('every local take is counted; one in TIMED_LOCAL_TAKE_EVERY is timed', async (t) => {
  const registry = new Registry();
  const c = await node('solo', { registry });
  t.after(() => c.shutdown());
  const store = new DistributedTokenBucketStore(c, { limiterId: 'p/root.0', params: { capacity: 1e9, fillAmount: 0, intervalMs: 1000, continuousFill: true } });
  const n = TIMED_LOCAL_TAKE_EVERY * 3 + 5;
  for (let i = 0; i < n; i++) assert.equal((await store.take('alice', 1, Date.now())).ok, true);
  const text = await registry.metrics();
  assert.match(text, new RegExp(`sluice_distcache_operations_total\\{op="take",target="local"\\} ${n}\\n`));
  assert.match(text, /sluice_distcache_operation_duration_seconds_count\{op="take",target="local"\} 3\n/);
  assert.match(text, /sluice_distcache_operation_duration_seconds_bucket\{le="0.00005",op="take",target="local"\} \d/);
  assert.equal(c.stats().operations.local, n);
});
