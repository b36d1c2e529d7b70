// List/watch of the test API server as @kubernetes/client-node and raw clients see it:
// informer add/update/delete, 410 Gone and the informer's relist, bookmarks, timeoutSeconds,
// and selector transitions.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { k8s } from '@sluice/kube';
import { startTestKubeApi, type TestKubeApi } from './kube-api/index.js';

interface WatchEvent { type: string; object: { kind?: string; code?: number; reason?: string; metadata?: { name?: string; resourceVersion?: string } } }

/** Opens a raw watch; collects events until `until` is true, the stream ends, or `ms` pass. */
async function rawWatch(api: TestKubeApi, path: string, until: (evs: WatchEvent[]) => boolean, ms = 5000): Promise<{ events: WatchEvent[]; ended: boolean }> {
  const ctrl = new AbortController();
  const timer = setTimeout(() => ctrl.abort(), ms);
  const events: WatchEvent[] = [];
  let ended = false;
  try {
    const res = await fetch(`${api.url}${path}`, { signal: ctrl.signal });
    assert.equal(res.status, 200);
    const reader = res.body!.getReader();
    const dec = new TextDecoder();
    let buf = '';
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        ended = true;
        break;
      }
      buf += dec.decode(value, { stream: true });
      let i;
      while ((i = buf.indexOf('\n')) >= 0) {
        events.push(JSON.parse(buf.slice(0, i)) as WatchEvent);
        buf = buf.slice(i + 1);
      }
      if (until(events)) break;
    }
    ctrl.abort();
  } catch (err) {
    if ((err as Error).name !== 'AbortError') throw err;
  } finally {
    clearTimeout(timer);
  }
  return { events, ended };
}

async function post(api: TestKubeApi, path: string, obj: unknown): Promise<{ metadata: { resourceVersion: string } }> {
  const res = await fetch(`${api.url}${path}`, { method: 'POST', body: JSON.stringify(obj), headers: { 'content-type': 'application/json' } });
  assert.equal(res.status, 201);
  return (await res.json()) as { metadata: { resourceVersion: string } };
}

async function waitFor(cond: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

const CRD = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.example.dev' },
  spec: { group: 'example.dev', scope: 'Namespaced', names: { plural: 'widgets', singular: 'widget', kind: 'Widget' }, versions: [{ name: 'v1', served: true, storage: true, subresources: { status: {} }, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }] },
};

test('client-node makeInformer on custom resources sees add, update and delete', async (t) => {
  const api = await startTestKubeApi(t);
  await post(api, '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', CRD);
  const kc = new k8s.KubeConfig();
  kc.loadFromFile(api.kubeconfig);
  const custom = kc.makeApiClient(k8s.CustomObjectsApi);
  let lists = 0;
  const informer = k8s.makeInformer(kc, '/apis/example.dev/v1/widgets', () => {
    lists++;
    return custom.listClusterCustomObject({ group: 'example.dev', version: 'v1', plural: 'widgets' }) as Promise<k8s.KubernetesListObject<k8s.KubernetesObject>>;
  });
  const seen: string[] = [];
  informer.on('add', (o) => seen.push(`add ${o.metadata?.name}`));
  informer.on('update', (o) => seen.push(`update ${o.metadata?.name} ${(o as { spec?: { size?: number } }).spec?.size}`));
  informer.on('delete', (o) => seen.push(`delete ${o.metadata?.name}`));
  await custom.createNamespacedCustomObject({ group: 'example.dev', version: 'v1', namespace: 'default', plural: 'widgets', body: { apiVersion: 'example.dev/v1', kind: 'Widget', metadata: { name: 'before' }, spec: { size: 1 } } });
  await informer.start();
  t.after(() => informer.stop());
  await waitFor(() => seen.includes('add before'));
  await custom.createNamespacedCustomObject({ group: 'example.dev', version: 'v1', namespace: 'default', plural: 'widgets', body: { apiVersion: 'example.dev/v1', kind: 'Widget', metadata: { name: 'w1' }, spec: { size: 1 } } });
  await waitFor(() => seen.includes('add w1'));
  await custom.patchNamespacedCustomObject({ group: 'example.dev', version: 'v1', namespace: 'default', plural: 'widgets', name: 'w1', body: { spec: { size: 2 } } }, k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch));
  await waitFor(() => seen.includes('update w1 2'));
  await custom.deleteNamespacedCustomObject({ group: 'example.dev', version: 'v1', namespace: 'default', plural: 'widgets', name: 'w1' });
  await waitFor(() => seen.includes('delete w1'));
  assert.deepEqual(seen, ['add before', 'add w1', 'update w1 2', 'delete w1']);
  assert.equal(lists, 1);
  assert.deepEqual(informer.list().map((o) => o.metadata?.name), ['before']);
});

test('a watch from a resourceVersion older than the history gets an ERROR event with a 410 Status and ends', async (t) => {
  const api = await startTestKubeApi(t);
  const first = await post(api, '/api/v1/namespaces/default/configmaps', { metadata: { name: 'a' } });
  await post(api, '/api/v1/namespaces/default/configmaps', { metadata: { name: 'b' } });
  // Within the history: the change after `first` is replayed.
  const replay = await rawWatch(api, `/api/v1/namespaces/default/configmaps?watch=1&resourceVersion=${first.metadata.resourceVersion}`, (e) => e.length >= 1);
  assert.deepEqual(replay.events.map((e) => `${e.type} ${e.object.metadata?.name}`), ['ADDED b']);
  api.server.expireHistory();
  const r = await rawWatch(api, `/api/v1/namespaces/default/configmaps?watch=1&resourceVersion=${first.metadata.resourceVersion}`, () => false);
  assert.equal(r.ended, true);
  assert.equal(r.events.length, 1);
  assert.equal(r.events[0].type, 'ERROR');
  assert.deepEqual({ kind: r.events[0].object.kind, code: r.events[0].object.code, reason: r.events[0].object.reason }, { kind: 'Status', code: 410, reason: 'Expired' });
});

test('a history window of N changes: a watch N+1 changes behind is 410', async (t) => {
  const api = await startTestKubeApi(t, { historyLimit: 3 });
  const first = await post(api, '/api/v1/namespaces/default/configmaps', { metadata: { name: 'c0' } });
  for (let i = 1; i <= 4; i++) await post(api, '/api/v1/namespaces/default/configmaps', { metadata: { name: `c${i}` } });
  const r = await rawWatch(api, `/api/v1/namespaces/default/configmaps?watch=1&resourceVersion=${first.metadata.resourceVersion}`, () => false);
  assert.equal(r.events[0].type, 'ERROR');
  assert.equal(r.events[0].object.code, 410);
});

test('an informer whose watch breaks after the history expired gets 410 and relists, and keeps seeing changes', async (t) => {
  const api = await startTestKubeApi(t);
  const kc = new k8s.KubeConfig();
  kc.loadFromFile(api.kubeconfig);
  const core = kc.makeApiClient(k8s.CoreV1Api);
  await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'a' } } });
  let lists = 0;
  const informer = k8s.makeInformer(kc, '/api/v1/namespaces/default/configmaps', () => {
    lists++;
    return core.listNamespacedConfigMap({ namespace: 'default' });
  });
  const errors: unknown[] = [];
  informer.on('error', (e) => errors.push(e));
  await informer.start();
  t.after(() => informer.stop());
  await waitFor(() => api.server.openWatches() === 1);
  await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'b' } } });
  await waitFor(() => informer.list().length === 2);
  api.server.dropWatches();
  api.server.expireHistory();
  await waitFor(() => lists === 2 && api.server.openWatches() === 1);
  await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'c' } } });
  await waitFor(() => informer.list().length === 3);
  assert.deepEqual(informer.list().map((o) => o.metadata?.name).sort(), ['a', 'b', 'c']);
  assert.deepEqual(errors, []);
});

test('watches with allowWatchBookmarks get BOOKMARK events carrying the current resourceVersion', async (t) => {
  const api = await startTestKubeApi(t, { bookmarkIntervalMs: 100 });
  const cm = await post(api, '/api/v1/namespaces/default/configmaps', { metadata: { name: 'a' } });
  const r = await rawWatch(api, `/api/v1/namespaces/default/configmaps?watch=1&allowWatchBookmarks=true&resourceVersion=${cm.metadata.resourceVersion}`, (e) => e.some((x) => x.type === 'BOOKMARK'));
  const bm = r.events.find((e) => e.type === 'BOOKMARK');
  assert.ok(bm);
  assert.equal(bm.object.kind, 'ConfigMap');
  assert.equal(bm.object.metadata?.resourceVersion, api.server.currentResourceVersion());
  // Without the parameter, no bookmarks.
  const none = await rawWatch(api, `/api/v1/namespaces/default/configmaps?watch=1&resourceVersion=${cm.metadata.resourceVersion}`, () => false, 400);
  assert.deepEqual(none.events, []);
});

test('timeoutSeconds ends a watch', async (t) => {
  const api = await startTestKubeApi(t);
  const start = Date.now();
  const r = await rawWatch(api, '/api/v1/namespaces/default/configmaps?watch=1&timeoutSeconds=1', () => false, 5000);
  assert.equal(r.ended, true);
  const took = Date.now() - start;
  assert.ok(took >= 900 && took < 3000, `took ${took} ms`);
});

test('label and field selectors on watch: leaving the selection is DELETED, entering is ADDED; pods by spec.nodeName', async (t) => {
  const api = await startTestKubeApi(t);
  const rv = api.server.currentResourceVersion();
  const eventsP = rawWatch(api, `/api/v1/namespaces/default/configmaps?watch=1&resourceVersion=${rv}&labelSelector=tier%3Dgold`, (e) => e.length >= 3);
  const podsP = rawWatch(api, `/api/v1/pods?watch=1&resourceVersion=${rv}&fieldSelector=spec.nodeName%3Dnode-a`, (e) => e.length >= 1);
  await new Promise((r) => setTimeout(r, 100));
  await post(api, '/api/v1/namespaces/default/configmaps', { metadata: { name: 'x', labels: { tier: 'gold' } } });
  const patch = async (tier: string): Promise<void> => {
    const res = await fetch(`${api.url}/api/v1/namespaces/default/configmaps/x`, { method: 'PATCH', body: JSON.stringify({ metadata: { labels: { tier } } }), headers: { 'content-type': 'application/merge-patch+json' } });
    assert.equal(res.status, 200);
  };
  await patch('silver');
  await patch('gold');
  await post(api, '/api/v1/namespaces/default/pods', { metadata: { name: 'p-b' }, spec: { nodeName: 'node-b', containers: [{ name: 'c', image: 'x' }] } });
  await post(api, '/api/v1/namespaces/default/pods', { metadata: { name: 'p-a' }, spec: { nodeName: 'node-a', containers: [{ name: 'c', image: 'x' }] } });
  const events = await eventsP;
  assert.deepEqual(events.events.map((e) => `${e.type} ${e.object.metadata?.name}`), ['ADDED x', 'DELETED x', 'ADDED x']);
  const pods = await podsP;
  assert.deepEqual(pods.events.map((e) => `${e.type} ${e.object.metadata?.name}`), ['ADDED p-a']);
});

test('stopServing refuses connections and ends watches; resumeServing serves the same state on the same port', async (t) => {
  const api = await startTestKubeApi(t);
  await post(api, '/api/v1/namespaces/default/configmaps', { metadata: { name: 'kept' } });
  const watching = rawWatch(api, '/api/v1/namespaces/default/configmaps?watch=1', () => false, 5000).catch((e: Error) => e);
  await waitFor(() => api.server.openWatches() === 1);
  await api.server.stopServing();
  const ended = await watching;
  assert.ok(ended instanceof Error || ended.events.length === 1);
  await assert.rejects(fetch(`${api.url}/version`, { signal: AbortSignal.timeout(2000) }));
  await api.server.resumeServing();
  const res = await fetch(`${api.url}/api/v1/namespaces/default/configmaps/kept`);
  assert.equal(res.status, 200);
});
