// The controller's CR watcher end to end: kubectl against the test API server, real etcd, the real controller.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { startEtcdServer } from '@sluice/etcd/testing';
import { startTestKubeApi } from './kube-api/index.js';
import { ROOT, startController, until } from './support/processes.js';

const b64 = (s: string): string => Buffer.from(s).toString('base64');

async function etcdKeys(endpoint: string, prefix: string): Promise<Map<string, string>> {
  const end = prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
  const r = await fetch(`${endpoint}/v3/kv/range`, { method: 'POST', body: JSON.stringify({ key: b64(prefix), range_end: b64(end) }) });
  const body = await r.json() as { kvs?: { key: string; value: string }[] };
  return new Map((body.kvs ?? []).map((kv) => [Buffer.from(kv.key, 'base64').toString(), Buffer.from(kv.value ?? '', 'base64').toString()]));
}

const BAD_REGEX = `apiVersion: sluice.dev/v1alpha1
kind: Policy
metadata: {name: bad-regex, namespace: default}
spec:
  circuit:
    components:
      - flow_control:
          rate_limiter:
            in_ports:
              bucket_capacity: {constant_signal: {value: 5}}
              fill_amount: {constant_signal: {value: 5}}
            parameters: {interval: 1s}
            selectors:
              - control_point: ingress
                label_matcher: {expression: {label_matches: {label: user, regex: "("}}}
`;

test('kubectl apply of a Policy publishes it through the controller; a bad one shows failed with its field; delete removes the keys', async (t) => {
  const api = await startTestKubeApi(t);
  const kubectl = api.kubectlOk;
  await kubectl(['apply', '-f', join(ROOT, 'crds', 'policies.sluice.dev.yaml')]);
  await kubectl(['wait', '--for=condition=established', '--timeout=10s', 'crd/policies.sluice.dev']);
  const etcd = await startEtcdServer();
  t.after(() => etcd.close());
  const c = await startController(t, {
    env: {
      SLUICE_CONTROLLER_ETCD_ENDPOINTS: JSON.stringify([etcd.endpoint]),
      SLUICE_CONTROLLER_ETCD_LEASE_TTL: '2s',
      SLUICE_CONTROLLER_PROMETHEUS_ADDRESS: '127.0.0.1:9',
      SLUICE_CONTROLLER_POLICIES_CR_WATCHER_ENABLED: 'true',
      KUBECONFIG: api.kubeconfig,
    },
  });

  await kubectl(['apply', '-f', join(ROOT, 'deploy', 'examples', 'rate-limit.yaml')]);
  const decisionKey = 'sluice/decisions/default/rate-limit-per-user/root.0';
  await until(async () => (await etcdKeys(etcd.endpoint, 'sluice/decisions/default/')).has(decisionKey), 10_000, 'decision published from the CR');
  const decision = JSON.parse((await etcdKeys(etcd.endpoint, 'sluice/decisions/default/')).get(decisionKey)!) as Record<string, unknown>;
  assert.deepEqual(decision, { kind: 'rate_limiter', bucket_capacity: 20, fill_amount: 10, pass_through: false });
  await until(async () => /uploaded/.test(await kubectl(['get', 'policies', '-n', 'default', 'rate-limit-per-user', '-o', 'jsonpath={.status.status}'])), 10_000, 'status uploaded');
  const viaApi = await (await fetch(`${c.base}/v1/policies/rate-limit-per-user`)).json() as { source: string; status: string };
  assert.deepEqual([viaApi.source, viaApi.status], ['kubernetes', 'running']);
  // The API does not change what Kubernetes manages.
  const r = await fetch(`${c.base}/v1/policies/rate-limit-per-user`, { method: 'DELETE' });
  assert.equal(r.status, 400);

  await kubectl(['apply', '-f', '-'], BAD_REGEX);
  await until(async () => /failed/.test(await kubectl(['get', 'policies', '-n', 'default', 'bad-regex', '-o', 'jsonpath={.status.status}'])), 10_000, 'status failed');
  const message = await kubectl(['get', 'policies', '-n', 'default', 'bad-regex', '-o', 'jsonpath={.status.message}']);
  assert.match(message, /label_matches\.regex/);
  assert.equal((await etcdKeys(etcd.endpoint, 'sluice/config/default/bad-regex/')).size, 0, 'nothing published for the bad policy');

  await kubectl(['delete', '-f', join(ROOT, 'deploy', 'examples', 'rate-limit.yaml')]);
  await until(async () => (await etcdKeys(etcd.endpoint, 'sluice/config/default/rate-limit-per-user/')).size === 0
    && !(await etcdKeys(etcd.endpoint, 'sluice/decisions/default/')).has(decisionKey), 10_000, 'keys removed with the CR');
});
