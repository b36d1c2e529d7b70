// The test API server's protobuf bodies: the bytes helm v3 (client-go) and kubectl sent to it,
// captured into e2e/fixtures/kube-protobuf, decoded to the objects they carry; hand-encoded bodies
// for the fields those captures leave at zero; what is refused (415) and that the server stores,
// updates and deletes through them.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { ApiError } from './kube-api/api-error.js';
import { acceptsJson, decodeProtobufBody, jsonBody } from './kube-api/protobuf.js';
import { startTestKubeApi } from './kube-api/testing.js';

const fixture = (name: string): Buffer => readFileSync(new URL(`../fixtures/kube-protobuf/${name}.bin`, import.meta.url));

/** A protobuf field: a length-delimited one for a string or bytes, a varint one for a number. */
function field(n: number, v: string | Buffer | number): Buffer {
  if (typeof v === 'number') return Buffer.concat([varint(n << 3), varint(v)]);
  const b = typeof v === 'string' ? Buffer.from(v) : v;
  return Buffer.concat([varint((n << 3) | 2), varint(b.length), b]);
}
function varint(v: number): Buffer {
  const out: number[] = [];
  while (v > 127) {
    out.push((v & 127) | 128);
    v = Math.floor(v / 128);
  }
  out.push(v);
  return Buffer.from(out);
}
/** `k8s\0` + runtime.Unknown{typeMeta{apiVersion, kind}, raw, contentEncoding}. */
function envelope(apiVersion: string, kind: string, raw: Buffer, contentEncoding = ''): Buffer {
  const tm = Buffer.concat([field(1, apiVersion), field(2, kind)]);
  return Buffer.concat([Buffer.from('k8s\0', 'latin1'), field(1, tm), field(2, raw), field(3, contentEncoding), field(4, '')]);
}
const code = (fn: () => unknown): number => {
  try {
    fn();
    return 0;
  } catch (e) {
    assert.ok(e instanceof ApiError, String(e));
    return e.code;
  }
};
/** Helm's release: base64 of gzipped JSON. */
const release = (b64: string): { name: string; version: number; chart: { metadata: { name: string } } } => JSON.parse(gunzipSync(Buffer.from(b64, 'base64')).toString('utf8'));

test('helm release Secrets: create and update bodies decode to the Secret, its labels and its release bytes', () => {
  const created = decodeProtobufBody(fixture('helm-secret-create')) as { kind: string; apiVersion: string; metadata: { name: string; labels: Record<string, string> }; data: { release: string }; type: string };
  assert.equal(created.kind, 'Secret');
  assert.equal(created.apiVersion, 'v1');
  assert.equal(created.type, 'helm.sh/release.v1');
  assert.equal(created.metadata.name, 'sh.helm.release.v1.t1.v1');
  assert.deepEqual(Object.keys(created.metadata).sort(), ['labels', 'name'], 'empty strings and the zero Time are not fields');
  assert.deepEqual({ ...created.metadata.labels, createdAt: '' }, { createdAt: '', name: 't1', owner: 'helm', status: 'pending-install', version: '1' });
  // data is bytes: JSON carries them in base64; helm's bytes are themselves base64 of gzipped JSON.
  const rel = release(Buffer.from(created.data.release, 'base64').toString('latin1'));
  assert.equal(rel.name, 't1');
  assert.equal(rel.version, 1);
  assert.equal(rel.chart.metadata.name, 'tiny');
  const updated = decodeProtobufBody(fixture('helm-secret-update')) as typeof created;
  assert.equal(updated.metadata.labels.status, 'deployed');
  assert.ok(updated.metadata.labels.modifiedAt !== undefined);
});

test('helm release ConfigMaps (HELM_DRIVER=configmap) and the empty DeleteOptions of helm uninstall', () => {
  const cm = decodeProtobufBody(fixture('helm-configmap-create')) as { kind: string; metadata: { name: string; labels: Record<string, string> }; data: { release: string } };
  assert.equal(cm.kind, 'ConfigMap');
  assert.equal(cm.metadata.name, 'sh.helm.release.v1.t2.v1');
  assert.equal(cm.metadata.labels.owner, 'helm');
  assert.equal(release(cm.data.release).name, 't2');
  assert.equal((decodeProtobufBody(fixture('helm-configmap-update')) as typeof cm).metadata.labels.status, 'deployed');
  assert.deepEqual(decodeProtobufBody(fixture('helm-delete-options')), { apiVersion: 'v1', kind: 'DeleteOptions' });
});

test("kubectl's create generators: Secret and ConfigMap decode exactly; Namespace is 415", () => {
  assert.deepEqual(decodeProtobufBody(fixture('kubectl-secret-create')), { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's1' }, data: { a: Buffer.from('b').toString('base64') }, type: 'Opaque' });
  assert.deepEqual(decodeProtobufBody(fixture('kubectl-configmap-create')), { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c1' }, data: { x: 'y' } });
  assert.throws(() => decodeProtobufBody(fixture('kubectl-namespace-create')), (e: ApiError) => e.code === 415 && /Kind=Namespace/.test(e.message) && /Secret, ConfigMap, DeleteOptions/.test(e.message));
});

test('hand-encoded fields: DeleteOptions zero grace period, preconditions, propagation, dryRun; metadata times, owners, maps', () => {
  const opts = Buffer.concat([field(1, 0), field(2, Buffer.concat([field(1, 'u-1'), field(2, '42')])), field(3, 0), field(4, 'Background'), field(5, 'All')]);
  assert.deepEqual(decodeProtobufBody(envelope('meta.k8s.io/v1', 'DeleteOptions', opts)), {
    apiVersion: 'meta.k8s.io/v1', kind: 'DeleteOptions', gracePeriodSeconds: 0, preconditions: { uid: 'u-1', resourceVersion: '42' }, orphanDependents: false, propagationPolicy: 'Background', dryRun: ['All'],
  });
  const entry = (k: string, v: string | Buffer): Buffer => Buffer.concat([field(1, k), field(2, v)]);
  const owner = Buffer.concat([field(1, 'Deployment'), field(3, 'web'), field(4, 'uid-9'), field(5, 'apps/v1'), field(6, 1)]);
  const meta = Buffer.concat([field(1, 'c'), field(3, 'shop'), field(7, 3), field(8, field(1, 1_700_000_000)), field(11, entry('app', 'web')), field(12, entry('note', 'x')), field(13, owner), field(14, 'keep')]);
  const cm = Buffer.concat([field(1, meta), field(2, entry('k', 'v')), field(3, entry('bin', Buffer.from([0, 255]))), field(4, 1)]);
  assert.deepEqual(decodeProtobufBody(envelope('v1', 'ConfigMap', cm)), {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'c', namespace: 'shop', generation: 3, creationTimestamp: '2023-11-14T22:13:20Z', labels: { app: 'web' }, annotations: { note: 'x' }, ownerReferences: [{ kind: 'Deployment', name: 'web', uid: 'uid-9', apiVersion: 'apps/v1', controller: true }], finalizers: ['keep'] },
    data: { k: 'v' },
    binaryData: { bin: Buffer.from([0, 255]).toString('base64') },
    immutable: true,
  });
  assert.deepEqual(decodeProtobufBody(envelope('apps/v1', 'DeleteOptions', field(4, 'Foreground'))), { apiVersion: 'apps/v1', kind: 'DeleteOptions', propagationPolicy: 'Foreground' });
  const secret = Buffer.concat([field(1, field(1, 's')), field(4, entry('plain', 'text')), field(5, 1)]);
  assert.deepEqual(decodeProtobufBody(envelope('v1', 'Secret', secret)), { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, stringData: { plain: 'text' }, immutable: true });
});

test('refused bodies: no magic, other kinds or versions, an encoding, truncated bytes, the wrong method, CBOR; Accept without JSON', () => {
  const PB = 'application/vnd.kubernetes.protobuf';
  assert.equal(code(() => decodeProtobufBody(Buffer.from('{"kind":"Secret"}'))), 415);
  assert.equal(code(() => decodeProtobufBody(envelope('v1', 'Pod', field(1, field(1, 'p'))))), 415);
  assert.equal(code(() => decodeProtobufBody(envelope('v2', 'Secret', field(1, field(1, 's'))))), 415);
  assert.equal(code(() => decodeProtobufBody(envelope('apps/v1beta1', 'DeleteOptions', Buffer.alloc(0)))), 415);
  assert.equal(code(() => decodeProtobufBody(envelope('v1', 'Secret', field(1, field(1, 's')), 'gzip'))), 415);
  assert.equal(code(() => decodeProtobufBody(Buffer.from('k8s\0\x0a\x10\x0a', 'latin1'))), 400);
  assert.equal(code(() => decodeProtobufBody(envelope('v1', 'Secret', Buffer.from([0x0a, 0x20, 0x0a])))), 400);
  assert.equal(code(() => jsonBody('DELETE', PB, fixture('helm-secret-create'))), 415);
  assert.equal(code(() => jsonBody('POST', PB, fixture('helm-delete-options'))), 415);
  assert.equal(code(() => jsonBody('PATCH', PB, fixture('helm-secret-create'))), 415);
  assert.equal(code(() => jsonBody('POST', 'application/cbor', Buffer.from([0xa0]))), 415);
  for (const a of [undefined, '', '*/*', 'application/json', 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json', 'application/vnd.kubernetes.protobuf, application/json', 'application/*']) assert.equal(acceptsJson(a), true, String(a));
  for (const a of ['application/vnd.kubernetes.protobuf', 'application/yaml', 'application/vnd.kubernetes.protobuf;stream=watch']) assert.equal(acceptsJson(a), false, a);
  const json = Buffer.from('{"a":1}');
  assert.equal(jsonBody('POST', 'application/json', json), json);
  assert.equal(jsonBody('POST', PB, Buffer.alloc(0)).length, 0);
});

test('the server stores, updates and deletes through protobuf bodies, and answers JSON', async (t) => {
  const api = await startTestKubeApi(t);
  const req = (method: string, path: string, body?: Buffer) =>
    fetch(`${api.url}/api/v1/namespaces/default/${path}`, { method, body, headers: { 'content-type': 'application/vnd.kubernetes.protobuf', accept: 'application/vnd.kubernetes.protobuf,application/json' }, signal: AbortSignal.timeout(10_000) });
  const created = await req('POST', 'secrets', fixture('helm-secret-create'));
  assert.equal(created.status, 201);
  assert.match(created.headers.get('content-type') ?? '', /application\/json/);
  const name = 'sh.helm.release.v1.t1.v1';
  const [stored] = api.server.objects('', 'secrets', 'default');
  assert.equal(stored.metadata.name, name);
  assert.equal((stored.metadata.labels ?? {}).status, 'pending-install');
  assert.equal((await req('PUT', `secrets/${name}`, fixture('helm-secret-update'))).status, 200);
  assert.equal((api.server.objects('', 'secrets', 'default')[0].metadata.labels ?? {}).status, 'deployed');
  const wrong = await req('POST', 'configmaps', fixture('helm-secret-create'));
  assert.equal(wrong.status, 400, 'a Secret sent to configmaps');
  const ns = await fetch(`${api.url}/api/v1/namespaces`, { method: 'POST', body: fixture('kubectl-namespace-create'), headers: { 'content-type': 'application/vnd.kubernetes.protobuf' } });
  assert.equal(ns.status, 415);
  assert.equal(((await ns.json()) as { reason: string }).reason, 'UnsupportedMediaType');
  assert.equal((await req('DELETE', `secrets/${name}`, fixture('helm-delete-options'))).status, 200);
  assert.deepEqual(api.server.objects('', 'secrets', 'default'), []);
  assert.equal((await req('POST', 'configmaps', fixture('helm-configmap-create'))).status, 201);
  assert.equal(api.server.objects('', 'configmaps', 'default')[0].metadata.name, 'sh.helm.release.v1.t2.v1');
  // helm lists its releases asking for protobuf or JSON: the answer is JSON.
  const listed = await fetch(`${api.url}/api/v1/namespaces/default/configmaps?labelSelector=${encodeURIComponent('name=t2,owner=helm')}`, { headers: { accept: 'application/vnd.kubernetes.protobuf,application/json' } });
  assert.match(listed.headers.get('content-type') ?? '', /^application\/json/);
  assert.deepEqual(((await listed.json()) as { items: { metadata: { name: string } }[] }).items.map((i) => i.metadata.name), ['sh.helm.release.v1.t2.v1']);
  const pbOnly = await fetch(`${api.url}/api/v1/namespaces/default/configmaps`, { headers: { accept: 'application/vnd.kubernetes.protobuf' } });
  assert.equal(pbOnly.status, 406);
  assert.equal(((await pbOnly.json()) as { reason: string }).reason, 'NotAcceptable');
});

test("kubectl's create generators: secret and configmap are stored; namespace is refused naming the kind", async (t) => {
  const api = await startTestKubeApi(t);
  await api.kubectlOk(['create', 'secret', 'generic', 'db', '--from-literal=password=s3cret']);
  await api.kubectlOk(['create', 'configmap', 'settings', '--from-literal=mode=fast']);
  const secret = api.server.objects('', 'secrets', 'default').find((s) => s.metadata.name === 'db') as { data?: Record<string, string>; type?: string } | undefined;
  assert.equal(Buffer.from(secret?.data?.password ?? '', 'base64').toString(), 's3cret');
  assert.equal(secret?.type, 'Opaque');
  assert.equal(await api.kubectlOk(['get', 'configmap', 'settings', '-o', 'jsonpath={.data.mode}']), 'fast');
  const ns = await api.kubectl(['create', 'namespace', 'zz']);
  assert.notEqual(ns.code, 0);
  assert.match(ns.stderr, /UnsupportedMediaType[\s\S]*Kind=Namespace/);
  assert.match((await api.kubectl(['create', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'zz' } }))).stdout, /namespace\/zz created/);
});
