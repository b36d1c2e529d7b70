// The Kubernetes scraper end to end: two real agents of one group against the test API server
// (docs/guides/kubernetes-testing.md) elect one holder of the group's Lease; that one reads the
// Deployments, StatefulSets, ReplicaSets and Pods and exports their replicas, pod counts and
// container requests by remote write into a real Prometheus, once for the group.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestKubeApi } from './kube-api/index.js';
import { startAgent, until, type SluiceProcess } from './support/processes.js';
import { startPrometheus } from './support/prometheus.js';

const OBJECTS = [
  {
    apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'default' },
    spec: { replicas: 3, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'registry.example/web:1' }] } } },
  },
  {
    apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web-a', namespace: 'default', labels: { app: 'web' } },
    spec: { containers: [{ name: 'web', image: 'registry.example/web:1', resources: { requests: { cpu: '250m', memory: '64Mi' } } }] },
  },
];

interface ScraperStatus { enabled: boolean; leader: boolean; lease: string; reason?: string }

test('the agent holding the group\'s Lease exports orchestrator metrics; the other does not', { timeout: 240_000 }, async (t) => {
  const api = await startTestKubeApi(t);
  for (const o of OBJECTS) await api.kubectlOk(['apply', '-f', '-'], JSON.stringify(o));
  // The agents' own namespace, where the group's Lease lives.
  await api.kubectlOk(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'sluice-system' } }));
  const prom = await startPrometheus(t, [], 'nothing', { remoteWriteReceiver: true });
  const agents: SluiceProcess[] = [];
  for (const name of ['agent-a', 'agent-b']) {
    agents.push(await startAgent(t, {
      ready: 'live', startMs: 90_000,
      env: {
        KUBECONFIG: api.kubeconfig, POD_NAME: name, POD_NAMESPACE: 'sluice-system',
        SLUICE_AGENT_PROMETHEUS_ADDRESS: prom.address, SLUICE_AGENT_OTEL_EXPORT_INTERVAL: '1s', SLUICE_AGENT_AGENT_INFO_AGENT_GROUP: 'scraped',
      },
    }));
  }
  const statuses = async () => Promise.all(agents.map(async (a) => await (await fetch(`${a.base}/v1/telemetry/kubernetes-scraper`)).json() as ScraperStatus));
  await until(async () => (await statuses()).filter((s) => s.leader).length === 1, 30_000, 'one agent holds the scraper Lease')
    .catch(async (err: unknown) => { throw new Error(`${String(err)}: ${JSON.stringify(await statuses())}\n${agents[0].output().slice(-3000)}`); });
  const all = await statuses();
  assert.ok(all.every((s) => s.enabled && s.lease === 'sluice-system/sluice-kubernetes-scraper-scraped'), JSON.stringify(all));
  const leader = ['agent-a', 'agent-b'][all.findIndex((s) => s.leader)];
  const lease = JSON.parse(await api.kubectlOk(['get', 'lease', '-n', 'sluice-system', 'sluice-kubernetes-scraper-scraped', '-o', 'json'])) as { spec: { holderIdentity: string } };
  assert.equal(lease.spec.holderIdentity, leader);

  await until(async () => (await prom.query('k8s_deployment_desired{k8s_deployment_name="web",agent_group="scraped"}')) === 3, 30_000, 'desired replicas in Prometheus');
  const desired = await prom.series('k8s_deployment_desired{k8s_deployment_name="web"}');
  assert.equal(desired.length, 1, 'exported once for the group');
  assert.equal(desired[0].instance, leader);
  assert.equal(desired[0].k8s_namespace_name, 'default');
  assert.equal(await prom.query('k8s_deployment_ready{k8s_deployment_name="web"}'), 0, 'no controller runs here: nothing is ready');
  await until(async () => (await prom.query('k8s_container_cpu_request{k8s_pod_name="web-a",k8s_container_name="web"}')) === 0.25, 30_000, 'cpu request in Prometheus');
  assert.equal(await prom.query('k8s_container_memory_request{k8s_pod_name="web-a"}'), 64 * 2 ** 20);
  assert.equal(await prom.query('sum(k8s_pods{k8s_namespace_name="default"})'), 1);

  // Scaling the Deployment shows in the next scrape.
  await api.kubectlOk(['scale', 'deployment', 'web', '-n', 'default', '--replicas=5']);
  await until(async () => (await prom.query('k8s_deployment_desired{k8s_deployment_name="web"}')) === 5, 30_000, 'the new desired replicas');
});

test('otel.disable_kubernetes_scraper turns it off', { timeout: 120_000 }, async (t) => {
  const api = await startTestKubeApi(t);
  const agent = await startAgent(t, { ready: 'live', startMs: 90_000, env: { KUBECONFIG: api.kubeconfig, SLUICE_AGENT_OTEL_DISABLE_KUBERNETES_SCRAPER: 'true' } });
  const s = await (await fetch(`${agent.base}/v1/telemetry/kubernetes-scraper`)).json() as ScraperStatus;
  assert.deepEqual(s, { enabled: false, reason: 'otel.disable_kubernetes_scraper is true' });
  const leases = await api.kubectlOk(['get', 'leases', '-A', '-o', 'name']);
  assert.doesNotMatch(leases, /kubernetes-scraper/);
});
