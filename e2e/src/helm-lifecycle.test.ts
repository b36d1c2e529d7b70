// The real helm v3 against the test API server: `helm lint --strict` of both charts, then install
// of both charts into a namespace other than sluice-system under release names other than the
// defaults, upgrade with a changed value (the pods' config checksum changes, the webhook certificate
// is kept), rollback, and uninstall (every object of every kind the releases created is gone).
// Helm keeps its releases in Secrets sent as protobuf (HELM_DRIVER=configmap: ConfigMaps); the
// test API server stores objects only, so no pod runs.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isObj, type Obj } from './support/chart-checks.js';
import { AGENT_CHART, CONTROLLER_CHART, helmFor, renderedObjects, type Helm } from './support/helm.js';
import { startTestKubeApi, type TestKubeApi } from './kube-api/testing.js';

const NS = 'flow-ops';
const get = (o: unknown, ...path: string[]): unknown => path.reduce<unknown>((cur, k) => (isObj(cur) ? cur[k] : undefined), o);
const nameOf = (o: Obj): string => String(get(o, 'metadata', 'name'));

interface Served { group: string; version: string; resource: string; kind: string; namespaced: boolean }

/** Every resource the server serves, from its discovery documents (as helm and kubectl find them). */
async function served(api: TestKubeApi): Promise<Served[]> {
  const json = async (path: string): Promise<Obj> => (await (await fetch(`${api.url}${path}`, { signal: AbortSignal.timeout(10_000) })).json()) as Obj;
  const out: Served[] = [];
  const gvs = ['v1', ...((await json('/apis')).groups as Obj[]).flatMap((g) => (g.versions as Obj[]).map((v) => String(v.groupVersion)))];
  for (const gv of gvs) {
    const list = await json(gv === 'v1' ? '/api/v1' : `/apis/${gv}`);
    const [group, version] = gv.includes('/') ? gv.split('/') : ['', gv];
    for (const r of list.resources as Obj[]) {
      if (String(r.name).includes('/')) continue;
      out.push({ group, version, resource: String(r.name), kind: String(r.kind), namespaced: r.namespaced === true });
    }
  }
  return out;
}

/** The stored object of a manifest object (undefined when it is not stored). */
function stored(api: TestKubeApi, types: Served[], o: Obj): Obj | undefined {
  const [group, version] = String(o.apiVersion).includes('/') ? String(o.apiVersion).split('/') : ['', String(o.apiVersion)];
  const t = types.find((x) => x.group === group && x.version === version && x.kind === o.kind) ?? assert.fail(`the test API server does not serve ${String(o.apiVersion)} ${String(o.kind)}`);
  return api.server.objects(group, t.resource, t.namespaced ? NS : undefined).find((s) => s.metadata.name === nameOf(o)) as Obj | undefined;
}

async function manifest(helm: Helm, release: string): Promise<Obj[]> {
  return renderedObjects(await helm.ok(['get', 'manifest', release, '-n', NS]));
}

const releaseStore = (api: TestKubeApi, resource: 'secrets' | 'configmaps', release: string): Obj[] =>
  api.server.objects('', resource, NS).filter((o) => o.metadata.labels?.owner === 'helm' && o.metadata.labels?.name === release) as Obj[];

const checksum = (api: TestKubeApi, types: Served[], workload: Obj): string => {
  const s = stored(api, types, workload) ?? assert.fail(`${nameOf(workload)} is stored`);
  const v = get(s, 'spec', 'template', 'metadata', 'annotations', 'checksum/config');
  assert.equal(typeof v, 'string', `${nameOf(workload)} has a checksum/config annotation`);
  return v as string;
};

test('helm lint --strict passes for both charts', async () => {
  const helm = helmFor();
  try {
    for (const chart of [AGENT_CHART, CONTROLLER_CHART]) {
      const out = await helm.ok(['lint', '--strict', chart, '--namespace', NS]);
      assert.match(out, /1 chart\(s\) linted, 0 chart\(s\) failed/);
    }
  } finally {
    helm.close();
  }
});

test('helm install, upgrade, rollback and uninstall both charts in another namespace under other release names', async (t) => {
  const api = await startTestKubeApi(t);
  const helm = helmFor(api.kubeconfig);
  t.after(() => helm.close());
  const types = await served(api);
  const releases = [{ name: 'brain', chart: CONTROLLER_CHART, workload: 'Deployment' }, { name: 'edge', chart: AGENT_CHART, workload: 'DaemonSet' }];

  // install
  await helm.ok(['install', 'brain', CONTROLLER_CHART, '-n', NS, '--create-namespace']);
  await helm.ok(['install', 'edge', AGENT_CHART, '-n', NS]);
  const installed = new Map<string, Obj[]>();
  for (const r of releases) {
    const objs = await manifest(helm, r.name);
    installed.set(r.name, objs);
    assert.ok(objs.length >= 5, `${r.name} renders its objects`);
    for (const o of objs) {
      const s = stored(api, types, o) ?? assert.fail(`${r.name}: ${String(o.kind)} ${nameOf(o)} was created`);
      assert.equal(get(s, 'metadata', 'annotations', 'meta.helm.sh/release-name'), r.name, `${String(o.kind)} ${nameOf(o)} belongs to ${r.name}`);
      assert.equal(get(s, 'metadata', 'annotations', 'meta.helm.sh/release-namespace'), NS);
      if (get(o, 'metadata', 'namespace') !== undefined) assert.equal(get(o, 'metadata', 'namespace'), NS);
    }
    const [rel] = releaseStore(api, 'secrets', r.name);
    assert.equal(rel?.metadata && get(rel, 'metadata', 'labels', 'status'), 'deployed', `${r.name}: the release Secret says deployed`);
    assert.equal(get(rel, 'type'), 'helm.sh/release.v1');
  }
  assert.ok(api.server.objects('apiextensions.k8s.io', 'customresourcedefinitions').some((c) => c.metadata.name === 'policies.sluice.dev'), 'the chart\'s crds/ are installed');
  const list = JSON.parse(await helm.ok(['list', '-n', NS, '-o', 'json'])) as Obj[];
  assert.deepEqual(list.map((r) => [r.name, r.status, r.revision]).sort(), [['brain', 'deployed', '1'], ['edge', 'deployed', '1']]);

  const workloadOf = (name: string): Obj => {
    const r = releases.find((x) => x.name === name) ?? assert.fail(name);
    return (installed.get(name) ?? []).find((o) => o.kind === r.workload) ?? assert.fail(`${name} has a ${r.workload}`);
  };
  const before = { brain: checksum(api, types, workloadOf('brain')), edge: checksum(api, types, workloadOf('edge')) };
  const certOf = (): unknown => get(api.server.objects('', 'secrets', NS).find((s) => s.metadata.name === 'brain-sluice-controller-webhook-tls'), 'data', 'tls.crt');
  const cert = certOf();
  assert.equal(typeof cert, 'string', 'the webhook certificate Secret is stored');
  const keyOf = (): unknown => get(api.server.objects('', 'secrets', NS).find((s) => s.metadata.name === 'edge-sluice-agent-dist-cache-key'), 'data', 'keys');
  const keyAnnotation = (): unknown => get(stored(api, types, workloadOf('edge')), 'spec', 'template', 'metadata', 'annotations', 'checksum/dist-cache-key');
  const key = keyOf();
  assert.equal(typeof key, 'string', 'the agents\' group key Secret is stored');
  const keyChecksum = keyAnnotation();
  assert.match(String(keyChecksum), /^[0-9a-f]{64}$/);

  // upgrade with a changed value: the ConfigMap changes, so does the pods' checksum annotation
  for (const r of releases) await helm.ok(['upgrade', r.name, r.chart, '-n', NS, '--set', 'config.log.level=debug']);
  for (const r of releases) {
    const after = checksum(api, types, workloadOf(r.name));
    assert.notEqual(after, before[r.name as 'brain' | 'edge'], `${r.name}: the config checksum changes with the configuration`);
    const cm = api.server.objects('', 'configmaps', NS).find((c) => c.metadata.name === nameOf(workloadOf(r.name)));
    assert.match(Object.values((get(cm, 'data') ?? {}) as Record<string, string>).join('\n'), /level: debug/);
    assert.deepEqual(releaseStore(api, 'secrets', r.name).map((s) => get(s, 'metadata', 'labels', 'status')).sort(), ['deployed', 'superseded']);
  }
  assert.equal(certOf(), cert, 'the webhook certificate is kept across upgrades (lookup)');
  assert.equal(keyOf(), key, 'the group key is kept across upgrades (lookup)');
  assert.equal(keyAnnotation(), keyChecksum, 'so the key checksum is too');

  // rollback to revision 1: the first configuration and checksum again
  for (const r of releases) await helm.ok(['rollback', r.name, '1', '-n', NS]);
  for (const r of releases) assert.equal(checksum(api, types, workloadOf(r.name)), before[r.name as 'brain' | 'edge'], `${r.name}: rolled back`);
  assert.equal(keyOf(), key, 'a rollback keeps the group key');
  const history = JSON.parse(await helm.ok(['history', 'edge', '-n', NS, '-o', 'json'])) as Obj[];
  assert.deepEqual(history.map((h) => [h.revision, h.status]), [[1, 'superseded'], [2, 'superseded'], [3, 'deployed']]);

  // uninstall: every object each release created is gone, of every kind the server serves
  for (const r of releases) await helm.ok(['uninstall', r.name, '-n', NS]);
  for (const r of releases) {
    for (const o of installed.get(r.name) ?? []) assert.equal(stored(api, types, o), undefined, `${r.name}: ${String(o.kind)} ${nameOf(o)} is gone`);
    assert.deepEqual(releaseStore(api, 'secrets', r.name), [], `${r.name}: its release Secrets are gone`);
  }
  const left: string[] = [];
  for (const ty of types) {
    for (const o of api.server.objects(ty.group, ty.resource)) {
      const a = o.metadata.annotations ?? {};
      if (a['meta.helm.sh/release-namespace'] === NS || o.metadata.labels?.['app.kubernetes.io/managed-by'] === 'Helm' || o.metadata.labels?.owner === 'helm') left.push(`${ty.kind} ${o.metadata.name}`);
    }
  }
  assert.deepEqual(left, [], 'nothing of the releases is left');
  // Helm never deletes what it installed from a chart's crds/ directory (nor Policies along with it).
  assert.ok(api.server.objects('apiextensions.k8s.io', 'customresourcedefinitions').some((c) => c.metadata.name === 'policies.sluice.dev'));
});

test('HELM_DRIVER=configmap: a second agent group beside the first, kept in ConfigMaps (protobuf), upgraded and uninstalled', async (t) => {
  const api = await startTestKubeApi(t);
  const helm = helmFor(api.kubeconfig);
  t.after(() => helm.close());
  await helm.ok(['install', 'edge', AGENT_CHART, '-n', NS, '--create-namespace']);
  const first = (await manifest(helm, 'edge')).map((o) => `${String(o.kind)} ${nameOf(o)}`).sort();
  const env = { HELM_DRIVER: 'configmap' };
  // A second release of the agent chart in the same namespace: no object of the first is taken over.
  await helm.ok(['install', 'edge-b', AGENT_CHART, '-n', NS, '--set', 'config.agent_info.agent_group=group-b'], env);
  assert.deepEqual(releaseStore(api, 'configmaps', 'edge-b').map((c) => get(c, 'metadata', 'labels', 'status')), ['deployed']);
  assert.deepEqual(releaseStore(api, 'secrets', 'edge-b'), []);
  await helm.ok(['upgrade', 'edge-b', AGENT_CHART, '-n', NS, '--reuse-values', '--set', 'hostNetwork=true'], env);
  const ds = api.server.objects('apps', 'daemonsets', NS).find((d) => d.metadata.name === 'edge-b-sluice-agent');
  assert.equal(get(ds, 'spec', 'template', 'spec', 'hostNetwork'), true);
  assert.match(String(get(api.server.objects('', 'configmaps', NS).find((c) => c.metadata.name === 'edge-b-sluice-agent'), 'data', 'agent.yaml')), /agent_group: group-b/);
  await helm.ok(['uninstall', 'edge-b', '-n', NS], env);
  assert.deepEqual(releaseStore(api, 'configmaps', 'edge-b'), []);
  assert.deepEqual(api.server.objects('apps', 'daemonsets', NS).map((d) => d.metadata.name), ['edge-sluice-agent'], 'the first group is left as it was');
  const types = await served(api);
  const stillThere = (await manifest(helm, 'edge')).filter((o) => stored(api, types, o) !== undefined).map((o) => `${String(o.kind)} ${nameOf(o)}`).sort();
  assert.deepEqual(stillThere, first);
});
