// The plain manifests installed into the test API server: `kubectl kustomize deploy/kubernetes`,
// `kubectl apply --server`, every object there, every object the charts' templates name among
// them, and webhook-certificate.sh creating the webhook's Secret and CA bundle.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { startTestKubeApi } from './kube-api/index.js';
import { CHARTS, ROOT, at, obj, type Obj } from './support/chart-checks.js';
import { render } from './support/helm-render.js';

const CLUSTER_SCOPED = new Set(['Namespace', 'ClusterRole', 'ClusterRoleBinding', 'CustomResourceDefinition', 'MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration']);

test('deploy/kubernetes builds with kustomize, applies to an API server, and holds every object the charts render', async (t) => {
  const api = await startTestKubeApi(t);
  const kubectl = api.kubectlOk;
  const built = await kubectl(['kustomize', join(ROOT, 'deploy', 'kubernetes')]);
  const docs = parseAllDocuments(built).map((d) => obj(d.toJS(), 'built object'));
  assert.ok(docs.length >= 20, `${docs.length} objects`);
  const applied = await kubectl(['apply', '--server', api.url, '-f', '-'], built);
  assert.equal(applied.trim().split('\n').length, docs.length, applied);
  assert.doesNotMatch(applied, /unchanged|configured/, 'every object is new');

  // Everything the build holds is stored, with its kind, name and namespace.
  const listed = obj(JSON.parse(await kubectl(['get', '-f', '-', '-o', 'json'], built)), 'list');
  const stored = (listed.items as Obj[]).map((o) => `${String(o.kind)} ${String(at(o, 'metadata.namespace') ?? '')}/${String(at(o, 'metadata.name'))}`);
  const expected = docs.map((d) => `${String(d.kind)} ${String(at(d, 'metadata.namespace') ?? '')}/${String(at(d, 'metadata.name'))}`);
  assert.deepEqual(stored.sort(), expected.sort());
  // The Policy CRD is established; with no controller running to validate them (no pod runs
  // here), the policy-validation webhook's failurePolicy Fail refuses Policies, naming the webhook.
  await kubectl(['wait', '--for=condition=established', '--timeout=10s', 'crd/policies.sluice.dev']);
  const refused = await api.kubectl(['apply', '-f', join(ROOT, 'deploy', 'examples', 'rate-limit.yaml')]);
  assert.notEqual(refused.code, 0);
  assert.match(refused.stderr, /policy\.validate\.sluice\.dev/);

  // Every object the charts render with the default values (helm template, releases sluice-agent
  // and sluice-controller in sluice-system) is there.
  const have = new Set(expected);
  for (const c of CHARTS) {
    for (const d of render(c.dir, 'sluice-system')) {
      if (d.kind === 'Secret') continue; // the webhook's certificate: webhook-certificate.sh below
      const ns = CLUSTER_SCOPED.has(String(d.kind)) ? '' : 'sluice-system';
      const id = `${String(d.kind)} ${ns}/${String(at(d, 'metadata.name'))}`;
      assert.ok(have.has(id), `${c.dir}: ${id} is in deploy/kubernetes`);
    }
  }

  // The certificate script, run as a user would, against the same API server.
  const script = await new Promise<{ code: number; out: string }>((resolve) => {
    execFile(join(ROOT, 'deploy', 'kubernetes', 'webhook-certificate.sh'), [], {
      env: { ...process.env, KUBECONFIG: api.kubeconfig, KUBECACHEDIR: join(api.dir, 'cache'), HOME: api.dir }, timeout: 60_000,
    }, (err, stdout, stderr) => resolve({ code: err ? 1 : 0, out: stdout + stderr }));
  });
  assert.equal(script.code, 0, script.out);
  const secret = obj(JSON.parse(await kubectl(['get', 'secret', '-n', 'sluice-system', 'sluice-controller-webhook-tls', '-o', 'json'])), 'secret');
  assert.equal(secret.type, 'kubernetes.io/tls');
  const data = obj(secret.data, 'data');
  const cert = new X509Certificate(Buffer.from(String(data['tls.crt']), 'base64'));
  const ca = new X509Certificate(Buffer.from(String(data['ca.crt']), 'base64'));
  assert.ok(cert.checkIssued(ca), 'the serving certificate is signed by the CA');
  assert.match(cert.subjectAltName ?? '', /DNS:sluice-controller\.sluice-system\.svc/);
  const hook = obj(JSON.parse(await kubectl(['get', 'mutatingwebhookconfiguration', 'sluice-controller-sluice-system', '-o', 'json'])), 'hook');
  for (const w of hook.webhooks as Obj[]) assert.equal(at(w, 'clientConfig.caBundle'), data['ca.crt']);
  // The agents' group key: created once, kept when the script runs again (every agent holds the same key).
  const runScript = (name: string): Promise<{ code: number; out: string }> => new Promise((resolve) => {
    execFile(join(ROOT, 'deploy', 'kubernetes', name), [], {
      env: { ...process.env, KUBECONFIG: api.kubeconfig, KUBECACHEDIR: join(api.dir, 'cache'), HOME: api.dir }, timeout: 60_000,
    }, (err, stdout, stderr) => resolve({ code: err ? 1 : 0, out: stdout + stderr }));
  });
  const keyOf = async (): Promise<string> => String(obj(obj(JSON.parse(await kubectl(['get', 'secret', '-n', 'sluice-system', 'sluice-agent-dist-cache-key', '-o', 'json'])), 'secret').data, 'data').keys);
  const created = await runScript('dist-cache-key.sh');
  assert.equal(created.code, 0, created.out);
  const key = Buffer.from(await keyOf(), 'base64').toString('utf8').trim();
  assert.equal(Buffer.from(key, 'base64').length, 32, 'the key is 32 random bytes as base64 text');
  const again = await runScript('dist-cache-key.sh');
  assert.equal(again.code, 0, again.out);
  assert.match(again.out, /exists: kept/);
  assert.equal(Buffer.from(await keyOf(), 'base64').toString('utf8').trim(), key, 'a second run keeps the key');
  const ds = obj(JSON.parse(await kubectl(['get', 'daemonset', '-n', 'sluice-system', 'sluice-agent', '-o', 'json'])), 'daemonset');
  const keyVolume = (at(ds, 'spec.template.spec.volumes') as Obj[]).find((v) => v.name === 'dist-cache-key');
  assert.equal(at(keyVolume, 'secret.secretName'), 'sluice-agent-dist-cache-key');
  const restarted = obj(JSON.parse(await kubectl(['get', 'deployment', '-n', 'sluice-system', 'sluice-controller', '-o', 'json'])), 'deployment');
  assert.ok(obj(at(restarted, 'spec.template.metadata.annotations'), 'annotations')['kubectl.kubernetes.io/restartedAt'], 'rolled to pick up the certificate');
});
