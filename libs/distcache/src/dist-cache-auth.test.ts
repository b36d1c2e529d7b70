import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Registry } from 'prom-client';
import { DistCache, type DistCacheOptions } from './dist-cache.js';
import { Keyring } from './transport/auth/index.js';
import { SelfHealth, AUTH_PROBLEM_MS, REFUTE_LIMIT } from './membership/self-health.js';
import { DistCacheMetrics } from './metrics.js';
import { until } from './testing/until.js';

const FAST = { probeIntervalMs: 100, probeTimeoutMs: 40, suspicionTimeoutMs: 400, syncIntervalMs: 300 };
const OLD = Buffer.from('old-group-key-0123456789');
const NEW = Buffer.from('new-group-key-0123456789');

async function node(id: string, keys: Buffer[] | undefined, extra: Partial<DistCacheOptions> = {}): Promise<DistCache> {
  const c = new DistCache({
    id, group: 'g1', bindAddr: '127.0.0.1:0', memberlistBindAddr: '127.0.0.1:0', membership: FAST, registry: new Registry(),
    keys: keys === undefined ? undefined : new Keyring(keys), ...extra,
  });
  await c.start();
  return c;
}

test('members with a common key form one ring through a rotation; one with another key or none never joins', async (t) => {
  const a = await node('a', [NEW, OLD]); // rotating: signs with the new key, still accepts the old
  const b = await node('b', [OLD, NEW]); // not yet rotated: signs with the old key
  const stranger = await node('x', [Buffer.from('some-other-key-012345678')]);
  const open = await node('y', undefined);
  t.after(() => Promise.all([a, b, stranger, open].map((c) => c.shutdown())));
  b.join([a.gossipAddr]);
  stranger.join([a.gossipAddr, b.gossipAddr]);
  open.join([a.gossipAddr, b.gossipAddr]);
  await until(() => a.currentRing().members.length === 2 && b.currentRing().members.length === 2);
  await new Promise((r) => setTimeout(r, 1000));
  for (const c of [a, b]) {
    assert.deepEqual([...c.currentRing().members].sort(), ['a', 'b']);
    assert.deepEqual(c.stats().members.map((m) => m.id).sort(), ['a', 'b']);
    assert.ok(c.stats().droppedPackets > 0, 'the strangers\' packets were not dropped');
  }
  assert.equal(stranger.currentRing().members.length, 1);
  assert.equal(open.currentRing().members.length, 1);
  const key = 'l|k';
  const params = { capacity: 3, fillAmount: 0, intervalMs: 1000, continuousFill: false };
  const owner = a.ownersOf(key)[0] === 'a' ? a : b;
  const other = owner === a ? b : a;
  const r = await other.remoteTake(owner.id, key, 3, params, 2000);
  assert.ok(r.ok && r.result.ok, 'an authenticated take between members failed');
  assert.equal(await other.read(key), 0);
});

test('self health: refutations that do not hold, and peers whose packets all fail authentication, are a problem; unsigned forgeries beside genuine packets are not', () => {
  let now = 0;
  const changes: Array<string | undefined> = [];
  const h = new SelfHealth(new DistCacheMetrics(), () => now, (p) => changes.push(p));
  for (let i = 0; i < REFUTE_LIMIT - 1; i++) h.refuted();
  assert.equal(h.problem, undefined);
  h.refuted();
  assert.match(h.problem ?? '', /refutations in 30 s do not hold/);
  now += 31_000;
  h.update();
  assert.equal(h.problem, undefined, 'the problem ends with the window');
  // a genuine packet keeps arriving: failures are someone's forgeries
  h.authOk();
  h.authFailed('peer-b');
  now += AUTH_PROBLEM_MS - 1;
  h.authFailed('peer-b');
  assert.equal(h.problem, undefined);
  // nothing genuine for the whole window: this member's keys are not the group's
  now += 2;
  h.authFailed('peer-b');
  assert.match(h.problem ?? '', /peer-b fail authentication .* keys differ/);
  h.authOk();
  h.update();
  assert.equal(h.problem, undefined);
  assert.deepEqual(changes.map((c) => c === undefined ? 'ok' : 'problem'), ['problem', 'ok', 'problem', 'ok']);
});

test('with admission, members that answer probes but discovery does not list are never learnt: no minority, no ring', async (t) => {
  const { GossipTransport } = await import('./membership/gossip-transport.js');
  const { Membership } = await import('./membership/membership.js');
  const { decodePacket, encodePacket } = await import('./membership/wire.js');
  const a = await node('a', undefined, { admitOnlyPeers: true });
  const b = await node('b', undefined, { admitOnlyPeers: true });
  t.after(() => Promise.all([a, b].map((c) => c.shutdown())));
  const record = (c: DistCache) => ({ id: c.id, group: 'g1', advertisementAddr: c.opsAddr, distCache: { bindAddr: c.opsAddr, memberlistAddr: c.gossipAddr } });
  a.upsert('etcd', record(b));
  b.upsert('etcd', record(a));
  await until(() => a.currentRing().members.length === 2 && b.currentRing().members.length === 2);
  const fakes = await Promise.all(['f1', 'f2'].map(async (id) => {
    const box: { m?: InstanceType<typeof Membership> } = {};
    const g: InstanceType<typeof GossipTransport> = new GossipTransport({
      host: '127.0.0.1', port: 0, onMalformed: () => undefined,
      onPacket: (bytes) => {
        const d = decodePacket('g1', bytes);
        if (d.ok && box.m !== undefined) send(box.m.receive(d.msg, d.from, Date.now()));
      },
    });
    const port = await g.start();
    // a counter address where nothing listens: its port never answers
    const m = new Membership({ self: { id, gossipAddr: `127.0.0.1:${port}`, opsAddr: '127.0.0.1:9' }, incarnation: Date.now(), ...FAST });
    box.m = m;
    const send = (out: ReturnType<InstanceType<typeof Membership>['tick']>): void => {
      for (const o of out) {
        const bytes = encodePacket('g1', { id, gossipAddr: m.self.gossipAddr }, o.msg);
        if (o.reliable) g.sendTcp(o.to, bytes);
        else g.sendUdp(o.to, bytes);
      }
    };
    const timer = setInterval(() => send(m.tick(Date.now())), 20);
    send(m.join([a.gossipAddr, b.gossipAddr]));
    return { g, timer, m };
  }));
  t.after(async () => {
    for (const f of fakes) {
      clearInterval(f.timer);
      await f.g.close();
    }
  });
  // the fakes hear the members (they answer them) and announce themselves alive
  await until(() => fakes.every((f) => f.m.view().some((v) => v.id === 'a' && v.state === 'alive')));
  await new Promise((r) => setTimeout(r, 1500));
  for (const c of [a, b]) {
    assert.deepEqual(c.stats().members.map((m) => m.id).sort(), [c.id === 'a' ? 'a' : 'b', c.id === 'a' ? 'b' : 'a'].sort());
    assert.equal(c.currentRing().members.length, 2);
    assert.equal(c.inMinority(), false, `${c.id} counts ${c.knownMembers()} members`);
  }
});

test('a member holds at most max_buckets: a flood of new keys evicts the least recently used, counted', async (t) => {
  const registry = new Registry();
  const c = await node('a', undefined, { registry, limits: { maxBuckets: 50, maxBucketBytes: 1 << 20 } });
  t.after(() => c.shutdown());
  const params = { capacity: 5, fillAmount: 5, intervalMs: 3_600_000, continuousFill: false };
  for (let i = 0; i < 500; i++) await c.localTake(`l|flood-${i}`, 1, params);
  assert.ok(c.stats().buckets <= 50, String(c.stats().buckets));
  assert.ok(c.stats().bucketBytes <= 50 * 300);
  const evicted = (await registry.getSingleMetric('sluice_distcache_bucket_evictions_total')?.get())?.values.find((v) => v.labels.reason === 'bound')?.value ?? 0;
  assert.ok(evicted >= 450, String(evicted));
});
