import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EtcdPeerSource, type PeerEtcd } from './peers-etcd.js';
import { parsePeerRecord, peerRecordJson, type PeerRecord, type PeerSink } from './peers.js';
import { distributedStoreFactory } from '../store/store-factory.js';
import { DistCache } from '../dist-cache.js';
import { DistributedTokenBucketStore } from '../store/distributed-store.js';
import { LazySyncStore } from '../store/lazy-sync-store.js';
import type { PublishedRateLimiter } from '@sluice/policies';

const rec = (id: string, group = 'g1'): PeerRecord => ({ id, group, advertisementAddr: `${id}:8080`, distCache: { bindAddr: `${id}:3320`, memberlistAddr: `${id}:3322` } });

function fakeEtcd(): PeerEtcd & { puts: Map<string, string>; handler?: Parameters<PeerEtcd['watchPrefix']>[1]; prefix?: string } {
  const f = {
    namespace: 'ns',
    puts: new Map<string, string>(),
    handler: undefined as Parameters<PeerEtcd['watchPrefix']>[1] | undefined,
    prefix: undefined as string | undefined,
    leased: {
      put: async (k: string, v: string) => void f.puts.set(k, v),
      delete: async (k: string) => void f.puts.delete(k),
    },
    watchPrefix(prefix: string, h: Parameters<PeerEtcd['watchPrefix']>[1]) {
      f.prefix = prefix;
      f.handler = h;
      return { shutdown: async () => undefined };
    },
  };
  return f;
}

function recordingSink(): PeerSink & { log: string[] } {
  const log: string[] = [];
  return {
    log,
    upsert: (s, p) => void log.push(`upsert ${s} ${p.id}`),
    remove: (s, id) => void log.push(`remove ${s} ${id}`),
    reset: (s, ps) => void log.push(`reset ${s} ${ps.map((p) => p.id).join(',')}`),
  };
}

test('a peer record round-trips through its stored JSON; anything else is refused', () => {
  assert.deepEqual(parsePeerRecord(peerRecordJson(rec('a'))), rec('a'));
  for (const bad of ['{', 'null', '{"id":"a"}', JSON.stringify({ id: 'a', group: 'g', advertisement_addr: 'x', dist_cache: { bind_addr: 1, memberlist_addr: 'y' } })]) {
    assert.equal(parsePeerRecord(bad), undefined, bad);
  }
});

test('the etcd source writes this agent on the lease and reports the peers of its own group only', async () => {
  const etcd = fakeEtcd();
  const bad: string[] = [];
  const src = new EtcdPeerSource({ etcd, self: rec('me'), onBadRecord: (k) => bad.push(k) });
  const sink = recordingSink();
  await src.start(sink);
  assert.equal(etcd.prefix, 'ns/peers/g1/');
  assert.deepEqual(parsePeerRecord(etcd.puts.get('ns/peers/g1/me') ?? ''), rec('me'));
  etcd.handler?.reset(new Map([
    ['ns/peers/g1/a', peerRecordJson(rec('a'))],
    ['ns/peers/g1/me', peerRecordJson(rec('me'))],
    ['ns/peers/g1/b', peerRecordJson(rec('b', 'g2'))],
    ['ns/peers/g1/c', 'not json'],
    ['ns/peers/g1/d', peerRecordJson(rec('e'))],
  ]));
  etcd.handler?.put('ns/peers/g1/f', peerRecordJson(rec('f')));
  etcd.handler?.delete('ns/peers/g1/a');
  assert.deepEqual(sink.log, ['reset etcd a', 'upsert etcd f', 'remove etcd a']);
  assert.deepEqual(bad, ['ns/peers/g1/b', 'ns/peers/g1/c', 'ns/peers/g1/d']);
  await src.shutdown();
  assert.equal(etcd.puts.has('ns/peers/g1/me'), false);
});

test('the store factory gives a lazy-sync store when the limiter asks for it, else the distributed one', async (t) => {
  const cache = new DistCache({ id: 'solo', group: 'g1', bindAddr: '127.0.0.1:0', memberlistBindAddr: '127.0.0.1:0' });
  await cache.start();
  t.after(() => cache.shutdown());
  const make = distributedStoreFactory(cache);
  const params = { capacity: 5, fillAmount: 0, intervalMs: 1000, continuousFill: true };
  const comp = (lazy: boolean): PublishedRateLimiter => ({
    kind: 'rate_limiter', policy_name: 'p', policy_hash: 'h', component_id: 'root.0', agent_group: 'g1', selectors: [],
    parameters: { interval_ms: 1000, continuous_fill: true, max_idle_time_ms: 0, lazy_sync: { enabled: lazy, num_sync: 4 } },
  });
  const d = make(params, comp(false));
  assert.ok(d instanceof DistributedTokenBucketStore);
  const l = make(params, comp(true));
  assert.ok(l instanceof LazySyncStore);
  void (l as LazySyncStore).shutdown();
  // a single member owns every key: takes run here, the limit holds
  let ok = 0;
  for (let i = 0; i < 8; i++) if ((await d.take('x', 1, Date.now())).ok) ok++;
  assert.equal(ok, 5);
  assert.equal(cache.stats().operations.remote, 0);
});

test('the etcd source starts at once when the lease is slow to come: the record is left to the client to write', async () => {
  const etcd = fakeEtcd();
  let asked = 0;
  etcd.leased.put = () => {
    asked++;
    return new Promise<void>(() => undefined); // etcd away: never settles
  };
  const src = new EtcdPeerSource({ etcd, self: rec('me') });
  const started = await Promise.race([src.start(recordingSink()).then(() => 'started'), new Promise((r) => setTimeout(() => r('held up'), 1000))]);
  assert.equal(started, 'started');
  assert.equal(asked, 1);
  assert.equal(etcd.prefix, 'ns/peers/g1/');
});
