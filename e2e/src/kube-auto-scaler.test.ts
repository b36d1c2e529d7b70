// The auto scaler end to end: a policy posted to the real controller (real etcd) runs
// auto_scale.auto_scaler from a variable set through the API; a real agent with the test API
// server's kubeconfig holds the Deployment's Lease, writes its /scale and reports the replicas
// back. The test plays the Deployment controller (status.replicas follows spec.replicas), so the
// auto scaler sees the pods it asked for running: it scales out to max_replicas, then, once the
// signal drops, scales in step by step (each step held for the scale-in cooldown) to min_replicas.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestKubeApi } from './kube-api/index.js';
import { endpointsJson, startEtcd } from './support/etcd.js';
import { startAgent, startController, until } from './support/processes.js';

const DEPLOYMENT = {
  apiVersion: 'apps/v1', kind: 'Deployment',
  metadata: { name: 'web', namespace: 'default' },
  spec: {
    replicas: 2,
    selector: { matchLabels: { app: 'web' } },
    template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'registry.example/web:1' }] } },
  },
};

const SCALE_IN_COOLDOWN_MS = 8000;

/** `load` (per replica, setpoint 1): above 1 scales out, below 1 scales in, in Aperture's form (int64s as strings). */
const POLICY = {
  circuit: {
    evaluation_interval: '500ms',
    components: [
      { variable: { constant_output: { value: 1 }, out_ports: { output: { signal_name: 'load' } } } },
      {
        auto_scale: {
          auto_scaler: {
            scaling_backend: {
              kubernetes_replicas: {
                kubernetes_object_selector: { agent_group: 'default', namespace: 'default', api_version: 'apps/v1', kind: 'Deployment', name: 'web' },
                min_replicas: '1',
                max_replicas: '5',
                out_ports: { actual_replicas: { signal_name: 'running' }, configured_replicas: { signal_name: 'configured' }, desired_replicas: { signal_name: 'desired' } },
              },
            },
            scale_out_controllers: [{
              alerter: { alert_name: 'load above the setpoint' },
              controller: { gradient: { in_ports: { signal: { signal_name: 'load' }, setpoint: { constant_signal: { value: 1 } } }, parameters: { slope: 1 } } },
            }],
            scale_in_controllers: [{
              alerter: { alert_name: 'load below the setpoint' },
              controller: { gradient: { in_ports: { signal: { signal_name: 'load' }, setpoint: { constant_signal: { value: 1 } } }, parameters: { slope: 1 } } },
            }],
            scaling_parameters: {
              max_scale_out_percentage: 100,
              max_scale_in_percentage: 50,
              scale_out_cooldown: '2s',
              scale_in_cooldown: `${SCALE_IN_COOLDOWN_MS / 1000}s`,
              scale_out_alerter: { alert_name: 'scaling out' },
              scale_in_alerter: { alert_name: 'scaling in' },
            },
            dry_run_config_key: 'auto_scaler.dry_run',
          },
        },
      },
    ],
  },
};

async function json<T>(url: string, init?: RequestInit): Promise<{ status: number; body: T }> {
  const r = await fetch(url, init);
  return { status: r.status, body: await r.json() as T };
}

test('an auto scaler scales a Deployment out to max_replicas, then in after the cooldowns to min_replicas; a dry run writes nothing', async (t) => {
  const api = await startTestKubeApi(t);
  await api.kubectlOk(['apply', '-f', '-'], JSON.stringify(DEPLOYMENT));
  const path = `${api.url}/apis/apps/v1/namespaces/default/deployments/web`;
  // The Deployment controller's part: status.replicas follows spec.replicas; every spec seen is
  // kept, and every decision of the auto scaler (its desired_replicas out-port) once the controller runs.
  const seen: { atMs: number; replicas: number }[] = [];
  const decided: { atMs: number; replicas: number }[] = [];
  const live: { controller?: string } = {};
  let playing = true;
  const play = (async () => {
    while (playing) {
      if (live.controller !== undefined) {
        const r = await fetch(`${live.controller}/v1/policies/scale-web`);
        const desired = r.status === 200 ? ((await r.json()) as { signals: Record<string, number | null> }).signals.desired : null;
        if (typeof desired === 'number' && decided.at(-1)?.replicas !== desired) decided.push({ atMs: Date.now(), replicas: desired });
      }
      const d = (await json<{ spec: { replicas: number }; status?: { replicas?: number } }>(path)).body;
      if (seen.at(-1)?.replicas !== d.spec.replicas) seen.push({ atMs: Date.now(), replicas: d.spec.replicas });
      if (d.status?.replicas !== d.spec.replicas) {
        const r = await fetch(`${path}/status`, { method: 'PATCH', headers: { 'content-type': 'application/merge-patch+json' }, body: JSON.stringify({ status: { replicas: d.spec.replicas } }) });
        assert.equal(r.status, 200, await r.text());
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  })();
  t.after(async () => {
    playing = false;
    await play;
  });
  await until(() => seen.length > 0 && seen[0].replicas === 2, 10_000, 'the Deployment read');

  const etcd = await startEtcd(t);
  const endpoints = endpointsJson(etcd);
  const controller = await startController(t, { startMs: 60_000, env: { SLUICE_CONTROLLER_ETCD_ENDPOINTS: endpoints, SLUICE_CONTROLLER_PROMETHEUS_ADDRESS: '127.0.0.1:9' } });
  live.controller = controller.base;
  const agent = await startAgent(t, { startMs: 60_000, env: { SLUICE_AGENT_ETCD_ENDPOINTS: endpoints, KUBECONFIG: api.kubeconfig, POD_NAME: 'agent-a' } });
  const signals = async () => (await json<{ signals: Record<string, number | null> }>(`${controller.base}/v1/policies/scale-web`)).body.signals;
  const setLoad = async (value: number) => {
    const r = await json(`${controller.base}/v1/policies/scale-web/variables/load`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ value }) });
    assert.equal(r.status, 200, JSON.stringify(r.body));
  };

  const post = await json(`${controller.base}/v1/policies/scale-web`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ policy: POLICY }) });
  assert.equal(post.status, 200, JSON.stringify(post.body));
  // At the setpoint: the agent reports 2 running and 2 configured; nothing is decided.
  await until(async () => { const s = await signals(); return s.running === 2 && s.configured === 2; }, 30_000, 'the controller sees 2 replicas running');
  assert.equal((await signals()).desired, null, 'no decision at the setpoint');

  // Three times the setpoint: 2 → 4 (at most +100 % of 2 per step) → 5 (max_replicas).
  await setLoad(3);
  await until(() => seen.at(-1)?.replicas === 5, 60_000, 'scaled out to max_replicas');
  assert.deepEqual(seen.map((s) => s.replicas), [2, 4, 5], 'scale-out steps bounded by max_scale_out_percentage and max_replicas');
  await until(async () => (await signals()).running === 5, 30_000, 'the controller sees 5 running');

  // Half the setpoint: 5 → 3 (ceil(2.5), and at most -50 % of 5); the next proposal waits for the
  // scale-in cooldown: 3 → 2; then 2 → 1 (min_replicas), each held for the cooldown.
  await setLoad(0.5);
  await until(() => seen.at(-1)?.replicas === 1, 90_000, 'scaled in to min_replicas');
  assert.deepEqual(seen.slice(3).map((s) => s.replicas), [3, 2, 1], 'scale-in steps bounded by max_scale_in_percentage and min_replicas');
  // The decisions behind the writes: 4, 5, then the scale-ins, each held for the scale-in cooldown
  // (16 ticks of 500 ms) from the one before. The poll (every 200 ms, on a loaded machine slower) may
  // see one later than the other; without the cooldown the next step would follow the agent's next
  // read of /scale (at most 5 s), so 6.5 s still tells them apart.
  await until(() => decided.at(-1)?.replicas === 1, 10_000, 'the controller shows the last decision');
  const scaleIns = decided.slice(decided.findIndex((d) => d.replicas === 3));
  assert.deepEqual(decided.map((d) => d.replicas), [4, 5, 3, 2, 1]);
  for (let i = 1; i < scaleIns.length; i++) {
    const gap = scaleIns[i].atMs - scaleIns[i - 1].atMs;
    t.diagnostic(`decided scale-in ${scaleIns[i - 1].replicas} → ${scaleIns[i].replicas} after ${gap} ms`);
    assert.ok(gap >= SCALE_IN_COOLDOWN_MS - 1500, `a scale-in waits for the scale-in cooldown: ${gap} ms`);
  }
  // Still half the setpoint: nothing under min_replicas is ever written.
  await new Promise((r) => setTimeout(r, 3000));
  assert.equal(seen.at(-1)?.replicas, 1);
  assert.ok(seen.every((s) => s.replicas >= 1 && s.replicas <= 5), JSON.stringify(seen));

  // Dry run through the dynamic configuration: the auto scaler decides (1 → 2), the agent writes nothing.
  const dry = await json(`${controller.base}/v1/dynamic-configs/scale-web`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ dynamic_config: { auto_scaler: { dry_run: true } } }) });
  assert.equal(dry.status, 200, JSON.stringify(dry.body));
  const dryRun = /pod_scaler_actions_total\{[^}]*direction="out",result="dry_run"\} [1-9]/;
  await setLoad(3);
  await until(() => decided.at(-1)?.replicas === 2, 30_000, 'the dry run still decides');
  await until(async () => dryRun.test(await (await fetch(`${agent.base}/metrics`)).text()), 30_000, 'the agent holds the scale-out as a dry run');
  await new Promise((r) => setTimeout(r, 2000));
  assert.equal(seen.at(-1)?.replicas, 1, '/scale not written in a dry run');
});
