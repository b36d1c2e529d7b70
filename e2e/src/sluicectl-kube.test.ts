// sluicectl --kube against the test Kubernetes API server (the current kubeconfig, as kubectl uses
// it): apply policy creates the Policy resource and then updates it as kubectl apply does (fields
// applied before and dropped from the file are removed, fields others set stay, the same file
// again is unchanged), policies lists the resources, delete policy removes one; what kubectl sees
// agrees; errors are one line with a non-zero exit.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { startTestKubeApi } from './kube-api/index.js';
import { ROOT, tempDir } from './support/processes.js';

const BIN = join(ROOT, 'bin', 'sluicectl');
const CRD = join(ROOT, 'crds', 'policies.sluice.dev.yaml');

interface Run { code: number; out: string; err: string }

const policy = (capacity: number, extra = ''): string => `apiVersion: sluice.dev/v1alpha1
kind: Policy
metadata:
  name: rate-limit
  namespace: shop
  labels: {team: web${extra}}
spec:
  circuit:
    components:
      - flow_control:
          rate_limiter:
            in_ports:
              bucket_capacity: {constant_signal: {value: ${capacity}}}
              fill_amount: {constant_signal: {value: 10}}
            parameters: {label_key: user, interval: 1s}
            selectors: [{control_point: ingress}]
`;

test('sluicectl --kube applies, lists and deletes Policy resources with kubectl apply\'s semantics', { timeout: 180_000 }, async (t) => {
  const api = await startTestKubeApi(t);
  await api.kubectlOk(['apply', '-f', CRD]);
  await api.kubectlOk(['wait', '--for=condition=established', '--timeout=10s', 'crd/policies.sluice.dev']);
  for (const ns of ['shop', 'team-b']) await api.kubectlOk(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } }));
  const dir = tempDir(t);
  const ctl = (args: string[]): Promise<Run> => new Promise((resolve) => {
    execFile(BIN, ['--kube', ...args], { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, KUBECONFIG: api.kubeconfig }, timeout: 60_000 }, (err, out, errText) => {
      resolve({ code: err === null ? 0 : Number((err as { code?: number }).code ?? -1), out, err: errText });
    });
  });
  const get = async (): Promise<{ metadata: { labels?: Record<string, string>; annotations?: Record<string, string> }; spec: { circuit: { components: Array<{ flow_control: { rate_limiter: { in_ports: Record<string, { constant_signal: { value: number } }>; parameters: Record<string, unknown> } } }> } } }> =>
    JSON.parse(await api.kubectlOk(['-n', 'shop', 'get', 'policy', 'rate-limit', '-o', 'json'])) as never;

  const file = join(dir, 'policy.yaml');
  writeFileSync(file, policy(20, ', tier: gold'));
  const created = await ctl(['apply', 'policy', '-f', file]);
  assert.equal(created.code, 0, created.err);
  assert.match(created.out, /^policy\.sluice\.dev\/rate-limit created \(namespace shop/);
  let live = await get();
  assert.deepEqual(live.metadata.labels, { team: 'web', tier: 'gold' });
  assert.ok(live.metadata.annotations?.['kubectl.kubernetes.io/last-applied-configuration'], 'the applied configuration is kept as kubectl keeps it');

  // Someone else adds a label; the file drops `tier` and changes the capacity.
  await api.kubectlOk(['-n', 'shop', 'label', 'policy', 'rate-limit', 'owner=ops']);
  writeFileSync(file, policy(50));
  const configured = await ctl(['apply', 'policy', '-f', file]);
  assert.equal(configured.code, 0, configured.err);
  assert.match(configured.out, /rate-limit configured/);
  live = await get();
  assert.deepEqual(live.metadata.labels, { team: 'web', owner: 'ops' }, 'the dropped label is removed, the other one\'s stays');
  assert.equal(live.spec.circuit.components[0]?.flow_control.rate_limiter.in_ports.bucket_capacity?.constant_signal.value, 50);
  const again = await ctl(['apply', 'policy', '-f', file]);
  assert.match(again.out, /rate-limit unchanged/);
  // kubectl apply of the same file, from the configuration sluicectl recorded, changes no field.
  const before = await get();
  await api.kubectlOk(['apply', '-f', file]);
  const after = await get();
  assert.deepEqual([after.metadata.labels, after.spec], [before.metadata.labels, before.spec]);

  // A bare spec goes to the namespace given (-n).
  const bare = join(dir, 'other.yaml');
  writeFileSync(bare, 'circuit:\n  components: []\n');
  const other = await ctl(['-n', 'team-b', 'apply', 'policy', '-f', bare]);
  assert.equal(other.code, 0, other.err);
  assert.match(other.out, /policy\.sluice\.dev\/other created \(namespace team-b/);

  const listed = await ctl(['-n', 'shop', 'policies']);
  assert.equal(listed.code, 0, listed.err);
  assert.match(listed.out, /NAMESPACE[\s\S]*shop\s.*rate-limit/);
  assert.doesNotMatch(listed.out, /team-b/);
  const all = await ctl(['-o', 'json', 'policies', '-A']);
  assert.deepEqual((JSON.parse(all.out) as { items: Array<{ metadata: { namespace: string; name: string } }> }).items.map((i) => `${i.metadata.namespace}/${i.metadata.name}`).sort(), ['shop/rate-limit', 'team-b/other']);

  const deleted = await ctl(['-n', 'shop', 'delete', 'policy', 'rate-limit']);
  assert.equal(deleted.code, 0, deleted.err);
  assert.match(deleted.out, /policy\.sluice\.dev\/rate-limit deleted/);
  const gone = await ctl(['-n', 'shop', 'delete', 'policy', 'rate-limit']);
  assert.equal(gone.code, 1);
  assert.match(gone.err, /^sluicectl: policy shop\/rate-limit: .*not found.*\(HTTP 404\)\n$/);
  assert.doesNotMatch(gone.err, /\n\s+at /);

  // A context the kubeconfig lacks is a usage error; a cluster that cannot be reached a failure.
  const badContext = await ctl(['--context', 'nowhere', 'policies']);
  assert.equal(badContext.code, 2);
  assert.match(badContext.err, /--context "nowhere": no such context/);
  const away = join(dir, 'away.kubeconfig');
  writeFileSync(away, 'apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: "https://127.0.0.1:9", insecure-skip-tls-verify: true}}]\ncontexts: [{name: x, context: {cluster: c, user: u}}]\ncurrent-context: x\nusers: [{name: u, user: {}}]\n');
  const unreachable = await new Promise<Run>((resolve) => {
    execFile(BIN, ['--kube', 'policies'], { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, KUBECONFIG: away }, timeout: 60_000 }, (err, out, errText) => {
      resolve({ code: err === null ? 0 : Number((err as { code?: number }).code ?? -1), out, err: errText });
    });
  });
  assert.equal(unreachable.code, 1);
  assert.match(unreachable.err, /^sluicectl: listing policies: .*ECONNREFUSED/);
  assert.doesNotMatch(unreachable.err, /\n\s+at /);
});
