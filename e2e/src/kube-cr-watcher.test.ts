// The Policy CR watcher of @sluice/kube against the test API server with the real CRD from
// crds/: statuses, Ready conditions and Events as kubectl shows them, deletes, a restart that
// reconciles, no write loop, name clashes across namespaces, the API away and 410 relists.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { KubeClient, PolicyCrWatcher, type PolicyApplyResult, type PolicySink } from '@sluice/kube';
import { startTestKubeApi, type TestKubeApi } from './kube-api/index.js';
import { ROOT } from './support/processes.js';

const CRD = join(ROOT, 'crds', 'policies.sluice.dev.yaml');

class FakeSink implements PolicySink {
  readonly held = new Map<string, unknown>();
  readonly calls: string[] = [];
  /** The dynamicConfig of each apply, in order. */
  readonly dynamic: unknown[] = [];
  constructor(private readonly extra: string[] = []) {
    for (const n of extra) this.held.set(n, {});
  }
  async apply(name: string, spec: unknown, dynamicConfig?: unknown): Promise<PolicyApplyResult> {
    this.calls.push(`apply ${name}`);
    this.dynamic.push(dynamicConfig);
    // Specs that the CRD's schema lets through; the interval says what the fake compiler answers.
    const interval = (spec as { circuit?: { evaluation_interval?: string } } | null)?.circuit?.evaluation_interval;
    if (interval === 'bad') return { ok: false, message: 'spec.circuit.evaluation_interval: negative capacity' };
    this.held.set(name, spec);
    return { ok: true, hash: `h${JSON.stringify(spec).length}`, ignored: interval === '1m' ? ['spec.resources.infra_meters'] : [] };
  }
  async remove(name: string): Promise<void> {
    this.calls.push(`remove ${name}`);
    this.held.delete(name);
  }
  async names(): Promise<string[]> {
    return [...this.held.keys()];
  }
}

async function waitFor(cond: () => boolean | Promise<boolean>, ms = 8000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}

interface Pol { metadata: { generation: number; resourceVersion: string }; status?: { status?: string; message?: string; observedGeneration?: number; hash?: string; conditions?: { type: string; status: string; reason: string; observedGeneration: number }[] } }

async function getPolicy(api: TestKubeApi, name: string, ns = 'default'): Promise<Pol | undefined> {
  const r = await fetch(`${api.url}/apis/sluice.dev/v1alpha1/namespaces/${ns}/policies/${name}`);
  return r.status === 200 ? ((await r.json()) as Pol) : undefined;
}

async function kubectlOk(api: TestKubeApi, args: string[], input?: string): Promise<string> {
  const r = await api.kubectl(args, input);
  assert.equal(r.code, 0, r.stderr);
  return r.stdout;
}

const policyYaml = (name: string, spec: Record<string, unknown>, ns = 'default'): string => JSON.stringify({ apiVersion: 'sluice.dev/v1alpha1', kind: 'Policy', metadata: { name, namespace: ns }, spec });

async function setup(t: TestContext, sink: PolicySink): Promise<{ api: TestKubeApi; client: KubeClient; watcher: PolicyCrWatcher }> {
  const api = await startTestKubeApi(t);
  await kubectlOk(api, ['apply', '-f', CRD]);
  const { client, watcher } = startWatcher(t, api, sink);
  return { api, client, watcher };
}

function startWatcher(t: TestContext, api: TestKubeApi, sink: PolicySink): { client: KubeClient; watcher: PolicyCrWatcher } {
  const client = KubeClient.load({ env: { KUBECONFIG: api.kubeconfig } }, { backoff: { base_delay: '100ms', max_delay: '500ms' } });
  const watcher = new PolicyCrWatcher({ client, sink, instance: 'test', backoff: { base_delay: '100ms', max_delay: '500ms' } });
  watcher.start();
  client.start();
  t.after(async () => {
    await watcher.shutdown();
    await client.shutdown();
  });
  return { client, watcher };
}

test('a valid Policy is applied to the sink, its status becomes uploaded with a Ready condition, and a PolicyUploaded Event is recorded', async (t) => {
  const sink = new FakeSink();
  const { api, client, watcher } = await setup(t, sink);
  await kubectlOk(api, ['apply', '-f', '-'], policyYaml('limit', { circuit: { components: [] } }));
  await waitFor(async () => (await getPolicy(api, 'limit'))?.status?.status === 'uploaded');
  const p = (await getPolicy(api, 'limit'))!;
  assert.equal(p.status?.observedGeneration, 1);
  assert.deepEqual(p.status?.conditions?.map((c) => [c.type, c.status, c.reason, c.observedGeneration]), [['Ready', 'True', 'PolicyUploaded', 1]]);
  assert.deepEqual(sink.calls, ['apply limit']);
  assert.match(await kubectlOk(api, ['get', 'policies']), /^limit\s+uploaded\s+\d+s/m);
  await waitFor(async () => /PolicyUploaded/.test(await kubectlOk(api, ['get', 'events', '--field-selector', 'involvedObject.name=limit,reason=PolicyUploaded'])));
  const ev = JSON.parse(await kubectlOk(api, ['get', 'events', '-o', 'json'])) as { items: { type: string; reason: string; involvedObject: { kind: string; uid: string } }[] };
  assert.equal(ev.items.length, 1);
  assert.equal(ev.items[0].type, 'Normal');
  assert.equal(ev.items[0].involvedObject.kind, 'Policy');
  assert.equal(client.state(), 'connected');
  const ready = await client.readinessJob().run(new AbortController().signal);
  assert.deepEqual(ready && { healthy: ready.healthy, state: ready.details?.state }, { healthy: true, state: 'connected' });
  assert.equal(watcher.stats().applies, 1);
});

test('a Policy\'s top-level dynamicConfig reaches the sink; a change of it alone is applied again', async (t) => {
  const sink = new FakeSink();
  const { api } = await setup(t, sink);
  const withDynamic = (value: number): string => JSON.stringify({ ...JSON.parse(policyYaml('dyn', { circuit: { components: [] } })) as object, dynamicConfig: { capacity: value, nested: { on: true } } });
  await kubectlOk(api, ['apply', '-f', '-'], withDynamic(3));
  await waitFor(async () => (await getPolicy(api, 'dyn'))?.status?.status === 'uploaded');
  assert.deepEqual(sink.dynamic, [{ capacity: 3, nested: { on: true } }]);
  await kubectlOk(api, ['apply', '-f', '-'], withDynamic(4));
  await waitFor(() => sink.dynamic.length === 2);
  assert.deepEqual(sink.dynamic[1], { capacity: 4, nested: { on: true } });
  assert.deepEqual(sink.calls, ['apply dyn', 'apply dyn']);
});

test('a Policy the sink refuses is failed with the message, Ready False, a Warning Event; fixing it uploads it', async (t) => {
  const sink = new FakeSink();
  const { api } = await setup(t, sink);
  await kubectlOk(api, ['apply', '-f', '-'], policyYaml('broken', { circuit: { evaluation_interval: 'bad' } }));
  await waitFor(async () => (await getPolicy(api, 'broken'))?.status?.status === 'failed');
  const p = (await getPolicy(api, 'broken'))!;
  assert.equal(p.status?.message, 'spec.circuit.evaluation_interval: negative capacity');
  assert.deepEqual(p.status?.conditions?.map((c) => [c.status, c.reason]), [['False', 'PolicyFailed']]);
  assert.match(await kubectlOk(api, ['get', 'policies', '-o', 'wide']), /^broken\s+failed\s+spec\.circuit\.evaluation_interval: negative capacity/m);
  await waitFor(async () => /Warning\s+PolicyFailed/.test(await kubectlOk(api, ['get', 'events'])));
  await kubectlOk(api, ['apply', '-f', '-'], policyYaml('broken', { circuit: { evaluation_interval: '1m' } }));
  await waitFor(async () => (await getPolicy(api, 'broken'))?.status?.status === 'uploaded');
  const fixed = (await getPolicy(api, 'broken'))!;
  assert.equal(fixed.status?.observedGeneration, 2);
  assert.equal(fixed.status?.message, 'ignored: spec.resources.infra_meters');
});

test('the watcher does not loop on its own status writes, and a status-only change does not re-apply', async (t) => {
  const sink = new FakeSink();
  const { api, watcher } = await setup(t, sink);
  await kubectlOk(api, ['apply', '-f', '-'], policyYaml('quiet', { circuit: {} }));
  await waitFor(async () => (await getPolicy(api, 'quiet'))?.status?.status === 'uploaded');
  await watcher.idle();
  const rv = api.server.currentResourceVersion();
  const writes = watcher.stats().statusWrites;
  await new Promise((r) => setTimeout(r, 700));
  await watcher.idle();
  assert.equal(api.server.currentResourceVersion(), rv, 'nothing was written after the outcome settled');
  assert.equal(watcher.stats().statusWrites, writes);
  assert.deepEqual(sink.calls, ['apply quiet']);
  // Someone overwrites the status: the watcher puts it back without applying again.
  await fetch(`${api.url}/apis/sluice.dev/v1alpha1/namespaces/default/policies/quiet/status`, { method: 'PATCH', body: JSON.stringify({ status: { status: 'failed' } }), headers: { 'content-type': 'application/merge-patch+json' } });
  await waitFor(async () => (await getPolicy(api, 'quiet'))?.status?.status === 'uploaded');
  assert.deepEqual(sink.calls, ['apply quiet']);
});

test('deleting a Policy removes it from the sink; a restarted watcher removes sink entries whose Policy is gone and re-applies the others without new Events', async (t) => {
  const sink = new FakeSink();
  const api = await startTestKubeApi(t);
  await kubectlOk(api, ['apply', '-f', CRD]);
  const first = startWatcher(t, api, sink);
  await kubectlOk(api, ['apply', '-f', '-'], policyYaml('keep', { circuit: {} }));
  await kubectlOk(api, ['apply', '-f', '-'], policyYaml('drop', { circuit: {} }));
  await waitFor(async () => (await getPolicy(api, 'drop'))?.status?.status === 'uploaded' && (await getPolicy(api, 'keep'))?.status?.status === 'uploaded');
  await kubectlOk(api, ['delete', 'policy', 'drop']);
  await waitFor(() => sink.calls.includes('remove drop'));
  assert.deepEqual([...sink.held.keys()].sort(), ['keep']);
  await first.watcher.shutdown();
  await first.client.shutdown();
  const events = (JSON.parse(await kubectlOk(api, ['get', 'events', '-o', 'json'])) as { items: unknown[] }).items.length;
  // A sink that also holds a policy from a custom resource deleted while no watcher ran.
  const restarted = new FakeSink(['stale']);
  const second = startWatcher(t, api, restarted);
  await waitFor(() => restarted.calls.includes('apply keep') && restarted.calls.includes('remove stale'));
  await second.watcher.idle();
  assert.deepEqual([...restarted.held.keys()].sort(), ['keep']);
  const after = api.server.objects('', 'events');
  assert.equal(after.length, events, `the same outcome records no new Event: ${JSON.stringify(after.map((e) => [e.metadata.name, e.reason, e.message]))}`);
});

test('two Policies of the same name in two namespaces: the second is failed with a message naming the first', async (t) => {
  const sink = new FakeSink();
  const { api } = await setup(t, sink);
  await kubectlOk(api, ['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-b' } }));
  await kubectlOk(api, ['apply', '-f', '-'], policyYaml('shared', { circuit: {} }));
  await waitFor(async () => (await getPolicy(api, 'shared'))?.status?.status === 'uploaded');
  await kubectlOk(api, ['apply', '-f', '-'], policyYaml('shared', { circuit: { evaluation_interval: '2s' } }, 'team-b'));
  await waitFor(async () => (await getPolicy(api, 'shared', 'team-b'))?.status?.status === 'failed');
  assert.match((await getPolicy(api, 'shared', 'team-b'))!.status!.message!, /already applied from namespace "default"/);
  assert.deepEqual(sink.held.get('shared'), { circuit: {} });
});

test('the API away: readiness says unavailable (still healthy), the sink keeps its policies, and changes after the API returns are caught up; a 410 relist keeps the state', async (t) => {
  const sink = new FakeSink();
  const { api, client, watcher } = await setup(t, sink);
  await kubectlOk(api, ['apply', '-f', '-'], policyYaml('steady', { circuit: {} }));
  await waitFor(async () => (await getPolicy(api, 'steady'))?.status?.status === 'uploaded');
  await api.server.stopServing();
  await waitFor(() => client.state() === 'unavailable');
  const r = await client.readinessJob().run(new AbortController().signal);
  assert.equal(r?.healthy, true);
  assert.equal(r?.details?.state, 'unavailable');
  assert.equal((await client.readinessJob({ failWhenUnavailable: true }).run(new AbortController().signal))?.healthy, false);
  await new Promise((res) => setTimeout(res, 300));
  assert.deepEqual([...sink.held.keys()], ['steady'], 'nothing removed while the API is away');
  await api.server.resumeServing();
  await waitFor(() => client.state() === 'connected');
  await kubectlOk(api, ['apply', '-f', '-'], policyYaml('later', { circuit: {} }));
  await waitFor(async () => (await getPolicy(api, 'later'))?.status?.status === 'uploaded');
  await kubectlOk(api, ['delete', 'policy', 'steady']);
  await waitFor(() => !sink.held.has('steady'));
  // Force a 410: the informer relists and nothing changes in the sink.
  const appliesBefore = watcher.stats().applies;
  api.server.dropWatches();
  api.server.expireHistory();
  await waitFor(() => api.server.openWatches() === 1);
  await watcher.idle();
  assert.deepEqual([...sink.held.keys()], ['later']);
  assert.equal(watcher.stats().applies, appliesBefore);
});

test('a sink that throws is retried with backoff: the Policy shows uploading meanwhile, then the outcome', async (t) => {
  const inner = new FakeSink();
  // The sink fails until the test has seen the Policy's `uploading` status (so the check cannot miss a short window).
  let failures = 0;
  let busy = true;
  const flaky: PolicySink = {
    apply: async (name, spec) => {
      if (busy) {
        failures++;
        throw new Error('registry busy');
      }
      return inner.apply(name, spec);
    },
    remove: (name) => inner.remove(name),
  };
  const { api, watcher } = await setup(t, flaky);
  await kubectlOk(api, ['apply', '-f', '-'], policyYaml('flaky', { circuit: {} }));
  await waitFor(async () => (await getPolicy(api, 'flaky'))?.status?.status === 'uploading');
  await waitFor(async () => failures >= 2);
  busy = false;
  await waitFor(async () => (await getPolicy(api, 'flaky'))?.status?.status === 'uploaded');
  assert.equal(watcher.stats().errors, failures, 'every failed apply is counted and retried');
  assert.deepEqual(inner.calls, ['apply flaky']);
});

test('a watcher started before the CRD says so in readiness, and uploads Policies once the CRD is applied', async (t) => {
  const sink = new FakeSink();
  const api = await startTestKubeApi(t);
  const { client } = startWatcher(t, api, sink);
  await waitFor(() => client.state() === 'unavailable');
  const r = await client.readinessJob().run(new AbortController().signal);
  assert.match(String(r?.message), /HTTP 404: \/apis\/sluice\.dev\/v1alpha1\/policies is not served \(is its CustomResourceDefinition installed\?\)/);
  assert.doesNotMatch(String(r?.message), /Headers/);
  await kubectlOk(api, ['apply', '-f', CRD]);
  await kubectlOk(api, ['apply', '-f', '-'], policyYaml('early', { circuit: {} }));
  await waitFor(async () => (await getPolicy(api, 'early'))?.status?.status === 'uploaded', 15_000);
  assert.equal(client.state(), 'connected');
});

test('the sink hears listed() once, after every resource of the first complete list was applied', async (t) => {
  const api = await startTestKubeApi(t);
  await kubectlOk(api, ['apply', '-f', CRD]);
  await kubectlOk(api, ['apply', '-f', '-'], policyYaml('one', { circuit: { components: [] } }));
  await kubectlOk(api, ['apply', '-f', '-'], policyYaml('two', { circuit: { components: [] } }));
  const sink = new FakeSink(['gone']);
  const listed = Object.assign(sink, { listed: () => { sink.calls.push('listed'); } });
  startWatcher(t, api, listed);
  await waitFor(() => sink.calls.includes('listed'));
  const at = sink.calls.indexOf('listed');
  assert.deepEqual(sink.calls.slice(0, at).sort(), ['apply one', 'apply two', 'remove gone'], 'every resource applied (and the gone one removed) before');
  await kubectlOk(api, ['apply', '-f', '-'], policyYaml('three', { circuit: { components: [] } }));
  await waitFor(() => sink.calls.includes('apply three'));
  assert.equal(sink.calls.filter((c) => c === 'listed').length, 1, 'once');
});
