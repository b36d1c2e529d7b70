import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { Registry } from 'prom-client';
import { ControllerMetrics } from './metrics.js';
import { MAX_TXN_OPS, Publisher } from './publisher.js';
import { MemoryEtcd, until } from './test-support.js';

function setup(t: TestContext, etcd = new MemoryEtcd()): { etcd: MemoryEtcd; publisher: Publisher; registry: Registry } {
  const registry = new Registry();
  const publisher = new Publisher(etcd, new ControllerMetrics(registry, () => new Map()));
  publisher.start();
  t.after(() => publisher.shutdown());
  return { etcd, publisher, registry };
}

const cfg = (policy: string, id: string): string => `sluice/config/default/${policy}/${id}`;
const dec = (policy: string, id: string): string => `sluice/decisions/default/${policy}/${id}`;

async function repairs(registry: Registry): Promise<Record<string, number>> {
  const m = await registry.getSingleMetric('policy_publication_repairs_total')!.get();
  return Object.fromEntries(m.values.map((v) => [`${String(v.labels.kind)}:${String(v.labels.reason)}`, v.value]));
}

test('published keys are plain (no lease) and a policy\'s keys go in one transaction', async (t) => {
  const { etcd, publisher } = setup(t);
  publisher.set(cfg('p', 'root.0'), '{"a":1}', 'config');
  publisher.set(cfg('p', 'root.1'), '{"a":2}', 'config');
  publisher.set(dec('p', 'root.0'), '{"d":1}', 'decision');
  publisher.set(cfg('q', 'root.0'), '{"q":1}', 'config');
  await publisher.idle();
  assert.equal(etcd.leasedKeys.size, 0);
  assert.deepEqual(etcd.txns.map((ops) => ops.map((o) => ('put' in o ? o.put : o.delete))), [
    [cfg('p', 'root.0'), cfg('p', 'root.1'), dec('p', 'root.0')],
    [cfg('q', 'root.0')],
  ], 'one transaction per policy, configurations first');
  assert.ok(publisher.synced());
  await publisher.shutdown();
  assert.equal(etcd.data.size, 4, 'closing leaves every key for the agents');
});

test(`a policy needing more than ${MAX_TXN_OPS} ops is written in transactions etcd accepts, configurations first`, async (t) => {
  const { etcd, publisher } = setup(t);
  for (let i = 0; i < 300; i++) {
    publisher.set(cfg('big', `root.${i}`), `{"i":${i}}`, 'config');
    publisher.set(dec('big', `root.${i}`), `{"d":${i}}`, 'decision');
  }
  await publisher.idle();
  assert.equal(publisher.lastError(), undefined);
  assert.equal(etcd.under('sluice/').size, 600);
  assert.ok(etcd.txns.every((ops) => ops.length <= MAX_TXN_OPS), 'no transaction over the limit');
  assert.equal(etcd.txns.length, Math.ceil(600 / MAX_TXN_OPS));
  const order = etcd.txns.flat().map((o) => ('put' in o ? o.put : o.delete));
  assert.ok(order.slice(0, 300).every((k) => k.startsWith('sluice/config/')), 'every configuration before any decision');
});

test('a published key changed or deleted by someone else is written back, and counted', async (t) => {
  const { etcd, publisher, registry } = setup(t);
  publisher.set(cfg('p', 'root.0'), '{"c":1}', 'config');
  publisher.set(dec('p', 'root.0'), '{"d":1}', 'decision');
  await publisher.idle();
  await etcd.put(dec('p', 'root.0'), 'garbage');
  await until(() => etcd.data.get(dec('p', 'root.0')) === '{"d":1}', 2000, 'decision repaired');
  await etcd.delete(cfg('p', 'root.0'));
  await until(() => etcd.data.get(cfg('p', 'root.0')) === '{"c":1}', 2000, 'configuration put back');
  await publisher.idle();
  assert.deepEqual(await repairs(registry), { 'decision:changed': 1, 'config:deleted': 1 });
  // The echoes of its own writes are no repairs.
  publisher.set(dec('p', 'root.0'), '{"d":2}', 'decision');
  publisher.set(dec('p', 'root.0'), '{"d":3}', 'decision');
  await publisher.idle();
  assert.deepEqual(await repairs(registry), { 'decision:changed': 1, 'config:deleted': 1 });
});

test('a key no policy owns is deleted only after collect(); a claimed key keeps what etcd holds', async (t) => {
  const etcd = new MemoryEtcd();
  await etcd.put(cfg('gone', 'root.0'), '{"old":1}');
  await etcd.put(dec('gone', 'root.0'), '{"old":1}');
  await etcd.put(dec('kept', 'root.0'), '{"last":7}');
  const { publisher, registry } = setup(t, etcd);
  publisher.claim(dec('kept', 'root.0'), 'decision');
  await publisher.idle();
  assert.equal(etcd.under('sluice/').size, 3, 'nothing deleted before every source of policies was read');
  publisher.collect();
  await until(() => etcd.under('sluice/').size === 1, 2000, 'unowned keys deleted');
  assert.equal(etcd.data.get(dec('kept', 'root.0')), '{"last":7}', 'a claimed decision stays as it is');
  assert.deepEqual(await repairs(registry), { 'config:unowned': 1, 'decision:unowned': 1 });
  // A key written later under the prefix by someone else is deleted as well.
  await etcd.put(cfg('stray', 'x'), '{}');
  await until(() => !etcd.data.has(cfg('stray', 'x')), 2000, 'stray key deleted');
  // Once it decides, the claimed key gets its value; removing it deletes it.
  publisher.set(dec('kept', 'root.0'), '{"new":1}', 'decision');
  await until(() => etcd.data.get(dec('kept', 'root.0')) === '{"new":1}', 2000, 'decision written');
  publisher.remove(dec('kept', 'root.0'));
  await until(() => etcd.under('sluice/').size === 0, 2000, 'removed');
});

test('etcd away: writes wait and go when it returns, still one transaction per policy', async (t) => {
  const { etcd, publisher } = setup(t);
  etcd.setState('unavailable');
  publisher.set(cfg('p', 'root.0'), '1', 'config');
  publisher.set(cfg('p', 'root.1'), '2', 'config');
  await publisher.idle();
  assert.match(publisher.lastError() ?? '', /put sluice\/config\/default\/p\/root.0 \(and 1 more in one transaction\): etcd unavailable/);
  assert.ok(!publisher.synced());
  etcd.setState('connected');
  await until(() => etcd.under('sluice/').size === 2, 2000, 'written on return');
  assert.equal(etcd.txns.length, 1);
});

test('etcd replaced by an empty one (its revisions start again): every key is written again', async (t) => {
  const { etcd, publisher } = setup(t);
  for (let i = 0; i < 5; i++) publisher.set(cfg('p', `root.${i}`), `{"i":${i}}`, 'config');
  publisher.set(dec('p', 'root.0'), '{"d":1}', 'decision');
  await publisher.idle();
  for (let i = 0; i < 20; i++) await etcd.put(`sluice/other/${i}`, 'x'); // etcd's revision moves on
  etcd.wipe();
  etcd.resync();
  await until(() => etcd.under('sluice/').size === 6, 2000, 'written again');
  assert.equal(etcd.data.get(dec('p', 'root.0')), '{"d":1}');
});
