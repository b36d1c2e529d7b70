// The pod scaler end to end: a policy posted to the real controller (real etcd) drives
// auto_scale.pod_scaler from a variable through a threshold; two real agents with the test API
// server's kubeconfig elect one writer through a Lease, and it changes the Deployment's /scale;
// the writer reports the replicas back (etcd, on its lease) and the controller's circuit shows
// them as the pod scaler's out-port signals.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestKubeApi } from './kube-api/index.js';
import { endpointsJson, startEtcd } from './support/etcd.js';
import { startAgent, startController, until, type SluiceProcess } from './support/processes.js';

const DEPLOYMENT = {
  apiVersion: 'apps/v1', kind: 'Deployment',
  metadata: { name: 'web', namespace: 'default' },
  spec: {
    replicas: 1,
    selector: { matchLabels: { app: 'web' } },
    template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'registry.example/web:1' }] } },
  },
};

/** load > 10 → 4 replicas, else 1: a decider and a switcher in front of the pod scaler. */
const POLICY = {
  circuit: {
    evaluation_interval: '200ms',
    components: [
      { variable: { constant_output: { value: 0 }, out_ports: { output: { signal_name: 'load' } } } },
      { decider: { operator: 'gt', in_ports: { lhs: { signal_name: 'load' }, rhs: { constant_signal: { value: 10 } } }, out_ports: { output: { signal_name: 'overloaded' } } } },
      { switcher: { in_ports: { on_signal: { constant_signal: { value: 4 } }, off_signal: { constant_signal: { value: 1 } }, switch: { signal_name: 'overloaded' } }, out_ports: { output: { signal_name: 'want' } } } },
      {
        auto_scale: {
          pod_scaler: {
            kubernetes_object_selector: { namespace: 'default', api_version: 'apps/v1', kind: 'Deployment', name: 'web' },
            in_ports: { replicas: { signal_name: 'want' } },
            out_ports: { actual_replicas: { signal_name: 'running' }, configured_replicas: { signal_name: 'configured' }, desired_replicas: { signal_name: 'steering' } },
            min_replicas: 1, max_replicas: 6, scale_out_cooldown: '0s', scale_in_cooldown: '0s',
          },
        },
      },
    ],
  },
};

interface PolicyView { signals: Record<string, number | null> }

interface ScalerStatus { enabled: boolean; pod_scalers: { leader: boolean; desired: number | null; configured: number | null; last_error: string | null }[] }

async function json<T>(url: string, init?: RequestInit): Promise<{ status: number; body: T }> {
  const r = await fetch(url, init);
  return { status: r.status, body: await r.json() as T };
}

test('a signal crossing its threshold scales the Deployment through /scale, written by the one agent holding its Lease', async (t) => {
  const api = await startTestKubeApi(t);
  const kubectl = api.kubectlOk;
  await kubectl(['apply', '-f', '-'], JSON.stringify(DEPLOYMENT));
  const replicas = async () => Number(await kubectl(['get', 'deployment', 'web', '-n', 'default', '-o', 'jsonpath={.spec.replicas}']));
  const etcd = await startEtcd(t);
  const endpoints = endpointsJson(etcd);
  const controller = await startController(t, { startMs: 60_000, env: { SLUICE_CONTROLLER_ETCD_ENDPOINTS: endpoints, SLUICE_CONTROLLER_PROMETHEUS_ADDRESS: '127.0.0.1:9' } });
  const agents: SluiceProcess[] = [];
  // A short etcd lease: a killed agent's report goes within seconds (the default is 60 s).
  for (const name of ['agent-a', 'agent-b']) {
    agents.push(await startAgent(t, { startMs: 60_000, env: { SLUICE_AGENT_ETCD_ENDPOINTS: endpoints, SLUICE_AGENT_ETCD_LEASE_TTL: '5s', KUBECONFIG: api.kubeconfig, POD_NAME: name } }));
  }
  const signals = async () => (await json<PolicyView>(`${controller.base}/v1/policies/scale-web`)).body.signals;
  const replicaSignals = async () => { const s = await signals(); return [s.running, s.configured, s.steering]; };
  const reportsInEtcd = async () => {
    const r = await fetch(`${etcd.endpoint}/v3/kv/range`, { method: 'POST', body: JSON.stringify({ key: Buffer.from('sluice/reports/').toString('base64'), range_end: Buffer.from('sluice/reports0').toString('base64') }) });
    const body = await r.json() as { kvs?: { key: string }[] };
    return (body.kvs ?? []).map((kv) => Buffer.from(kv.key, 'base64').toString());
  };

  const post = await json(`${controller.base}/v1/policies/scale-web`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ policy: POLICY }) });
  assert.equal(post.status, 200, JSON.stringify(post.body));
  // Below the threshold the desired replicas are 1, as configured: one agent leads, nothing is written.
  const statuses = async () => Promise.all(agents.map(async (a) => (await json<ScalerStatus>(`${a.base}/v1/autoscale/pod-scalers`)).body));
  await until(async () => (await statuses()).flatMap((s) => s.pod_scalers).filter((p) => p.leader && p.configured === 1 && p.desired === 1).length === 1, 20_000, 'one leader sees 1 replica');
  assert.equal(await replicas(), 1);
  // The pod scaler follows enforcement's watches: each published prefix is read once per agent (a
  // second watch of the same keys would read it again).
  for (const a of agents) {
    const m = await (await fetch(`${a.base}/metrics`)).text();
    for (const prefix of ['sluice/config/default/', 'sluice/decisions/default/']) {
      assert.match(m, new RegExp(`^etcd_client_watch_resyncs_total\\{prefix="${prefix}"\\} 1$`, 'm'), `${a.base}: one read of ${prefix}`);
    }
  }
  // The leader reports what /scale says (no status yet: 0 running) and the circuit shows it.
  await until(async () => JSON.stringify(await replicaSignals()) === '[0,1,1]', 20_000, 'the controller shows the reported replicas (running 0, configured 1, steering 1)');

  const crossed = Date.now();
  const set = await json(`${controller.base}/v1/policies/scale-web/variables/load`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ value: 50 }) });
  assert.equal(set.status, 200);
  await until(async () => (await replicas()) === 4, 20_000, '/scale set to 4');
  t.diagnostic(`threshold crossed → /scale written in ${Date.now() - crossed} ms`);
  const all = await statuses();
  const leaders = all.flatMap((s, i) => s.pod_scalers.filter((p) => p.leader).map(() => i));
  assert.equal(leaders.length, 1, 'one writer');
  assert.ok(all.every((s) => s.enabled && s.pod_scalers.length === 1));
  const lease = JSON.parse(await kubectl(['get', 'lease', '-n', 'default', 'sluice-pod-scaler-deployment-web', '-o', 'json'])) as { spec: { holderIdentity: string } };
  assert.equal(lease.spec.holderIdentity, ['agent-a', 'agent-b'][leaders[0]]);
  const metrics = await (await fetch(`${agents[leaders[0]].base}/metrics`)).text();
  assert.match(metrics, /pod_scaler_replicas\{[^}]*name="web",type="configured"\} 4/);
  assert.match(metrics, /pod_scaler_actions_total\{[^}]*direction="out",result="written"\} 1/);
  // The feedback: configured 4 from the leader's write; the pods "start" (status.replicas, as the
  // Deployment controller would set it) and the controller's circuit sees them running.
  await until(async () => JSON.stringify(await replicaSignals()) === '[0,4,4]', 20_000, 'the controller shows configured 4');
  await kubectl(['patch', 'deployment', 'web', '-n', 'default', '--subresource=status', '--type=merge', '-p', JSON.stringify({ status: { replicas: 4 } })]);
  const started = Date.now();
  await until(async () => JSON.stringify(await replicaSignals()) === '[4,4,4]', 20_000, 'the controller shows 4 running');
  t.diagnostic(`status.replicas changed → circuit signal in ${Date.now() - started} ms (the scaler reads /scale every 5 s)`);
  // Steady: the leader reads /scale every 5 s but writes its report only on change.
  const leasedPuts = async () => Number(/^etcd_client_puts_total\{kind="leased"\} (\d+)/m.exec(await (await fetch(`${agents[leaders[0]].base}/metrics`)).text())?.[1] ?? NaN);
  const putsBefore = await leasedPuts();
  await new Promise((r) => setTimeout(r, 6000));
  assert.equal(await leasedPuts(), putsBefore, 'no etcd write while nothing changes');
  const keys = await reportsInEtcd();
  assert.deepEqual(keys, [`sluice/reports/default/scale-web/root.3/${['agent-a', 'agent-b'][leaders[0]]}`], 'one report, the leader\'s');
  const enforced = (await json<{ components: { kind: string; decision: unknown }[] }>(`${agents[0].base}/v1/policies/enforced`)).body;
  assert.deepEqual(enforced.components.map((c) => [c.kind, c.decision]), [['pod_scaler', { kind: 'pod_scaler', replicas: 4 }]]);

  // Back under the threshold: scaled in to 1.
  await json(`${controller.base}/v1/policies/scale-web/variables/load`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ value: 0 }) });
  await until(async () => (await replicas()) === 1, 20_000, '/scale back to 1');

  // The leader gone, the other agent takes over after the Lease duration (15 s) and scales.
  const leader = agents[leaders[0]];
  leader.child.kill('SIGKILL');
  await leader.exited;
  await json(`${controller.base}/v1/policies/scale-web/variables/load`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ value: 99 }) });
  await until(async () => (await replicas()) === 4, 40_000, 'the other agent scales after taking the Lease over');
  const after = JSON.parse(await kubectl(['get', 'lease', '-n', 'default', 'sluice-pod-scaler-deployment-web', '-o', 'json'])) as { spec: { holderIdentity: string } };
  assert.notEqual(after.spec.holderIdentity, lease.spec.holderIdentity);
  // The killed leader's report went with its etcd lease; the new holder's is the one shown.
  await until(async () => (await signals()).configured === 4, 20_000, 'the new holder\'s report shown');
  await until(async () => JSON.stringify(await reportsInEtcd()) === JSON.stringify([`sluice/reports/default/scale-web/root.3/${after.spec.holderIdentity}`]), 20_000, 'only the new holder\'s report');

  // The last agent stopped: its lease is revoked, its report gone, and the signals are invalid.
  const last = agents.find((a) => a !== leader)!;
  last.child.kill('SIGTERM');
  await last.exited;
  await until(async () => JSON.stringify(await replicaSignals()) === '[null,null,null]', 20_000, 'the signals invalid once no agent reports');
  assert.deepEqual(await reportsInEtcd(), []);
});

test('auto_scale.kubernetes.enabled false: the agent lists the pod scaler as off and writes nothing', async (t) => {
  const api = await startTestKubeApi(t);
  await api.kubectl(['apply', '-f', '-'], JSON.stringify(DEPLOYMENT));
  const etcd = await startEtcd(t);
  const endpoints = endpointsJson(etcd);
  const controller = await startController(t, { startMs: 60_000, env: { SLUICE_CONTROLLER_ETCD_ENDPOINTS: endpoints, SLUICE_CONTROLLER_PROMETHEUS_ADDRESS: '127.0.0.1:9' } });
  // The Kubernetes scraper (a Lease of its own) off too: no Lease at all is expected below.
  const agent = await startAgent(t, { startMs: 60_000, env: { SLUICE_AGENT_ETCD_ENDPOINTS: endpoints, KUBECONFIG: api.kubeconfig, SLUICE_AGENT_AUTO_SCALE_KUBERNETES_ENABLED: 'false', SLUICE_AGENT_OTEL_DISABLE_KUBERNETES_SCRAPER: 'true' } });
  const policy = structuredClone(POLICY);
  policy.circuit.components[0] = { variable: { constant_output: { value: 50 }, out_ports: { output: { signal_name: 'load' } } } };
  const post = await json(`${controller.base}/v1/policies/scale-web`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ policy }) });
  assert.equal(post.status, 200);
  await until(async () => (await json<ScalerStatus>(`${agent.base}/v1/autoscale/pod-scalers`)).body.pod_scalers[0]?.desired === 4, 20_000, 'the decision reaches the agent');
  const s = (await json<ScalerStatus & { reason: string }>(`${agent.base}/v1/autoscale/pod-scalers`)).body;
  assert.equal(s.enabled, false);
  assert.match(s.reason, /auto_scale\.kubernetes\.enabled is false/);
  assert.deepEqual(s.pod_scalers.map((p) => [p.leader, p.configured]), [[false, null]]);
  await new Promise((r) => setTimeout(r, 1000));
  assert.equal((await api.kubectl(['get', 'deployment', 'web', '-n', 'default', '-o', 'jsonpath={.spec.replicas}'])).stdout, '1');
  assert.equal((await api.kubectl(['get', 'leases', '-A', '-o', 'name'])).stdout.trim(), '');
  assert.match(await (await fetch(`${agent.base}/metrics`)).text(), /^pod_scaler_enabled 0$/m);
  // Off: nothing is read, so nothing is reported, and the out-ports stay invalid.
  const { signals } = (await json<PolicyView>(`${controller.base}/v1/policies/scale-web`)).body;
  assert.deepEqual([signals.running, signals.configured, signals.steering, signals.want], [null, null, null, 4]);
});
