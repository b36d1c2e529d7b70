// The sidecar injection webhook of the real controller over TLS: AdmissionReviews in, the JSONPatch
// applied with fast-json-patch, the pod checked against the Pod rules of the fields it touches and
// created in the test API server; bad reviews answered without a patch, counted, the controller up.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import fastJsonPatch from 'fast-json-patch';
import { Agent, fetch as ufetch } from 'undici';
import { POD_SCHEMA, podCrossFieldProblems } from '@sluice/kube';
import { startTestKubeApi } from './kube-api/index.js';
import { ROOT, processEnv, spawnProc, tempDir, until } from './support/processes.js';

type Obj = Record<string, unknown>;

function selfSigned(dir: string): { cert: string; key: string } {
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1',
    '-subj', '/CN=sluice-controller.sluice-system.svc', '-addext', 'subjectAltName=DNS:sluice-controller.sluice-system.svc,IP:127.0.0.1',
    '-keyout', join(dir, 'tls.key'), '-out', join(dir, 'tls.crt')], { stdio: 'pipe' });
  return { cert: join(dir, 'tls.crt'), key: join(dir, 'tls.key') };
}

const POD = {
  apiVersion: 'v1', kind: 'Pod',
  metadata: { name: 'shop-1', namespace: 'default', annotations: { 'sluice.dev/inject': 'true', 'sluice.dev/control-point': 'checkout', 'sluice.dev/fail-open': 'false' } },
  spec: {
    containers: [{
      name: 'shop', image: 'registry.example/shop:1',
      ports: [{ name: 'http', containerPort: 3000 }],
      readinessProbe: { httpGet: { path: '/healthz', port: 'http' } },
    }],
  },
};

const review = (uid: string, object: unknown, over: Obj = {}): string => JSON.stringify({
  apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview',
  request: { uid, kind: { group: '', version: 'v1', kind: 'Pod' }, resource: { group: '', version: 'v1', resource: 'pods' }, namespace: 'default', operation: 'CREATE', object, ...over },
});

test('the controller injects the tap into a pod over TLS; the patched pod is valid and the API server stores it', async (t) => {
  const dir = tempDir(t);
  const tls = selfSigned(dir);
  const api = await startTestKubeApi(t);
  // Readiness needs etcd, which this test does not start: wait for the listening line only (long: a loaded machine starts slowly).
  const c = spawnProc(t, join(ROOT, 'bin', 'sluice-controller'), [], processEnv('controller', {
      SLUICE_CONTROLLER_ETCD_ENDPOINTS: '["http://127.0.0.1:9"]',
      SLUICE_CONTROLLER_PROMETHEUS_ADDRESS: '127.0.0.1:9',
      SLUICE_CONTROLLER_SERVER_TLS_ENABLED: 'true',
      SLUICE_CONTROLLER_SERVER_TLS_CERT_FILE: tls.cert,
      SLUICE_CONTROLLER_SERVER_TLS_KEY_FILE: tls.key,
      SLUICE_CONTROLLER_INJECTOR_TAP_IMAGE: 'registry.example/sluice-tap:test',
      SLUICE_CONTROLLER_INJECTOR_AGENT_ADDRESS: 'sluice-agent.sluice-system.svc.cluster.local:8080',
  }));
  const line = await c.waitForLine(/serving gRPC and HTTP/, 60_000);
  const address = (JSON.parse(line) as { meta: { address: string } }).meta.address;
  const port = Number(address.slice(address.lastIndexOf(':') + 1));
  const dispatcher = new Agent({ connect: { ca: readFileSync(tls.cert) } });
  t.after(() => dispatcher.close());
  const base = `https://127.0.0.1:${port}`;
  const post = async (path: string, body: string | Buffer): Promise<{ status: number; body: Obj }> => {
    const r = await ufetch(`${base}${path}`, { method: 'POST', body, headers: { 'content-type': 'application/json' }, dispatcher });
    return { status: r.status, body: await r.json() as Obj };
  };
  await until(async () => { try { return (await post('/v1/admission/inject', '{}')).status === 400; } catch { return false; } }, 10_000, 'webhook over TLS');

  const a = await post('/v1/admission/inject', review('uid-1', POD));
  assert.equal(a.status, 200);
  const response = a.body.response as { uid: string; allowed: boolean; patchType: string; patch: string };
  assert.deepEqual([response.uid, response.allowed, response.patchType], ['uid-1', true, 'JSONPatch']);
  const ops = JSON.parse(Buffer.from(response.patch, 'base64').toString()) as fastJsonPatch.Operation[];
  const injected = fastJsonPatch.applyPatch(structuredClone(POD), ops, true, false).newDocument as Obj;
  const validate = new Ajv({ allErrors: true, strict: false }).compile(POD_SCHEMA);
  assert.ok(validate(injected), JSON.stringify(validate.errors));
  assert.deepEqual(podCrossFieldProblems(injected), []);

  const created = await api.kubectl(['create', '-f', '-', '-o', 'json'], JSON.stringify(injected));
  assert.equal(created.code, 0, created.stderr);
  const got = await api.kubectl(['get', 'pod', 'shop-1', '-n', 'default', '-o', 'json']);
  const stored = JSON.parse(got.stdout) as { metadata: { annotations: Obj }; spec: { containers: Obj[] } };
  assert.deepEqual(stored.spec.containers.map((x) => x.name), ['shop', 'sluice-tap']);
  const tap = stored.spec.containers[1];
  assert.equal(tap.image, 'registry.example/sluice-tap:test');
  assert.deepEqual(tap.args, ['--listen', '0.0.0.0:8081', '--upstream', 'http://127.0.0.1:3000', '--agent',
    'sluice-agent.sluice-system.svc.cluster.local:8080', '--control-point', 'checkout', '--admin', '0.0.0.0:9091', '--fail-closed']);
  assert.deepEqual(tap.ports, [{ name: 'http', containerPort: 8081, protocol: 'TCP' }, { name: 'sluice-admin', containerPort: 9091, protocol: 'TCP' }]);
  assert.equal(stored.metadata.annotations['sluice.dev/injected'], 'true');

  // Idempotent: the stored pod sent again (say, by the namespace webhook) gets no patch.
  const again = await post('/v1/admission/inject/namespace', review('uid-2', stored));
  assert.equal((again.body.response as Obj).patch, undefined);
  // A pod of a labelled namespace without annotations is injected through the namespace path only.
  const plain = { ...POD, metadata: { name: 'shop-2', namespace: 'default' } };
  assert.equal(((await post('/v1/admission/inject', review('uid-3', plain))).body.response as Obj).patch, undefined);
  assert.equal(typeof ((await post('/v1/admission/inject/namespace', review('uid-4', plain))).body.response as Obj).patch, 'string');

  // Bad reviews: answered, no patch, counted; the controller keeps serving.
  assert.equal((await post('/v1/admission/inject', '')).status, 400);
  assert.equal((await post('/v1/admission/inject', 'not json')).status, 400);
  const deployment = await post('/v1/admission/inject', review('uid-5', { spec: {} }, { kind: { group: 'apps', version: 'v1', kind: 'Deployment' } }));
  assert.deepEqual(deployment.body.response, { uid: 'uid-5', allowed: true });
  const odd = await post('/v1/admission/inject', review('uid-6', { metadata: { annotations: { 'sluice.dev/inject': 'true' } }, spec: { containers: 'x' } }));
  assert.equal((odd.body.response as Obj).allowed, true);
  assert.equal((odd.body.response as Obj).patch, undefined);
  const huge = await ufetch(`${base}/v1/admission/inject`, { method: 'POST', body: Buffer.alloc(5 * 1024 * 1024, 0x20), dispatcher });
  assert.equal(huge.status, 413);
  await huge.arrayBuffer();
  const metrics = await (await ufetch(`${base}/metrics`, { dispatcher })).text();
  assert.match(metrics, /admission_reviews_total\{result="injected",reason="injected"\} 2/);
  assert.match(metrics, /admission_reviews_total\{result="invalid",reason="too_large"\} 1/);
  assert.match(metrics, /admission_reviews_total\{result="refused",reason="malformed_pod"\} 1/);
  assert.match(metrics, /admission_reviews_total\{result="skipped",reason="not_a_pod"\} 1/);
  assert.equal(c.child.exitCode, null, "the controller is still running");
});
