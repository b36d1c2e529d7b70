// kubectl (the real binary) against the test API server: CRDs from crds/, custom resources with
// printer columns and the status subresource, built-ins with strategic merge patch and /scale,
// and the server's Status answers to bad requests.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { parse as parseYaml } from 'yaml';
import { startTestKubeApi, type TestKubeApi } from './kube-api/index.js';
import { ROOT } from './support/processes.js';

const CRD = join(ROOT, 'crds', 'policies.sluice.dev.yaml');

const POLICY = (capacity: number): string => `apiVersion: sluice.dev/v1alpha1
kind: Policy
metadata:
  name: rate-limit
  labels: {team: web}
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

const ok = (api: TestKubeApi, args: string[], input?: string): Promise<string> => api.kubectlOk(args, input);

async function withCrd(t: TestContext): Promise<TestKubeApi> {
  const api = await startTestKubeApi(t);
  assert.match(await ok(api, ['apply', '-f', CRD]), /customresourcedefinition.apiextensions.k8s.io\/policies.sluice.dev created/);
  await ok(api, ['wait', '--for=condition=established', '--timeout=10s', 'crd/policies.sluice.dev']);
  return api;
}

async function raw(api: TestKubeApi, method: string, path: string, body?: string, contentType = 'application/json'): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(`${api.url}${path}`, { method, body, headers: body === undefined ? {} : { 'content-type': contentType }, signal: AbortSignal.timeout(5000) });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

test('kubectl applies the Policy CRD from crds/ and the new resource is discovered and served', async (t) => {
  const api = await withCrd(t);
  const resources = await ok(api, ['api-resources', '--api-group=sluice.dev', '--no-headers']);
  assert.match(resources, /^policies\s+sluice\.dev\/v1alpha1\s+true\s+Policy/m);
  assert.match(await ok(api, ['apply', '-f', '-'], POLICY(100)), /policy.sluice.dev\/rate-limit created/);
  const obj = JSON.parse(await ok(api, ['get', 'policy', 'rate-limit', '-o', 'json'])) as { metadata: Record<string, unknown>; spec: unknown };
  assert.equal(obj.metadata.generation, 1);
  assert.match(String(obj.metadata.uid), /^[0-9a-f-]{36}$/);
  assert.match(String(obj.metadata.creationTimestamp), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  assert.match(String(obj.metadata.resourceVersion), /^\d+$/);
  // Discovery: the group's document lists the status subresource.
  const gv = await raw(api, 'GET', '/apis/sluice.dev/v1alpha1');
  const names = (gv.json.resources as { name: string }[]).map((r) => r.name);
  assert.deepEqual(names.sort(), ['policies', 'policies/status']);
});

test('kubectl get policies shows the printer columns, Status from the status subresource', async (t) => {
  const api = await withCrd(t);
  await ok(api, ['apply', '-f', '-'], POLICY(100));
  const before = await ok(api, ['get', 'policies']);
  assert.match(before, /^NAME\s+STATUS\s+AGE\s*$/m);
  assert.match(before, /^rate-limit\s+\d+s\s*$/m);
  const st = await raw(api, 'PATCH', '/apis/sluice.dev/v1alpha1/namespaces/default/policies/rate-limit/status', JSON.stringify({ status: { status: 'failed', message: 'spec.circuit: bad' } }), 'application/merge-patch+json');
  assert.equal(st.status, 200);
  const after = await ok(api, ['get', 'policies']);
  assert.match(after, /^rate-limit\s+failed\s+\d+s\s*$/m);
  const wide = await ok(api, ['get', 'policies', '-o', 'wide']);
  assert.match(wide, /^NAME\s+STATUS\s+MESSAGE\s+AGE\s*$/m);
  assert.match(wide, /spec\.circuit: bad/);
  assert.match(await ok(api, ['get', 'policies', '-A', '-l', 'team=web']), /^default\s+rate-limit\s+failed/m);
  assert.match((await api.kubectl(['get', 'policies', '-l', 'team=db'])).stderr, /No resources found/);
});

test('kubectl apply of a changed Policy merge-patches it: generation bumps, status is kept; a status write does not bump generation', async (t) => {
  const api = await withCrd(t);
  await ok(api, ['apply', '-f', '-'], POLICY(100));
  await raw(api, 'PATCH', '/apis/sluice.dev/v1alpha1/namespaces/default/policies/rate-limit/status', JSON.stringify({ status: { status: 'uploaded' } }), 'application/merge-patch+json');
  const g1 = JSON.parse(await ok(api, ['get', 'policy', 'rate-limit', '-o', 'json'])) as { metadata: { generation: number; resourceVersion: string }; status: { status: string } };
  assert.equal(g1.metadata.generation, 1);
  assert.equal(g1.status.status, 'uploaded');
  assert.match(await ok(api, ['apply', '-f', '-'], POLICY(200)), /configured/);
  const g2 = JSON.parse(await ok(api, ['get', 'policy', 'rate-limit', '-o', 'json'])) as { metadata: { generation: number; resourceVersion: string }; status: { status: string }; spec: { circuit: { components: { flow_control: { rate_limiter: { in_ports: { bucket_capacity: { constant_signal: { value: number } } } } } }[] } } };
  assert.equal(g2.metadata.generation, 2);
  assert.equal(g2.status.status, 'uploaded');
  assert.equal(g2.spec.circuit.components[0].flow_control.rate_limiter.in_ports.bucket_capacity.constant_signal.value, 200);
  assert.ok(Number(g2.metadata.resourceVersion) > Number(g1.metadata.resourceVersion));
  assert.match(await ok(api, ['apply', '-f', '-'], POLICY(200)), /unchanged/);
  // A main-resource write cannot change status.
  const put = await raw(api, 'PATCH', '/apis/sluice.dev/v1alpha1/namespaces/default/policies/rate-limit', JSON.stringify({ status: { status: 'hacked' } }), 'application/merge-patch+json');
  assert.equal((put.json.status as { status: string }).status, 'uploaded');
});

test('kubectl delete removes the Policy; a get of it is a NotFound Status', async (t) => {
  const api = await withCrd(t);
  await ok(api, ['apply', '-f', '-'], POLICY(100));
  assert.match(await ok(api, ['delete', '-f', '-'], POLICY(100)), /policy.sluice.dev "rate-limit" deleted/);
  const r = await api.kubectl(['get', 'policy', 'rate-limit']);
  assert.notEqual(r.code, 0);
  assert.match(r.stderr, /policies.sluice.dev "rate-limit" not found/);
  const g = await raw(api, 'GET', '/apis/sluice.dev/v1alpha1/namespaces/default/policies/rate-limit');
  assert.equal(g.status, 404);
  assert.deepEqual({ kind: g.json.kind, reason: g.json.reason, code: g.json.code, details: g.json.details }, { kind: 'Status', reason: 'NotFound', code: 404, details: { name: 'rate-limit', group: 'sluice.dev', kind: 'policies' } });
  // Deleting the CRD deletes its resources and its kind.
  await ok(api, ['apply', '-f', '-'], POLICY(100));
  await ok(api, ['delete', '-f', CRD]);
  assert.equal(api.server.objects('sluice.dev', 'policies').length, 0);
  assert.equal((await raw(api, 'GET', '/apis/sluice.dev/v1alpha1/policies')).status, 404);
});

test('kubectl apply of a Deployment twice merges containers by name (strategic merge patch); kubectl scale writes /scale', async (t) => {
  const api = await startTestKubeApi(t);
  const dep = (value: string, image: string): string => `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
        - {name: app, image: ${image}, ports: [{containerPort: 80}], env: [{name: A, value: "${value}"}]}
        - {name: side, image: busybox}
`;
  await ok(api, ['apply', '-f', '-'], dep('1', 'nginx'));
  await ok(api, ['apply', '-f', '-'], dep('2', 'nginx:2'));
  const d = JSON.parse(await ok(api, ['get', 'deploy', 'web', '-o', 'json'])) as { metadata: { generation: number }; spec: { replicas: number; template: { spec: { containers: { name: string; image: string; env?: { value: string }[] }[] } } } };
  assert.deepEqual(d.spec.template.spec.containers.map((c) => [c.name, c.image, c.env?.[0]?.value]), [['app', 'nginx:2', '2'], ['side', 'busybox', undefined]]);
  assert.equal(d.metadata.generation, 2);
  await ok(api, ['scale', 'deploy', 'web', '--replicas=5']);
  const scale = await raw(api, 'GET', '/apis/apps/v1/namespaces/default/deployments/web/scale');
  assert.deepEqual({ kind: scale.json.kind, apiVersion: scale.json.apiVersion, spec: scale.json.spec, selector: (scale.json.status as { selector: string }).selector }, { kind: 'Scale', apiVersion: 'autoscaling/v1', spec: { replicas: 5 }, selector: 'app=web' });
  const bad = await raw(api, 'PUT', '/apis/apps/v1/namespaces/default/deployments/web/scale', JSON.stringify({ spec: { replicas: -1 } }));
  assert.equal(bad.status, 422);
});

test('bad requests get Status answers with the real codes, and change nothing', async (t) => {
  const api = await withCrd(t);
  await ok(api, ['apply', '-f', '-'], POLICY(100));
  const base = '/apis/sluice.dev/v1alpha1/namespaces/default/policies';
  const current = (await raw(api, 'GET', `${base}/rate-limit`)).json as { metadata: { resourceVersion: string } };
  const rvBefore = api.server.currentResourceVersion();
  const cases: [string, string, string, string | undefined, string | undefined, number, string][] = [
    ['malformed JSON', 'POST', base, '{"apiVersion":', undefined, 400, 'BadRequest'],
    ['stale resourceVersion', 'PUT', `${base}/rate-limit`, JSON.stringify({ apiVersion: 'sluice.dev/v1alpha1', kind: 'Policy', metadata: { name: 'rate-limit', resourceVersion: String(Number(current.metadata.resourceVersion) - 1) }, spec: {} }), undefined, 409, 'Conflict'],
    ['create of an existing name', 'POST', base, JSON.stringify({ apiVersion: 'sluice.dev/v1alpha1', kind: 'Policy', metadata: { name: 'rate-limit' }, spec: {} }), undefined, 409, 'AlreadyExists'],
    ['update of a missing object', 'PUT', `${base}/nope`, JSON.stringify({ apiVersion: 'sluice.dev/v1alpha1', kind: 'Policy', metadata: { name: 'nope' }, spec: {} }), undefined, 404, 'NotFound'],
    ['a name that is not a DNS subdomain', 'POST', base, JSON.stringify({ apiVersion: 'sluice.dev/v1alpha1', kind: 'Policy', metadata: { name: 'Bad_Name' }, spec: {} }), undefined, 422, 'Invalid'],
    ['a wrong kind', 'POST', base, JSON.stringify({ apiVersion: 'sluice.dev/v1alpha1', kind: 'Pod', metadata: { name: 'x' } }), undefined, 400, 'BadRequest'],
    ['strategic merge patch of a custom resource', 'PATCH', `${base}/rate-limit`, '{"spec":{}}', 'application/strategic-merge-patch+json', 415, 'UnsupportedMediaType'],
    ['a JSON patch that fails its test', 'PATCH', `${base}/rate-limit`, '[{"op":"test","path":"/spec/x","value":1}]', 'application/json-patch+json', 422, 'Invalid'],
    ['a JSON patch that is not a list', 'PATCH', `${base}/rate-limit`, '{"op":"add"}', 'application/json-patch+json', 400, 'BadRequest'],
    ['a protobuf body', 'POST', base, 'k8s\u0000', 'application/vnd.kubernetes.protobuf', 415, 'UnsupportedMediaType'],
    ['a bad label selector', 'GET', `${base}?labelSelector=${encodeURIComponent('a in (b')}`, undefined, undefined, 400, 'BadRequest'],
    ['an unsupported field selector', 'GET', `${base}?fieldSelector=spec.x%3D1`, undefined, undefined, 400, 'BadRequest'],
    ['a bad resourceVersion on watch', 'GET', `${base}?watch=1&resourceVersion=abc`, undefined, undefined, 400, 'BadRequest'],
    ['a namespace that does not exist', 'POST', '/apis/sluice.dev/v1alpha1/namespaces/nowhere/policies', JSON.stringify({ metadata: { name: 'x' }, spec: {} }), undefined, 404, 'NotFound'],
    ['an unknown resource', 'GET', '/apis/sluice.dev/v1alpha1/namespaces/default/widgets', undefined, undefined, 404, 'NotFound'],
    ['a CRD without a dotted group', 'POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', JSON.stringify({ metadata: { name: 'things.local' }, spec: { group: 'local', scope: 'Namespaced', names: { plural: 'things', kind: 'Thing' }, versions: [{ name: 'v1', served: true, storage: true }] } }), undefined, 422, 'Invalid'],
    ['a CRD whose plural is taken', 'POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', JSON.stringify({ metadata: { name: 'policies.sluice.dev' }, spec: { group: 'sluice.dev', scope: 'Namespaced', names: { plural: 'policies', kind: 'Policy' }, versions: [{ name: 'v1', served: true, storage: true }] } }), undefined, 409, 'AlreadyExists'],
  ];
  for (const [name, method, path, body, type, code, reason] of cases) {
    const r = await raw(api, method, path, body, type);
    assert.equal(r.status, code, name);
    assert.equal(r.json.kind, 'Status', name);
    assert.equal(r.json.code, code, name);
    assert.equal(r.json.reason, reason, name);
    assert.equal(typeof r.json.message, 'string', name);
  }
  const big = await fetch(`${api.url}${base}`, { method: 'POST', body: 'x'.repeat(4 * 1024 * 1024), headers: { 'content-type': 'application/json' }, signal: AbortSignal.timeout(10_000) });
  assert.equal(big.status, 413);
  assert.equal(((await big.json()) as { code: number }).code, 413);
  assert.equal(api.server.currentResourceVersion(), rvBefore, 'no bad request changed anything');
  assert.equal(api.server.objects('sluice.dev', 'policies').length, 1);
});

test('list pages with limit and continue; a continue token older than the history is 410', async (t) => {
  const api = await startTestKubeApi(t);
  for (let i = 0; i < 5; i++) await raw(api, 'POST', '/api/v1/namespaces/default/configmaps', JSON.stringify({ metadata: { name: `c${i}`, labels: { i: String(i) } }, data: {} }));
  const p1 = await raw(api, 'GET', '/api/v1/namespaces/default/configmaps?limit=2');
  assert.deepEqual((p1.json.items as { metadata: { name: string } }[]).map((o) => o.metadata.name), ['c0', 'c1']);
  const token = (p1.json.metadata as { continue: string }).continue;
  const p2 = await raw(api, 'GET', `/api/v1/namespaces/default/configmaps?limit=2&continue=${token}`);
  assert.deepEqual((p2.json.items as { metadata: { name: string } }[]).map((o) => o.metadata.name), ['c2', 'c3']);
  assert.equal((await raw(api, 'GET', '/api/v1/namespaces/default/configmaps?continue=garbage')).status, 400);
  api.server.expireHistory();
  const old = await raw(api, 'GET', `/api/v1/namespaces/default/configmaps?limit=2&continue=${token}`);
  assert.equal(old.status, 410);
  assert.equal(old.json.reason, 'Expired');
  // kubectl pages through more than its chunk size.
  const all = await ok(api, ['get', 'configmaps', '--chunk-size=2', '-o', 'name']);
  assert.equal(all.trim().split('\n').length, 5);
  assert.match(await ok(api, ['get', 'configmaps', '-l', 'i in (1,3)', '-o', 'name']), /^configmap\/c1\nconfigmap\/c3\n$/);
});

test('the test API server serves the discovery documents kubectl and client-node read', async (t) => {
  const api = await startTestKubeApi(t);
  const v = await raw(api, 'GET', '/version');
  assert.equal(v.json.major, '1');
  assert.deepEqual((await raw(api, 'GET', '/api')).json.versions, ['v1']);
  const groups = ((await raw(api, 'GET', '/apis')).json.groups as { name: string }[]).map((g) => g.name);
  for (const g of ['apps', 'discovery.k8s.io', 'events.k8s.io', 'rbac.authorization.k8s.io', 'admissionregistration.k8s.io', 'coordination.k8s.io', 'apiextensions.k8s.io']) assert.ok(groups.includes(g), g);
  const core = ((await raw(api, 'GET', '/api/v1')).json.resources as { name: string }[]).map((r) => r.name);
  for (const r of ['namespaces', 'pods', 'pods/status', 'services', 'endpoints', 'events', 'configmaps', 'secrets', 'serviceaccounts']) assert.ok(core.includes(r), r);
  const apps = ((await raw(api, 'GET', '/apis/apps/v1')).json.resources as { name: string }[]).map((r) => r.name);
  assert.ok(apps.includes('deployments/scale') && apps.includes('statefulsets/scale') && apps.includes('replicasets/scale'));
  const root = (await raw(api, 'GET', '/openapi/v3')).json.paths as Record<string, { serverRelativeURL: string }>;
  assert.ok(root['apis/apps/v1'].serverRelativeURL.startsWith('/openapi/v3/apis/apps/v1?hash='));
  const crdText = readFileSync(CRD, 'utf8');
  assert.match(crdText, /kind: CustomResourceDefinition/);
});

test('custom resources are pruned and validated against the CRD schema, as the real server does', async (t) => {
  const api = await withCrd(t);
  const bad = await api.kubectl(['apply', '-f', '-'], 'apiVersion: sluice.dev/v1alpha1\nkind: Policy\nmetadata: {name: bad}\nspec:\n  circuit:\n    evaluation_interval: 5\n    components: "x"\n');
  assert.notEqual(bad.code, 0);
  assert.match(bad.stderr, /The Policy "bad" is invalid/);
  assert.match(bad.stderr, /spec\.circuit\.components: Invalid value: "x": must be array/);
  assert.match(bad.stderr, /spec\.circuit\.evaluation_interval: Invalid value: 5: must be string/);
  const missing = await raw(api, 'POST', '/apis/sluice.dev/v1alpha1/namespaces/default/policies', JSON.stringify({ apiVersion: 'sluice.dev/v1alpha1', kind: 'Policy', metadata: { name: 'nospec' } }));
  assert.equal(missing.status, 422);
  assert.deepEqual((missing.json.details as { causes: { field: string }[] }).causes.map((c) => c.field), ['spec']);
  assert.equal(api.server.objects('sluice.dev', 'policies').length, 0);
  await ok(api, ['apply', '-f', '-'], 'apiVersion: sluice.dev/v1alpha1\nkind: Policy\nmetadata: {name: ok}\nspec:\n  unknownTop: 1\n  circuit: {evaluation_interval: 5s, components: []}\n');
  const stored = JSON.parse(await ok(api, ['get', 'policy', 'ok', '-o', 'json'])) as { spec: Record<string, unknown>; metadata: { name: string } };
  assert.deepEqual(stored.spec, { circuit: { evaluation_interval: '5s', components: [] } });
  assert.equal(stored.metadata.name, 'ok');
  // A status write is validated too.
  const st = await raw(api, 'PATCH', '/apis/sluice.dev/v1alpha1/namespaces/default/policies/ok/status', JSON.stringify({ status: { observedGeneration: 'one' } }), 'application/merge-patch+json');
  assert.equal(st.status, 422);
});

test('every deploy/examples policy applies against the CRD schema unpruned, is listed, and deletes', async (t) => {
  const api = await withCrd(t);
  const dir = join(ROOT, 'deploy', 'examples');
  const files = readdirSync(dir).filter((f) => f.endsWith('.yaml')).sort();
  assert.ok(files.length >= 1, 'examples exist');
  for (const f of files) {
    const file = join(dir, f);
    const doc = parseYaml(readFileSync(file, 'utf8')) as { metadata: { name: string }; spec: unknown };
    assert.match(await ok(api, ['apply', '-f', file]), / created/, f);
    const stored = JSON.parse(await ok(api, ['get', 'policy', doc.metadata.name, '-o', 'json'])) as { spec: unknown };
    assert.deepEqual(stored.spec, doc.spec, `${f}: the CRD schema pruned nothing`);
  }
  const listed = await ok(api, ['get', 'policies', '-o', 'name']);
  assert.equal(listed.trim().split('\n').length, files.length);
  await ok(api, ['delete', '-f', dir]);
  assert.equal(api.server.objects('sluice.dev', 'policies').length, 0);
});
