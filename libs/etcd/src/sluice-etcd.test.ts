import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Etcd3 } from 'etcd3';
import { Registry } from 'prom-client';
import { EtcdUnavailableError } from './errors.js';
import { etcdReadinessJob } from './readiness.js';
import { createEtcd, type CreateEtcdOptions } from './sluice-etcd.js';
import { startEtcdServer, type EtcdServer } from './testing/etcd-server.js';
import { etcdConfig, waitFor } from './test-support.js';
import type { SluiceEtcd, WatchHandler } from './types.js';
import { silentLogger } from '@sluice/telemetry/logger';

const FAST: CreateEtcdOptions = { backoff: { base_delay: '50ms', max_delay: '300ms' }, callTimeoutMs: 2000 };

async function metricValue(registry: Registry, name: string, labels: Record<string, string> = {}): Promise<number> {
  const m = registry.getSingleMetric(name);
  if (m === undefined) return 0;
  const values = (await m.get()).values.filter((v) => Object.entries(labels).every(([k, l]) => v.labels[k] === l));
  return values.reduce((n, v) => n + v.value, 0);
}

/** A handler that mirrors the watched keys and counts resets. */
function mirror(): WatchHandler & { keys: Map<string, string>; resets: number } {
  const h = {
    keys: new Map<string, string>(),
    resets: 0,
    reset(entries: Map<string, string>) { h.keys = new Map(entries); h.resets++; },
    put(k: string, v: string) { h.keys.set(k, v); },
    delete(k: string) { h.keys.delete(k); },
  };
  return h;
}

describe('etcd client against a real etcd', () => {
  let server: EtcdServer;
  let raw: Etcd3;
  before(async () => {
    server = await startEtcdServer();
    raw = new Etcd3({ hosts: [server.endpoint] });
  });
  after(async () => {
    raw.close();
    await server.close();
  });

  async function client(t: { after(fn: () => Promise<void>): void }, ttl = '60s', extra: CreateEtcdOptions = {}): Promise<{ etcd: SluiceEtcd; registry: Registry }> {
    const registry = new Registry();
    const etcd = createEtcd(etcdConfig(server.endpoint, ttl), { ...FAST, ...extra, registry });
    t.after(() => etcd.shutdown());
    await etcd.start();
    return { etcd, registry };
  }

  test('plain put, get, getPrefix and delete; state connected', async (t) => {
    const { etcd } = await client(t);
    await etcd.put('t1/a', '1');
    await etcd.put('t1/b', '2');
    await etcd.put('t10/c', '3');
    assert.equal(await etcd.get('t1/a'), '1');
    assert.equal(await etcd.get('t1/missing'), undefined);
    assert.deepEqual([...(await etcd.getPrefix('t1/')).entries()], [['t1/a', '1'], ['t1/b', '2']]);
    await etcd.delete('t1/a');
    assert.equal(await etcd.get('t1/a'), undefined);
    assert.equal(etcd.state(), 'connected');
    assert.equal(etcd.namespace, 'sluice');
  });

  test('a leased put writes only when the value changed', async (t) => {
    const { etcd, registry } = await client(t);
    await etcd.leased.put('t2/k', 'v1');
    const first = await raw.get('t2/k').exec();
    await etcd.leased.put('t2/k', 'v1');
    await etcd.leased.put('t2/k', 'v1');
    const again = await raw.get('t2/k').exec();
    assert.equal(again.kvs[0]?.mod_revision, first.kvs[0]?.mod_revision, 'an unchanged value is not written again');
    assert.equal(await metricValue(registry, 'etcd_client_puts_total', { kind: 'leased' }), 1);
    await etcd.leased.put('t2/k', 'v2');
    assert.equal(await raw.get('t2/k').string(), 'v2');
    assert.notEqual(first.kvs[0]?.lease, '0', 'the key is on a lease');
    assert.deepEqual(etcd.leased.keys(), ['t2/k']);
  });

  test('leased delete and deletePrefix forget the keys and delete them', async (t) => {
    const { etcd } = await client(t);
    await etcd.leased.put('t3/a/1', 'x');
    await etcd.leased.put('t3/a/2', 'y');
    await etcd.leased.put('t3/b', 'z');
    await etcd.leased.deletePrefix('t3/a/');
    assert.deepEqual(await raw.getAll().prefix('t3/').keys(), ['t3/b']);
    await etcd.leased.delete('t3/b');
    assert.deepEqual(await raw.getAll().prefix('t3/').keys(), []);
    assert.deepEqual(etcd.leased.keys(), []);
  });

  test('shutdown revokes the lease: its keys are gone at once', async (t) => {
    const { etcd } = await client(t);
    await etcd.leased.put('t4/k', 'v');
    assert.equal(await raw.get('t4/k').string(), 'v');
    await etcd.shutdown();
    assert.equal(await raw.get('t4/k').string(), null);
    await assert.rejects(etcd.put('t4/x', 'y'), EtcdUnavailableError);
  });

  test('revokeLeaseOnShutdown false: the keys stay; a successor re-puts them on its lease and a watcher sees no delete', async (t) => {
    const w = mirror();
    const deletes: string[] = [];
    const watcher = createEtcd(etcdConfig(server.endpoint), { ...FAST });
    t.after(() => watcher.shutdown());
    await watcher.start();
    const watch = watcher.watchPrefix('t4k/', { ...w, delete(k) { deletes.push(k); w.keys.delete(k); } });
    t.after(() => watch.shutdown());
    const first = createEtcd(etcdConfig(server.endpoint, '2s'), { ...FAST, revokeLeaseOnShutdown: false });
    await first.start();
    await first.leased.put('t4k/config', 'v1');
    await first.shutdown();
    assert.equal(await raw.get('t4k/config').string(), 'v1', 'still there after shutdown');
    const second = createEtcd(etcdConfig(server.endpoint, '60s'), { ...FAST });
    t.after(() => second.shutdown());
    await second.start();
    await second.leased.put('t4k/config', 'v1');
    // Past the first lease's TTL of 2 s: the key lives on the second lease.
    await sleep(3500);
    assert.equal(await raw.get('t4k/config').string(), 'v1', 'taken over by the new lease');
    await waitFor('the watcher holds the key', () => w.keys.get('t4k/config') === 'v1');
    assert.deepEqual(deletes, [], 'no delete seen through the restart');
  });

  test('revokeLeaseOnShutdown false: a key nobody takes over expires with the old lease', async (t) => {
    const first = createEtcd(etcdConfig(server.endpoint, '1s'), { ...FAST, revokeLeaseOnShutdown: false });
    t.after(() => first.shutdown());
    await first.start();
    await first.leased.put('t4e/k', 'v');
    await first.shutdown();
    assert.equal(await raw.get('t4e/k').string(), 'v');
    await waitFor('expiry', async () => (await raw.get('t4e/k').string()) === null, 8000);
  });

  test('a watch matches its prefix exactly: group default never sees default2', async (t) => {
    const { etcd } = await client(t);
    await raw.put('t5/config/default/p/1').value('a');
    await raw.put('t5/config/default2/p/1').value('b');
    const h = mirror();
    const w = etcd.watchPrefix('t5/config/default/', h);
    t.after(() => w.shutdown());
    await waitFor('the first reset', () => h.resets === 1);
    assert.deepEqual([...h.keys.keys()], ['t5/config/default/p/1']);
    await raw.put('t5/config/default2/p/2').value('c');
    await raw.put('t5/config/default/p/2').value('d');
    await waitFor('the put', () => h.keys.has('t5/config/default/p/2'));
    assert.deepEqual([...h.keys.keys()].sort(), ['t5/config/default/p/1', 't5/config/default/p/2']);
    await raw.delete().key('t5/config/default/p/1');
    await waitFor('the delete', () => !h.keys.has('t5/config/default/p/1'));
  });

  test('a handler that throws is logged and the watch goes on', async (t) => {
    const errors: string[] = [];
    const { etcd } = await client(t, '60s', { logger: { ...silentLogger, error(m) { errors.push(m); } } });
    const seen: string[] = [];
    let reset = false;
    const w = etcd.watchPrefix('t6/', {
      reset() { reset = true; },
      put(k) { seen.push(k); if (k === 't6/bad') throw new Error('boom'); },
      delete() {},
    });
    t.after(() => w.shutdown());
    // Puts made before the watcher's first read would reach it as its reset, not as puts.
    await waitFor('the first read', () => reset);
    await raw.put('t6/bad').value('1');
    await raw.put('t6/good').value('2');
    await waitFor('both puts', () => seen.length === 2);
    assert.deepEqual(seen, ['t6/bad', 't6/good']);
    assert.ok(errors.includes('etcd watch handler failed'));
  });

  test('readiness job reports the state', async (t) => {
    const { etcd } = await client(t);
    const job = etcdReadinessJob(etcd);
    await etcd.put('t7/k', 'v');
    const r = await job.run(new AbortController().signal);
    assert.equal(r?.healthy, true);
    assert.equal(job.name, 'etcd');
  });
});

describe('etcd client while etcd goes away', () => {
  test('watch resyncs after a restart: keys changed while it was away are seen', async (t) => {
    const server = await startEtcdServer();
    t.after(() => server.close());
    const raw = new Etcd3({ hosts: [server.endpoint] });
    t.after(() => raw.close());
    await raw.put('w/keep').value('1');
    await raw.put('w/gone').value('2');
    const registry = new Registry();
    // A slow resync leaves time to change keys after etcd returns and before the watch comes back.
    const etcd = createEtcd(etcdConfig(server.endpoint), { backoff: { base_delay: '1500ms', max_delay: '1500ms' }, callTimeoutMs: 1000, registry });
    t.after(() => etcd.shutdown());
    const states: string[] = [];
    etcd.onStateChange((s) => states.push(s));
    await etcd.start();
    const h = mirror();
    etcd.watchPrefix('w/', h);
    await waitFor('the first reset', () => h.resets === 1);
    await server.kill();
    await waitFor('unavailable', () => etcd.state() === 'unavailable', 5000);
    await server.start();
    await raw.delete().key('w/gone');
    await raw.put('w/new').value('3');
    await raw.put('w/keep').value('1b');
    await waitFor('the resync', () => h.resets >= 2 && h.keys.get('w/keep') === '1b', 10_000);
    assert.deepEqual([...h.keys.entries()].sort(), [['w/keep', '1b'], ['w/new', '3']]);
    await waitFor('connected', () => etcd.state() === 'connected', 5000);
    assert.ok(await metricValue(registry, 'etcd_client_watch_resyncs_total') >= 2);
    assert.ok(await metricValue(registry, 'etcd_client_reconnects_total') >= 1);
    assert.equal(await metricValue(registry, 'etcd_client_state', { state: 'connected' }), 1);
    // The watch is live again after the resync.
    await raw.put('w/after').value('4');
    await waitFor('a put after the resync', () => h.keys.get('w/after') === '4');
    assert.deepEqual(states.slice(0, 3), ['connected', 'unavailable', 'connected']);
  });

  test('stopped longer than the lease TTL: the leased keys are back, on a new lease when the old one is gone', async (t) => {
    const server = await startEtcdServer();
    t.after(() => server.close());
    const raw = new Etcd3({ hosts: [server.endpoint] });
    t.after(() => raw.close());
    const registry = new Registry();
    const etcd = createEtcd(etcdConfig(server.endpoint, '2s'), { ...FAST, registry });
    t.after(() => etcd.shutdown());
    await etcd.start();
    await etcd.leased.put('l/a', '1');
    await etcd.leased.put('l/b', '2');
    await server.stop();
    await waitFor('unavailable', () => etcd.state() === 'unavailable', 5000);
    // Writes while away are refused but kept.
    await assert.rejects(etcd.leased.put('l/c', '3'), EtcdUnavailableError);
    await sleep(3 * 2000);
    // The data is wiped while etcd is away: the old lease no longer exists when it returns.
    rmSync(join(server.dataDir, 'member'), { recursive: true, force: true });
    await server.start();
    await waitFor('the keys written again', async () => (await raw.getAll().prefix('l/').keys()).length === 3, 10_000);
    assert.deepEqual(Object.entries(await raw.getAll().prefix('l/').strings()).sort(), [['l/a', '1'], ['l/b', '2'], ['l/c', '3']]);
    assert.equal(await metricValue(registry, 'etcd_client_lease_grants_total'), 2);
    assert.equal(etcd.state(), 'connected');
  });

  test('a lease revoked behind its back is granted again and every key rewritten', async (t) => {
    const server = await startEtcdServer();
    t.after(() => server.close());
    const raw = new Etcd3({ hosts: [server.endpoint] });
    t.after(() => raw.close());
    const registry = new Registry();
    const etcd = createEtcd(etcdConfig(server.endpoint, '3s'), { ...FAST, registry });
    t.after(() => etcd.shutdown());
    await etcd.start();
    await etcd.leased.put('r/a', '1');
    const lease = (await raw.get('r/a').exec()).kvs[0]?.lease;
    assert.ok(lease !== undefined && lease !== '0');
    await raw.leaseClient.leaseRevoke({ ID: lease });
    assert.equal(await raw.get('r/a').string(), null);
    // Keepalives run every TTL/3 (1 s).
    await waitFor('the key written again', async () => (await raw.get('r/a').string()) === '1', 5000);
    assert.notEqual((await raw.get('r/a').exec()).kvs[0]?.lease, lease);
    assert.equal(await metricValue(registry, 'etcd_client_lease_grants_total'), 2);
  });

  test('start while etcd is away does not throw; the client connects when it comes', async (t) => {
    const server = await startEtcdServer();
    t.after(() => server.close());
    await server.stop();
    const etcd = createEtcd(etcdConfig(server.endpoint, '5s'), FAST);
    t.after(() => etcd.shutdown());
    await etcd.start();
    const job = etcdReadinessJob(etcd);
    await waitFor('unavailable', () => etcd.state() === 'unavailable', 5000);
    const r = await job.run(new AbortController().signal);
    assert.equal(r?.healthy, true, 'readiness shows the state without taking the process out of service');
    assert.match(String(r?.message), /etcd unavailable/);
    assert.deepEqual(r?.details, { state: 'unavailable' });
    const strict = await etcdReadinessJob(etcd, { failWhenUnavailable: true, name: 'etcd-strict' }).run(new AbortController().signal);
    assert.equal(strict?.healthy, false);
    const h = mirror();
    etcd.watchPrefix('s/', h);
    const pending = etcd.leased.put('s/k', 'v').catch((e: unknown) => e);
    await server.start();
    await waitFor('connected', () => etcd.state() === 'connected', 5000);
    await waitFor('the leased key seen by the watch', () => h.keys.get('s/k') === 'v', 5000);
    const outcome = await pending;
    assert.ok(outcome === undefined || outcome instanceof EtcdUnavailableError);
  });
});
