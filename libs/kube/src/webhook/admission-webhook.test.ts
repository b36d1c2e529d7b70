import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Ajv } from 'ajv';
import fastJsonPatch from 'fast-json-patch';
import { Registry } from 'prom-client';
import { AdmissionWebhook, MAX_ADMISSION_BYTES } from './admission-webhook.js';
import { resolveConfig } from '@sluice/config';
import { DEFAULT_INJECT_OPTIONS, injectOptionsOf, type InjectOptions } from './inject-options.js';
import { POD_SCHEMA, podCrossFieldProblems } from './pod-check.js';
import { planInjection } from './pod-injection.js';

type Obj = Record<string, unknown>;
const validate = new Ajv({ allErrors: true, strict: false }).compile(POD_SCHEMA);

function pod(annotations?: Record<string, string>, extra: Obj = {}): Obj {
  return {
    apiVersion: 'v1', kind: 'Pod',
    metadata: { name: 'web-1', namespace: 'shop', ...(annotations ? { annotations } : {}) },
    spec: {
      containers: [{
        name: 'web', image: 'nginx',
        ports: [{ name: 'http', containerPort: 8080, protocol: 'TCP' }],
        readinessProbe: { httpGet: { path: '/ready', port: 'http' } },
        livenessProbe: { tcpSocket: { port: 8080 } },
      }],
      ...extra,
    },
  };
}

function review(object: unknown, over: Obj = {}): string {
  return JSON.stringify({
    apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview',
    request: {
      uid: 'u-1', kind: { group: '', version: 'v1', kind: 'Pod' }, resource: { group: '', version: 'v1', resource: 'pods' },
      namespace: 'shop', operation: 'CREATE', object, ...over,
    },
  });
}

interface Response { uid: string; allowed: boolean; patchType?: string; patch?: string; warnings?: string[] }
function responseOf(body: unknown): Response {
  return (body as { response: Response }).response;
}

/** The patched pod, checked against the schema and the cross-field rules. */
function patched(original: Obj, r: Response): Obj {
  assert.equal(r.patchType, 'JSONPatch');
  const ops = JSON.parse(Buffer.from(r.patch ?? '', 'base64').toString()) as fastJsonPatch.Operation[];
  assert.equal(fastJsonPatch.validate(ops, structuredClone(original)), undefined, 'the patch applies');
  const out = fastJsonPatch.applyPatch(structuredClone(original), ops, true, false).newDocument;
  assert.ok(validate(out), JSON.stringify(validate.errors));
  assert.deepEqual(podCrossFieldProblems(out), []);
  return out;
}

const containers = (p: Obj): Obj[] => (p.spec as { containers: Obj[] }).containers;
/** The webhook's options from the controller's configuration with these variables set. */
const injectorOf = (env: Record<string, string>): InjectOptions => injectOptionsOf(resolveConfig({ process: 'controller', env, requireKeys: [] }).injector);
const webhook = (o: InjectOptions = DEFAULT_INJECT_OPTIONS, registry?: Registry) => new AdmissionWebhook({ inject: o, ...(registry ? { registry } : {}) });

test('an annotated pod gets the tap, which takes over the workload port name', () => {
  const w = webhook();
  const p = pod({ 'sluice.dev/inject': 'true', 'sluice.dev/control-point': 'checkout' });
  const a = w.review(review(p), false);
  assert.equal(a.status, 200);
  assert.equal(a.result, 'injected');
  const r = responseOf(a.body);
  assert.equal(r.uid, 'u-1');
  assert.equal(r.allowed, true);
  const out = patched(p, r);
  const [web, tap] = containers(out);
  assert.equal(tap.name, 'sluice-tap');
  assert.deepEqual(tap.args, ['--listen', '0.0.0.0:8081', '--upstream', 'http://127.0.0.1:8080', '--agent',
    DEFAULT_INJECT_OPTIONS.agentAddress, '--control-point', 'checkout', '--admin', '0.0.0.0:9091']);
  assert.deepEqual(tap.ports, [{ name: 'http', containerPort: 8081, protocol: 'TCP' }, { name: 'sluice-admin', containerPort: 9091, protocol: 'TCP' }]);
  assert.deepEqual(web.ports, [{ name: 'sluice-upstream', containerPort: 8080, protocol: 'TCP' }]);
  // The workload's probe that named the port now names its number.
  assert.deepEqual(web.readinessProbe, { httpGet: { path: '/ready', port: 8080 } });
  assert.equal((out.metadata as { annotations: Obj }).annotations['sluice.dev/injected'], 'true');
});

test('injection is idempotent: the injected pod is left alone', () => {
  const w = webhook();
  const p = pod({ 'sluice.dev/inject': 'true' });
  const once = patched(p, responseOf(w.review(review(p), false).body));
  const again = w.review(review(once), true);
  assert.equal(again.result, 'skipped');
  assert.equal(again.reason, 'already_injected');
  assert.equal(responseOf(again.body).patch, undefined);
  // A pod that already has a container named sluice-tap (but no annotation) too.
  const manual = pod({ 'sluice.dev/inject': 'true' });
  containers(manual).push({ name: 'sluice-tap', image: 'x' });
  assert.equal(w.review(review(manual), false).reason, 'already_injected');
});

test('namespace label, opt-out and no request', () => {
  const w = webhook();
  assert.equal(w.review(review(pod()), false).reason, 'not_requested');
  assert.equal(w.review(review(pod()), true).result, 'injected');
  assert.equal(w.review(review(pod({ 'sluice.dev/inject': 'false' })), true).reason, 'opted_out');
});

test('fail-open, upstream port by annotation, unnamed port, no annotations', () => {
  const p = pod({ 'sluice.dev/inject': 'true', 'sluice.dev/fail-open': 'false', 'sluice.dev/upstream-port': '9000' });
  const out = patched(p, responseOf(webhook().review(review(p), false).body));
  const tap = containers(out)[1];
  assert.deepEqual((tap.args as string[]).slice(2, 4), ['--upstream', 'http://127.0.0.1:9000']);
  assert.equal((tap.args as string[]).at(-1), '--fail-closed');
  assert.equal((tap.ports as Obj[])[0].name, 'sluice-tap', 'an undeclared port: the tap port has its own name');
  assert.deepEqual(containers(out)[0].ports, [{ name: 'http', containerPort: 8080, protocol: 'TCP' }], 'the workload is unchanged');
  // By name, in the second container; no metadata.annotations at all with the namespace label.
  const two = pod(undefined, {});
  containers(two).push({ name: 'api', image: 'api', ports: [{ name: 'grpc', containerPort: 7000 }] });
  delete (two.metadata as Obj).annotations;
  const out2 = patched(two, responseOf(webhook().review(review(two), true).body));
  assert.equal((containers(out2)[2].args as string[])[3], 'http://127.0.0.1:8080');
  const named = pod({ 'sluice.dev/inject': 'true', 'sluice.dev/upstream-port': 'grpc' });
  containers(named).push({ name: 'api', image: 'api', ports: [{ name: 'grpc', containerPort: 7000 }] });
  const out3 = patched(named, responseOf(webhook().review(review(named), false).body));
  assert.equal((containers(out3)[2].args as string[])[3], 'http://127.0.0.1:7000');
  assert.deepEqual(containers(out3)[1].ports, [{ name: 'sluice-upstream', containerPort: 7000 }]);
});

test('sidecar mode adds the agent with its config volume, serving the tap itself: no tap container', () => {
  const o = injectorOf({ SLUICE_CONTROLLER_INJECTOR_MODE: 'sidecar', SLUICE_CONTROLLER_INJECTOR_SIDECAR_AGENT_PORT: '8095',
    SLUICE_CONTROLLER_INJECTOR_SIDECAR_AGENT_ENV: '{"SLUICE_AGENT_ETCD_ENDPOINTS":"[\\"http://etcd:2379\\"]"}' });
  const p = pod({ 'sluice.dev/inject': 'true' }, { volumes: [{ name: 'data', emptyDir: {} }] });
  const out = patched(p, responseOf(webhook(o).review(review(p), false).body));
  const names = containers(out).map((c) => c.name);
  assert.deepEqual(names, ['web', 'sluice-agent'], 'one process per pod: the agent serves the tap');
  const agentEnv = containers(out)[1].env as Obj[];
  const tapEnv = Object.fromEntries(agentEnv.filter((e) => String(e.name).startsWith('SLUICE_AGENT_TAP_')).map((e) => [e.name, e.value]));
  assert.deepEqual(tapEnv, {
    SLUICE_AGENT_TAP_ENABLED: 'true', SLUICE_AGENT_TAP_LISTEN: '0.0.0.0:8081', SLUICE_AGENT_TAP_UPSTREAM: 'http://127.0.0.1:8080',
    SLUICE_AGENT_TAP_CONTROL_POINT: 'ingress', SLUICE_AGENT_TAP_FAIL_CLOSED: 'false',
  });
  assert.deepEqual(containers(out)[1].ports, [{ name: 'sluice-agent', containerPort: 8095, protocol: 'TCP' }, { name: 'http', containerPort: 8081, protocol: 'TCP' }],
    'the workload port\'s name moves to the agent\'s tap port');
  assert.deepEqual(containers(out)[0].ports, [{ name: 'sluice-upstream', containerPort: 8080, protocol: 'TCP' }]);
  // A second admission of the injected pod (the annotation lost) leaves it alone: it has the agent container.
  const again = structuredClone(out);
  delete ((again.metadata as Obj).annotations as Obj)['sluice.dev/injected'];
  assert.equal(webhook(o).review(review(again), false).result, 'skipped');
  assert.ok(agentEnv.some((e) => e.name === 'SLUICE_AGENT_SERVER_LISTENER_ADDR' && e.value === ':8095'));
  assert.ok(agentEnv.some((e) => e.name === 'SLUICE_AGENT_ETCD_ENDPOINTS' && e.value === '["http://etcd:2379"]'));
  assert.deepEqual((out.spec as { volumes: Obj[] }).volumes.map((v) => v.name), ['data', 'sluice-agent-config', 'sluice-agent-tmp']);
  // Agent functions: the agent dials the controller's Service, plaintext as the controller serves.
  assert.ok(agentEnv.some((e) => e.name === 'SLUICE_AGENT_AGENT_FUNCTIONS_ENDPOINTS' && e.value === '["sluice-controller.sluice-system.svc.cluster.local:8080"]'));
  assert.ok(agentEnv.some((e) => e.name === 'SLUICE_AGENT_AGENT_FUNCTIONS_CLIENT_GRPC_INSECURE' && e.value === 'true'));
  // Without volumes the list is created.
  const bare = pod({ 'sluice.dev/inject': 'true' });
  const out2 = patched(bare, responseOf(webhook(o).review(review(bare), false).body));
  assert.equal((out2.spec as { volumes: Obj[] }).volumes.length, 2);
});

test('sidecar agents dial the controller for agent functions: its address, TLS as it serves, the env\'s endpoints win, empty for none', () => {
  const envOf = (o: InjectOptions): Record<string, unknown> => {
    const p = pod({ 'sluice.dev/inject': 'true' });
    const out = patched(p, responseOf(webhook(o).review(review(p), false).body));
    return Object.fromEntries((containers(out)[1].env as Obj[]).filter((e) => String(e.name).startsWith('SLUICE_AGENT_AGENT_FUNCTIONS_')).map((e) => [e.name, e.value]));
  };
  const sidecar = { SLUICE_CONTROLLER_INJECTOR_MODE: 'sidecar' };
  assert.deepEqual(envOf(injectorOf({ ...sidecar, SLUICE_CONTROLLER_INJECTOR_CONTROLLER_ADDRESS: 'brain.ops.svc:9000' })), {
    SLUICE_AGENT_AGENT_FUNCTIONS_ENDPOINTS: '["brain.ops.svc:9000"]', SLUICE_AGENT_AGENT_FUNCTIONS_CLIENT_GRPC_INSECURE: 'true',
  });
  const tls = injectOptionsOf(resolveConfig({ process: 'controller', env: sidecar, requireKeys: [] }).injector, { tls: true });
  assert.deepEqual(envOf(tls), { SLUICE_AGENT_AGENT_FUNCTIONS_ENDPOINTS: '["sluice-controller.sluice-system.svc.cluster.local:8080"]' }, 'TLS: no insecure');
  assert.deepEqual(envOf(injectorOf({ ...sidecar, SLUICE_CONTROLLER_INJECTOR_SIDECAR_AGENT_ENV: '{"SLUICE_AGENT_AGENT_FUNCTIONS_ENDPOINTS":"[\\"other:1\\"]"}' })),
    { SLUICE_AGENT_AGENT_FUNCTIONS_ENDPOINTS: '["other:1"]' }, 'the env\'s endpoints are kept, nothing added');
  assert.deepEqual(envOf(injectorOf({ ...sidecar, SLUICE_CONTROLLER_INJECTOR_CONTROLLER_ADDRESS: '' })), {}, 'empty: no agent functions');
  // A token Secret: mounted, and its file is the agent's token file.
  const withToken = injectorOf({ ...sidecar, SLUICE_CONTROLLER_INJECTOR_SIDECAR_AGENT_TOKEN_SECRET: 'agents-token' });
  assert.equal(envOf(withToken).SLUICE_AGENT_AGENT_FUNCTIONS_TOKEN_FILE, '/etc/sluice/agent/agent-functions/token');
  const p = pod({ 'sluice.dev/inject': 'true' });
  const out = patched(p, responseOf(webhook(withToken).review(review(p), false).body));
  assert.deepEqual((out.spec as { volumes: Obj[] }).volumes.find((v) => v.name === 'sluice-agent-functions-token'),
    { name: 'sluice-agent-functions-token', secret: { secretName: 'agents-token', defaultMode: 0o444, items: [{ key: 'token', path: 'token' }] } });
  assert.ok((containers(out)[1].volumeMounts as Obj[]).some((m) => m.name === 'sluice-agent-functions-token' && m.mountPath === '/etc/sluice/agent/agent-functions' && m.readOnly === true));
  // The mounted file wins over a token file of sidecar_agent_env (no variable twice).
  const both = injectorOf({ ...sidecar, SLUICE_CONTROLLER_INJECTOR_SIDECAR_AGENT_TOKEN_SECRET: 'agents-token', SLUICE_CONTROLLER_INJECTOR_SIDECAR_AGENT_ENV: '{"SLUICE_AGENT_AGENT_FUNCTIONS_TOKEN_FILE":"/x"}' });
  const bothOut = patched(p, responseOf(webhook(both).review(review(p), false).body));
  assert.deepEqual((containers(bothOut)[1].env as Obj[]).filter((e) => e.name === 'SLUICE_AGENT_AGENT_FUNCTIONS_TOKEN_FILE').map((e) => e.value), ['/etc/sluice/agent/agent-functions/token']);
  assert.throws(() => injectorOf({ SLUICE_CONTROLLER_INJECTOR_SIDECAR_AGENT_TOKEN_SECRET: 'Not_A_Name' }), /injector\.sidecar_agent_token_secret/);
  // The controller's CA from a ConfigMap: mounted and set as the CA file when the controller serves TLS; not for a plaintext one.
  const caOf = (env: Record<string, string>, controllerTls: boolean): InjectOptions => injectOptionsOf(resolveConfig({ process: 'controller', env: { ...sidecar, ...env }, requireKeys: [] }).injector, { tls: controllerTls });
  const withCa = caOf({ SLUICE_CONTROLLER_INJECTOR_SIDECAR_AGENT_CONTROLLER_CA_CONFIGMAP: 'controller-ca' }, true);
  assert.equal(envOf(withCa).SLUICE_AGENT_AGENT_FUNCTIONS_CLIENT_GRPC_TLS_CA_FILE, '/etc/sluice/agent/controller-ca/ca.crt');
  const caOut = patched(p, responseOf(webhook(withCa).review(review(p), false).body));
  assert.deepEqual((caOut.spec as { volumes: Obj[] }).volumes.find((v) => v.name === 'sluice-controller-ca'),
    { name: 'sluice-controller-ca', configMap: { name: 'controller-ca', defaultMode: 0o444, items: [{ key: 'ca.crt', path: 'ca.crt' }] } });
  assert.ok((containers(caOut)[1].volumeMounts as Obj[]).some((m) => m.name === 'sluice-controller-ca' && m.mountPath === '/etc/sluice/agent/controller-ca' && m.readOnly === true));
  const plainCa = caOf({ SLUICE_CONTROLLER_INJECTOR_SIDECAR_AGENT_CONTROLLER_CA_CONFIGMAP: 'controller-ca' }, false);
  assert.equal(envOf(plainCa).SLUICE_AGENT_AGENT_FUNCTIONS_CLIENT_GRPC_TLS_CA_FILE, undefined, 'a plaintext controller: no CA');
  assert.equal(((patched(p, responseOf(webhook(plainCa).review(review(p), false).body)).spec as { volumes: Obj[] }).volumes).some((v) => v.name === 'sluice-controller-ca'), false);
  const ownCa = caOf({ SLUICE_CONTROLLER_INJECTOR_SIDECAR_AGENT_CONTROLLER_CA_CONFIGMAP: 'controller-ca', SLUICE_CONTROLLER_INJECTOR_SIDECAR_AGENT_ENV: '{"SLUICE_AGENT_AGENT_FUNCTIONS_CLIENT_GRPC_TLS_CA_FILE":"/mine/ca.pem"}' }, true);
  assert.deepEqual((containers(patched(p, responseOf(webhook(ownCa).review(review(p), false).body)))[1].env as Obj[]).filter((e) => e.name === 'SLUICE_AGENT_AGENT_FUNCTIONS_CLIENT_GRPC_TLS_CA_FILE').map((e) => e.value), ['/mine/ca.pem'], 'the env\'s CA file wins, once');
  assert.throws(() => injectorOf({ SLUICE_CONTROLLER_INJECTOR_SIDECAR_AGENT_CONTROLLER_CA_CONFIGMAP: 'Not_A_Name' }), /injector\.sidecar_agent_controller_ca_configmap/);
  assert.throws(() => injectorOf({ SLUICE_CONTROLLER_INJECTOR_CONTROLLER_ADDRESS: 'no port' }), /injector\.controller_address/);
});

test('pods it cannot inject are admitted unchanged with a warning, and counted', async () => {
  const registry = new Registry();
  const w = webhook(DEFAULT_INJECT_OPTIONS, registry);
  const cases: [unknown, string][] = [
    [pod({ 'sluice.dev/inject': 'yes' }), 'bad_annotation'],
    [pod({ 'sluice.dev/inject': 'true', 'sluice.dev/fail-open': 'maybe' }), 'bad_annotation'],
    [pod({ 'sluice.dev/inject': 'true', 'sluice.dev/upstream-port': '70000' }), 'bad_annotation'],
    [pod({ 'sluice.dev/inject': 'true', 'sluice.dev/upstream-port': 'nope' }), 'bad_annotation'],
    [pod({ 'sluice.dev/inject': 'true', 'sluice.dev/control-point': 'a b' }), 'bad_annotation'],
    [pod({ 'sluice.dev/inject': 'true', 'sluice.dev/upstream-port': '8081' }), 'port_conflict'],
    [{ metadata: { annotations: { 'sluice.dev/inject': 'true' } }, spec: { containers: [{ name: 'x', image: 'x' }] } }, 'no_port'],
    [{ metadata: { annotations: { 'sluice.dev/inject': 'true' } }, spec: { containers: [] } }, 'malformed_pod'],
    [{ metadata: { annotations: 'true' }, spec: { containers: [{ name: 'x' }] } }, 'malformed_pod'],
    [{ metadata: 5, spec: {} }, 'malformed_pod'],
    [{ spec: { containers: [null, 3] } }, 'malformed_pod'],
    [[], 'malformed_pod'],
    [null, 'malformed_pod'],
    ['pod', 'malformed_pod'],
  ];
  for (const [object, reason] of cases) {
    const a = w.review(review(object), true);
    assert.equal(a.status, 200, JSON.stringify(object));
    assert.equal(a.result, 'refused', JSON.stringify(object));
    assert.equal(a.reason, reason, JSON.stringify(object));
    const r = responseOf(a.body);
    assert.equal(r.allowed, true);
    assert.equal(r.patch, undefined);
    assert.match(r.warnings?.[0] ?? '', /^sluice: not injected: /);
  }
  const counts = await w.counts();
  assert.equal(counts.get('refused/bad_annotation'), 5);
  assert.equal(counts.get('refused/malformed_pod'), 7);
  assert.match(await registry.metrics(), /admission_reviews_total\{result="refused",reason="port_conflict"\} 1/);
});

test('reviews that are empty, not JSON, of another kind or huge are answered without a patch', () => {
  const w = webhook();
  const invalid: [string | undefined, string, number][] = [
    [undefined, 'empty', 400],
    ['', 'empty', 400],
    ['{', 'malformed_json', 400],
    ['[]', 'not_a_review', 400],
    ['{}', 'not_a_review', 400],
    [JSON.stringify({ apiVersion: 'admission.k8s.io/v1beta1', kind: 'AdmissionReview', request: { uid: 'x' } }), 'not_a_review', 400],
    [JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview' }), 'no_request', 400],
    [JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', request: { uid: 7 } }), 'no_request', 400],
    ['x'.repeat(MAX_ADMISSION_BYTES + 1), 'too_large', 413],
  ];
  for (const [body, reason, status] of invalid) {
    const a = w.review(body, true);
    assert.equal(a.result, 'invalid', reason);
    assert.equal(a.reason, reason);
    assert.equal(a.status, status);
    assert.equal((a.body as Obj).kind, 'Status');
  }
  const deployment = review({ spec: {} }, { kind: { group: 'apps', version: 'v1', kind: 'Deployment' } });
  assert.equal(w.review(deployment, true).reason, 'not_a_pod');
  assert.equal(w.review(review(pod(), { subResource: 'status' }), true).reason, 'not_a_pod');
  assert.equal(w.review(review(pod(), { operation: 'UPDATE' }), true).reason, 'not_create');
  // A big pod (5 000 env entries, ~0.5 MB) under the limit is still injected.
  const big = pod({ 'sluice.dev/inject': 'true' });
  (containers(big)[0] as Obj).env = Array.from({ length: 5_000 }, (_, i) => ({ name: `V${i}`, value: 'x'.repeat(100) }));
  const a = w.review(review(big), false);
  assert.equal(a.result, 'injected');
  patched(big, responseOf(a.body));
});

test('annotation keys are escaped as JSON pointers', () => {
  const plan = planInjection(pod({ 'sluice.dev/inject': 'true', 'a~b/c': 'x' }), { namespaceEnabled: false }, DEFAULT_INJECT_OPTIONS);
  assert.equal(plan.action, 'inject');
  if (plan.action === 'inject') assert.equal(plan.patch.at(-1)?.path, '/metadata/annotations/sluice.dev~1injected');
});

test('injector options from the controller configuration; bad values are refused naming the key', () => {
  assert.deepEqual(DEFAULT_INJECT_OPTIONS, {
    mode: 'daemonset', tapImage: 'sluice/tap:0.1.0', agentImage: 'sluice/agent:0.1.0', imagePullPolicy: 'IfNotPresent', tapPort: 8081,
    agentAddress: 'sluice-agent.sluice-system.svc.cluster.local:8080', sidecarAgentPort: 8090, sidecarAgentConfigMap: 'sluice-agent-sidecar',
    controlPoint: 'ingress', sidecarAgentEnv: {}, tapAdminPort: 9091, agentTlsSecret: '', agentTlsClientCert: false, sidecarAgentKeySecret: '', sidecarAgentMemoryLimit: '256Mi', sidecarAgentSemiSpaceMb: 16,
    controllerAddress: 'sluice-controller.sluice-system.svc.cluster.local:8080', controllerTls: false, sidecarAgentTokenSecret: '', sidecarAgentControllerCaConfigMap: '',
  });
  assert.deepEqual(injectorOf({}), DEFAULT_INJECT_OPTIONS);
  const o = injectorOf({ SLUICE_CONTROLLER_INJECTOR_TAP_IMAGE: 'r/tap:1', SLUICE_CONTROLLER_INJECTOR_TAP_PORT: '9999', SLUICE_CONTROLLER_INJECTOR_CONTROL_POINT: 'edge',
    SLUICE_CONTROLLER_INJECTOR_SIDECAR_AGENT_CONFIG_MAP: 'agent-config', SLUICE_CONTROLLER_INJECTOR_IMAGE_PULL_POLICY: 'Always' });
  assert.equal(o.tapImage, 'r/tap:1');
  assert.equal(o.tapPort, 9999);
  assert.equal(o.controlPoint, 'edge');
  assert.equal(o.sidecarAgentConfigMap, 'agent-config');
  assert.equal(o.imagePullPolicy, 'Always');
  // The old variables the charts set are still read, until the next release.
  assert.equal(injectorOf({ SLUICE_INJECTOR_MODE: 'sidecar' }).mode, 'sidecar');
  assert.throws(() => injectorOf({ SLUICE_CONTROLLER_INJECTOR_MODE: 'node' }), /injector\.mode \(SLUICE_CONTROLLER_INJECTOR_MODE\): value "node"/);
  assert.throws(() => injectorOf({ SLUICE_CONTROLLER_INJECTOR_TAP_PORT: '0' }), /injector\.tap_port .*below the minimum 1/);
  assert.throws(() => injectorOf({ SLUICE_INJECTOR_TAP_PORT: '80a' }), /injector\.tap_port .*"80a" is not a number.*set by SLUICE_INJECTOR_TAP_PORT/);
  assert.throws(() => injectorOf({ SLUICE_CONTROLLER_INJECTOR_TAP_IMAGE: 'Sluice/Tap' }), /injector\.tap_image .*is not image/);
  assert.throws(() => injectorOf({ SLUICE_CONTROLLER_INJECTOR_TAP_PORT: '8090' }), /also injector\.sidecar_agent_port/);
  for (const bad of ['[]', '{', '{"a":"x"}', '{"SLUICE_AGENT_X":1}']) {
    assert.throws(() => injectorOf({ SLUICE_CONTROLLER_INJECTOR_SIDECAR_AGENT_ENV: bad }), /injector\.sidecar_agent_env/, bad);
  }
});
