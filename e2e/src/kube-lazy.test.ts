// The agent and the controller start without loading @kubernetes/client-node when nothing uses
// Kubernetes (no pod, no kubeconfig, or the features off): it costs seconds and tens of MB at start.
// Each process runs with a hook that makes loading it fail, and must serve as usual; the controller's
// injection webhook (which needs no client) still answers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT, processEnv, spawnProc, tempDir, until, writeFile, type Proc } from './support/processes.js';

const REFUSE = pathToFileURL(join(ROOT, 'e2e', 'dist', 'support', 'refuse-client-node.js')).href;

/** Environment without any Kubernetes: not in a pod, no KUBECONFIG, a HOME without ~/.kube. */
function noKube(home: string, extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = { ...extra, HOME: home, NODE_OPTIONS: `--import=${REFUSE}` };
  delete env.KUBECONFIG;
  delete env.KUBERNETES_SERVICE_HOST;
  return env;
}

async function serving(p: Proc): Promise<string> {
  const line = await p.waitForLine(/serving gRPC and HTTP/, 60_000);
  const address = (JSON.parse(line) as { meta: { address: string } }).meta.address;
  return `http://127.0.0.1:${address.slice(address.lastIndexOf(':') + 1)}`;
}

test('the hook refuses client-node: the controller with the CR watcher on (which needs it) fails to start', { timeout: 90_000 }, async (t) => {
  const home = tempDir(t);
  const kubeconfig = writeFile(home, 'kubeconfig', 'apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: "http://127.0.0.1:9"}}]\ncontexts: [{name: c, context: {cluster: c, user: u}}]\ncurrent-context: c\nusers: [{name: u, user: {}}]\n');
  const env = { ...noKube(home, processEnv('controller', { SLUICE_CONTROLLER_ETCD_ENDPOINTS: '["http://127.0.0.1:9"]', SLUICE_CONTROLLER_POLICIES_CR_WATCHER_ENABLED: 'true' })), KUBECONFIG: kubeconfig };
  const c = spawnProc(t, join(ROOT, 'bin', 'sluice-controller'), [], env);
  const exit = await c.exited;
  assert.notEqual(exit.code, 0);
  assert.match(c.output(), /refused: @kubernetes\/client-node loaded/);
});

test('the agent starts and serves without loading client-node (discovery and pod scalers have no Kubernetes API)', { timeout: 90_000 }, async (t) => {
  const a = spawnProc(t, join(ROOT, 'bin', 'sluice-agent'), [], noKube(tempDir(t), processEnv('agent', { SLUICE_AGENT_ETCD_ENDPOINTS: '["http://127.0.0.1:9"]' })));
  const base = await serving(a);
  await until(async () => (await fetch(`${base}/v1/status/system/liveness`).catch(() => undefined))?.status === 200, 20_000, 'liveness');
  const scalers = await (await fetch(`${base}/v1/autoscale/pod-scalers`)).json() as { enabled: boolean; reason: string };
  assert.equal(scalers.enabled, false);
  assert.match(scalers.reason, /no Kubernetes API/);
  assert.match(await (await fetch(`${base}/metrics`)).text(), /^pod_scaler_enabled 0$/m);
  assert.equal((await fetch(`${base}/v1/discovery/entities`)).status, 200);
  assert.doesNotMatch(a.output(), /refused/);
});

test('the controller starts without loading client-node; its injection webhook answers', { timeout: 90_000 }, async (t) => {
  const c = spawnProc(t, join(ROOT, 'bin', 'sluice-controller'), [], noKube(tempDir(t), processEnv('controller', {
    SLUICE_CONTROLLER_ETCD_ENDPOINTS: '["http://127.0.0.1:9"]', SLUICE_CONTROLLER_PROMETHEUS_ADDRESS: '127.0.0.1:9',
  })));
  const base = await serving(c);
  const review = {
    apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview',
    request: {
      uid: 'u-1', kind: { group: '', version: 'v1', kind: 'Pod' }, resource: { group: '', version: 'v1', resource: 'pods' }, namespace: 'default', operation: 'CREATE',
      object: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'default', annotations: { 'sluice.dev/inject': 'true' } }, spec: { containers: [{ name: 'app', image: 'app:1', ports: [{ name: 'http', containerPort: 3000 }] }] } },
    },
  };
  const r = await fetch(`${base}/v1/admission/inject`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(review) });
  assert.equal(r.status, 200);
  const body = await r.json() as { response: { uid: string; allowed: boolean; patchType?: string; patch?: string } };
  assert.equal(body.response.uid, 'u-1');
  assert.equal(body.response.allowed, true);
  assert.equal(body.response.patchType, 'JSONPatch', 'the tap is injected');
  assert.doesNotMatch(c.output(), /refused/);
});
