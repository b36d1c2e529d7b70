import assert from 'node:assert/strict';
import dgram from 'node:dgram';
import test, { type TestContext } from 'node:test';
import { Registry } from 'prom-client';
import type { TakeResult, TokenBucketParams } from '@sluice/tokenbucket';
import { DistCache, type RemoteTake } from '../dist-cache.js';
import { splitHostPort } from '../address.js';
import { Ring } from '../ring/ring.js';
import { encodePacket } from '../membership/wire.js';
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

// ---- with real members on loopback ----

const TIMINGS = { probeIntervalMs: 100, probeTimeoutMs: 40, suspicionTimeoutMs: 300, syncIntervalMs: 300, reapAfterMs: 800 };

async function member(t: TestContext, id: string, registry = new Registry(), timings = TIMINGS): Promise<DistCache> {
  const c = new DistCache({ id, group: 'g1', bindAddr: '127.0.0.1:0', memberlistBindAddr: '127.0.0.1:0', membership: timings, registry });
  await c.start();
  t.after(() => c.shutdown());
  return c;
}

async function until(cond: () => boolean, what: string, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Gossip to `c` that a member `id` is alive at an address where nothing listens (it never answers). */
async function gossipGhost(c: DistCache, id: string): Promise<void> {
  const sock = dgram.createSocket('udp4');
  const ghost = { id, gossipAddr: '127.0.0.1:9', opsAddr: '127.0.0.1:9', incarnation: 1, state: 'alive' as const };
  await new Promise<void>((r) => sock.send(encodePacket('g1', { id, gossipAddr: ghost.gossipAddr }, { t: 'gossip', gossip: [ghost] }), splitHostPort(c.gossipAddr).port, '127.0.0.1', () => r()));
  sock.close();
}

async function fallbackCount(registry: Registry, reason: string): Promise<number> {
  const m = registry.getSingleMetric('sluice_distcache_fallbacks_total');
  const values = m === undefined ? [] : (await m.get()).values;
  return values.filter((v) => v.labels.reason === reason).reduce((a, v) => a + v.value, 0);
}

test('a member counted on but out of reach makes a lone agent a minority: its takes use its share, counted; once reaped, it decides alone', async (t) => {
  const registry = new Registry();
  const c = await member(t, 'n0', registry);
  assert.equal(c.knownMembers(), 1);
  assert.equal(c.inMinority(), false, 'an agent alone is no minority');
  await gossipGhost(c, 'ghost');
  await until(() => c.knownMembers() === 2, 'the ghost counted');
  assert.equal(c.inMinority(), true);
  const store = new DistributedTokenBucketStore(c, { limiterId: 'p/root.0', params: params(30) });
  assert.equal(await admitted(store, 'alice', 30, Date.now()), 15, 'half of 30: one of two members');
  assert.equal(await fallbackCount(registry, 'minority'), 30);
  // dead is still counted (it may be alive behind a partition) until reaped
  await until(() => c.stats().members.some((m) => m.id === 'ghost' && m.state === 'dead'), 'the ghost dead');
  assert.equal(c.inMinority(), true);
  await until(() => c.knownMembers() === 1, 'the ghost reaped');
  assert.equal(c.inMinority(), false);
  assert.equal(await admitted(store, 'alice', 40, Date.now()), 30, 'the agent owns the key again: the whole bucket');
  assert.equal(await fallbackCount(registry, 'minority'), 30);
});

test('two reachable members and one out of reach are a majority: the owner decides, no fallback', async (t) => {
  const registry = new Registry();
  const [a, b] = [await member(t, 'n0', registry), await member(t, 'n1')];
  b.join([a.gossipAddr]);
  await until(() => a.currentRing().members.length === 2 && b.currentRing().members.length === 2, 'a ring of two');
  await gossipGhost(a, 'ghost');
  await until(() => a.knownMembers() === 3, 'the ghost counted');
  assert.equal(a.inMinority(), false);
  const store = new DistributedTokenBucketStore(a, { limiterId: 'p/root.0', params: params(30), ownerTimeoutMs: 2000 });
  assert.equal(await admitted(store, 'alice', 40, Date.now()), 30);
  assert.equal(await fallbackCount(registry, 'minority'), 0);
});

test('a key that moves to this member while the member to pull its state from does not answer is decided on the share, not started full', async (t) => {
  // suspicion slow enough that nobody is declared dead while the test runs
  const slow = { ...TIMINGS, suspicionTimeoutMs: 20_000, reapAfterMs: 60_000 };
  const registry = new Registry();
  const [a, b, c] = [await member(t, 'n0', registry, slow), await member(t, 'n1', new Registry(), slow), await member(t, 'n2', new Registry(), slow)];
  b.join([a.gossipAddr]);
  c.join([a.gossipAddr]);
  await until(() => [a, b, c].every((x) => x.currentRing().members.length === 3), 'a ring of three');
  const store = new DistributedTokenBucketStore(a, { limiterId: 'p/root.0', params: params(30), ownerTimeoutMs: 500 });
  // a label n2 owns among three and n0 owns once n2 is gone: n0 would pull its state from n1
  let label = '';
  for (let i = 0; label === ''; i++) {
    const k = store.keyOf(`u${i}`);
    if (new Ring(['n0', 'n1', 'n2']).owner(k) === 'n2' && new Ring(['n0', 'n1']).owner(k) === 'n0') label = `u${i}`;
  }
  // n1 and n2 stop answering counter operations (their counter ports close; membership still runs)
  for (const x of [b, c]) await (x as unknown as { ops: { close(): Promise<void> } }).ops.close();
  const before = await fallbackCount(registry, 'error');
  // the first take finds n2's port closed: n2 leaves n0's ring (the take falls back); the rest are n0's to decide
  const n = (await admitted(store, label, 1, Date.now())) + (await admitted(store, label, 29, Date.now()));
  assert.deepEqual(a.currentRing().members, ['n0', 'n1'], 'n2 left n0\'s ring on the refused connection');
  assert.equal(a.inMinority(), false, 'two of three: no minority');
  assert.ok(n <= 10, `admitted ${n}: the bucket was started full without its state (share 10)`);
  assert.ok((await fallbackCount(registry, 'error')) - before >= 30 - n);
});

test('bucket keys are built once per label and stay the same past the bound of kept keys', () => {
  const f = remoteOwner();
  const store = new DistributedTokenBucketStore(f.cache, { limiterId: 'p/c', params: params(10) });
  const long = 'x'.repeat(100);
  const first = store.keyOf(long);
  assert.match(first, /^p\/c\|sha256:[0-9a-f]{64}$/);
  assert.equal(store.keyOf('alice'), 'p/c|alice');
  for (let i = 0; i < 10_050; i++) store.keyOf(`u${i}`);
  assert.equal(store.keyOf(long), first, 'the same key after its cached copy was dropped');
  assert.equal(store.keyOf('alice'), 'p/c|alice');
});
