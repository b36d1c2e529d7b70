import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createEtcd } from './sluice-etcd.js';
import { startEtcdServer, type EtcdServer } from './testing/etcd-server.js';
import { etcdConfig, waitFor } from './test-support.js';
import type { SluiceEtcd, WatchRevisions } from './types.js';

let server: EtcdServer;
let etcd: SluiceEtcd;
before(async () => {
  server = await startEtcdServer();
  etcd = createEtcd(etcdConfig(server.endpoint), { callTimeoutMs: 2000 });
  await etcd.start();
});
after(async () => {
  await etcd.shutdown();
  await server.close();
});

test('commit applies every op at one revision, seen so by a watch; getWithRevision answers it', async () => {
  const events: [string, string | undefined, string | undefined][] = [];
  let reset: WatchRevisions | undefined;
  const w = etcd.watchPrefix('txn/', {
    reset: (_e, r) => { reset = r; },
    put: (k, v, r) => events.push([k, v, r]),
    delete: (k, r) => events.push([k, undefined, r]),
  });
  await waitFor('first read', () => reset !== undefined);
  await etcd.put('txn/gone', 'x');
  const rev = await etcd.commit([{ put: 'txn/a', value: '1' }, { put: 'txn/b', value: '2' }, { delete: 'txn/gone' }]);
  await waitFor('four events', () => events.length === 4);
  assert.deepEqual(events.slice(1), [['txn/a', '1', rev], ['txn/b', '2', rev], ['txn/gone', undefined, rev]], 'one revision for the three ops');
  assert.deepEqual(await etcd.getWithRevision('txn/a'), { value: '1', modRevision: rev });
  assert.deepEqual(await etcd.getWithRevision('txn/none'), { value: undefined, modRevision: '0' });
  await w.shutdown();
  // A fresh watch's reset carries the read's revision and each key's.
  let again: WatchRevisions | undefined;
  const w2 = etcd.watchPrefix('txn/', { reset: (_e, r) => { again = r; }, put: () => undefined, delete: () => undefined });
  await waitFor('second read', () => again !== undefined);
  await w2.shutdown();
  assert.equal(again?.modRevisions.get('txn/b'), rev);
  assert.ok(BigInt(again!.revision) >= BigInt(rev));
});

test('commitIf writes only when the key is still at the revision read; 0 means absent', async () => {
  const first = await etcd.commitIf('cas/k', '0', [{ put: 'cas/k', value: 'v1' }]);
  assert.ok(first !== undefined, 'created when absent');
  assert.equal(await etcd.commitIf('cas/k', '0', [{ put: 'cas/k', value: 'nope' }]), undefined, 'refused: it exists now');
  const read = await etcd.getWithRevision('cas/k');
  await etcd.put('cas/k', 'other writer');
  assert.equal(await etcd.commitIf('cas/k', read.modRevision, [{ put: 'cas/k', value: 'mine' }]), undefined, 'refused: written since the read');
  assert.equal((await etcd.getWithRevision('cas/k')).value, 'other writer');
  const now = await etcd.getWithRevision('cas/k');
  assert.ok(await etcd.commitIf('cas/k', now.modRevision, [{ put: 'cas/k', value: 'mine' }]) !== undefined);
  assert.equal((await etcd.getWithRevision('cas/k')).value, 'mine');
});
