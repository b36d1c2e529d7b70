import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { LeaseApi, LeaseRecord } from '../scale/lease-holder.js';
import { clusterPoints, type ClusterObjects } from './cluster-metrics.js';
import { KubernetesScraper, scraperLeaseName, type ClusterLister } from './kubernetes-scraper.js';
import { parseQuantity } from './quantity.js';

test('parseQuantity reads CPU and memory quantities', () => {
  assert.equal(parseQuantity('100m'), 0.1);
  assert.equal(parseQuantity('2'), 2);
  assert.equal(parseQuantity('0.5'), 0.5);
  assert.equal(parseQuantity('128Mi'), 128 * 2 ** 20);
  assert.equal(parseQuantity('1G'), 1e9);
  assert.equal(parseQuantity('1e3'), 1000);
  assert.equal(parseQuantity('500k'), 500_000);
  for (const bad of ['', 'lots', '1Zi', '--1', undefined, {}]) assert.equal(parseQuantity(bad), undefined, String(bad));
});

const OBJECTS: ClusterObjects = {
  deployments: [
    { metadata: { name: 'web', namespace: 'shop' }, spec: { replicas: 3 }, status: { readyReplicas: 2, availableReplicas: 1 } },
    { metadata: { name: 'fresh', namespace: 'shop' }, spec: {}, status: {} },
    { metadata: {}, spec: { replicas: 9 } },
  ],
  statefulsets: [{ metadata: { name: 'db', namespace: 'data' }, spec: { replicas: 2 }, status: { readyReplicas: 2, availableReplicas: 2 } }],
  replicasets: [{ metadata: { name: 'web-1', namespace: 'shop' }, spec: { replicas: 3 }, status: { readyReplicas: 3 } }],
  pods: [
    { metadata: { name: 'web-1-a', namespace: 'shop' }, status: { phase: 'Running' }, spec: { containers: [{ name: 'app', resources: { requests: { cpu: '250m', memory: '64Mi' } } }, { name: 'tap', resources: {} }] } },
    { metadata: { name: 'web-1-b', namespace: 'shop' }, status: { phase: 'Pending' }, spec: { containers: [] } },
    { metadata: { name: 'odd', namespace: 'shop' }, status: { phase: 'Weird' } },
  ],
};

test('clusterPoints: replicas per workload, pods per phase, container requests', () => {
  const pts = clusterPoints(OBJECTS);
  const v = (metric: string, attrs: Record<string, string>) => pts.find((p) => p.metric === metric && Object.entries(attrs).every(([k, x]) => p.attributes[k] === x))?.value;
  assert.equal(v('k8s_deployment_desired', { k8s_deployment_name: 'web' }), 3);
  assert.equal(v('k8s_deployment_ready', { k8s_deployment_name: 'web' }), 2);
  assert.equal(v('k8s_deployment_available', { k8s_deployment_name: 'web', k8s_namespace_name: 'shop' }), 1);
  assert.equal(v('k8s_deployment_desired', { k8s_deployment_name: 'fresh' }), 1, 'spec.replicas unset means 1');
  assert.equal(v('k8s_deployment_ready', { k8s_deployment_name: 'fresh' }), 0);
  assert.equal(pts.filter((p) => p.metric === 'k8s_deployment_desired').length, 2, 'an object without a name is skipped');
  assert.equal(v('k8s_statefulset_ready', { k8s_statefulset_name: 'db' }), 2);
  assert.equal(v('k8s_replicaset_available', { k8s_replicaset_name: 'web-1' }), 0);
  assert.equal(v('k8s_pods', { k8s_namespace_name: 'shop', phase: 'Running' }), 1);
  assert.equal(v('k8s_pods', { k8s_namespace_name: 'shop', phase: 'Pending' }), 1);
  assert.equal(v('k8s_pods', { k8s_namespace_name: 'shop', phase: 'Unknown' }), 1);
  assert.equal(v('k8s_pods', { k8s_namespace_name: 'shop', phase: 'Failed' }), 0);
  assert.equal(v('k8s_container_cpu_request', { k8s_pod_name: 'web-1-a', k8s_container_name: 'app' }), 0.25);
  assert.equal(v('k8s_container_memory_request', { k8s_container_name: 'app' }), 64 * 2 ** 20);
  assert.equal(v('k8s_container_cpu_request', { k8s_container_name: 'tap' }), undefined, 'no request, no point');
});

test('scraperLeaseName is a DNS subdomain per group', () => {
  assert.equal(scraperLeaseName('default'), 'sluice-kubernetes-scraper-default');
  assert.equal(scraperLeaseName('Team_A/x'), 'sluice-kubernetes-scraper-team-a-x');
});

/** Leases in memory with the API's optimistic concurrency. */
function memoryLeases(): LeaseApi {
  const store = new Map<string, LeaseRecord & { rv: number }>();
  return {
    async read(ns, name) {
      const r = store.get(`${ns}/${name}`);
      return r === undefined ? undefined : { ...r, resourceVersion: String(r.rv) };
    },
    async write(ns, name, rec) {
      const k = `${ns}/${name}`;
      const cur = store.get(k);
      if ((cur === undefined) !== (rec.resourceVersion === undefined)) return false;
      if (cur !== undefined && String(cur.rv) !== rec.resourceVersion) return false;
      store.set(k, { ...rec, rv: (cur?.rv ?? 0) + 1 });
      return true;
    },
  };
}

test('only the agent holding the group\'s Lease exports; another takes over when it stops renewing', async () => {
  const leases = memoryLeases();
  let now = 1_000_000;
  let lists = 0;
  const lister: ClusterLister = { async list() { lists++; return OBJECTS; } };
  const make = (identity: string) => new KubernetesScraper({ leases, lister, leaseNamespace: 'sluice', leaseName: 'l', identity, intervalMs: 1000, leaseDurationS: 15, now: () => now });
  const a = make('a');
  const b = make('b');
  await a.tick();
  await b.tick();
  assert.equal(a.leader, true);
  assert.equal(b.leader, false);
  assert.ok(a.points().length > 0);
  assert.deepEqual(b.points(), []);
  assert.equal(lists, 1, 'the other agent does not read the objects');
  now += 10_000;
  await a.tick();
  await b.tick();
  assert.equal(b.leader, false, 'renewed in time');
  now += 16_000;
  await b.tick();
  assert.equal(b.leader, true, 'a stopped renewing: b takes over');
  await a.tick();
  assert.equal(a.leader, false);
  assert.deepEqual(a.points(), []);
});

test('a failing list keeps the last points and reports the error', async () => {
  let fail = false;
  const s = new KubernetesScraper({
    leases: memoryLeases(), leaseNamespace: 'n', leaseName: 'l', identity: 'a', intervalMs: 1000, leaseDurationS: 15,
    lister: { async list() { if (fail) throw new Error('forbidden'); return OBJECTS; } },
  });
  await s.tick();
  const n = s.points().length;
  fail = true;
  await s.tick();
  assert.equal(s.points().length, n);
  assert.equal(s.status().last_error, 'forbidden');
});
