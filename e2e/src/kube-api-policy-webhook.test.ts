// The Policy validating webhook end to end: the controller chart's ValidatingWebhookConfiguration
// (helm template, with a test certificate) applied to the test API server, which calls the real
// controller over TLS through a Service and its EndpointSlice; kubectl apply of Policies the
// compiler refuses fails naming the JSON path, good ones are stored, selectors and failurePolicy
// (controller stopped) do what the chart's values say.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Agent, fetch as ufetch } from 'undici';
import { parseAllDocuments } from 'yaml';
import { startTestKubeApi, type TestKubeApi } from './kube-api/index.js';
import { ROOT, processEnv, spawnProc, tempDir, until } from './support/processes.js';

const NS = 'sluice-system';
const SVC = 'sluice-controller';
const HOOK = 'policy.validate.sluice.dev';
const RL = 'spec.circuit.components[0].flow_control.rate_limiter';

function certificate(dir: string): { cert: string; key: string } {
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1',
    '-subj', `/CN=${SVC}.${NS}.svc`, '-addext', `subjectAltName=DNS:${SVC}.${NS}.svc,IP:127.0.0.1`,
    '-keyout', join(dir, 'tls.key'), '-out', join(dir, 'tls.crt')], { stdio: 'pipe' });
  return { cert: join(dir, 'tls.crt'), key: join(dir, 'tls.key') };
}

/** A Policy with a rate limiter whose fill amount is `fill` (a constant or a signal name). */
function policy(name: string, fill: number | string, opts: { namespace?: string; labels?: Record<string, string>; ignoredPart?: boolean } = {}): string {
  const port = typeof fill === 'number' ? `{constant_signal: {value: ${fill}}}` : `{signal_name: ${fill}}`;
  return [
    'apiVersion: sluice.dev/v1alpha1',
    'kind: Policy',
    'metadata:',
    `  name: ${name}`,
    `  namespace: ${opts.namespace ?? 'default'}`,
    ...(opts.labels ? ['  labels:', ...Object.entries(opts.labels).map(([k, v]) => `    ${k}: "${v}"`)] : []),
    'spec:',
    ...(opts.ignoredPart ? ['  resources:', '    infra_meters: {kubeletstats: {receivers: {}}}'] : []),
    '  circuit:',
    '    evaluation_interval: 1s',
    '    components:',
    '      - flow_control:',
    '          rate_limiter:',
    `            in_ports: {bucket_capacity: {constant_signal: {value: 20}}, fill_amount: ${port}}`,
    '            parameters: {label_key: user, interval: 1s}',
    '            selectors: [{control_point: ingress}]',
    '',
  ].join('\n');
}

/** The Service in front of the controller and its EndpointSlice at 127.0.0.1:`port`. */
const endpoints = (port: number): string => `apiVersion: v1
kind: Service
metadata: {name: ${SVC}, namespace: ${NS}}
spec:
  ports: [{name: server, port: 8080, targetPort: server}]
---
apiVersion: discovery.k8s.io/v1
kind: EndpointSlice
metadata:
  name: ${SVC}-1
  namespace: ${NS}
  labels: {kubernetes.io/service-name: ${SVC}}
addressType: IPv4
ports: [{name: server, port: ${port}, protocol: TCP}]
endpoints: [{addresses: ["127.0.0.1"], conditions: {ready: true}}]
`;

const names = (api: TestKubeApi, ns = 'default'): string[] => api.server.objects('sluice.dev', 'policies', ns).map((o) => o.metadata.name).sort();

test('kubectl apply of a Policy the controller cannot compile is refused with the JSON path; failurePolicy when the controller is down', async (t) => {
  const dir = tempDir(t);
  const tls = certificate(dir);
  const api = await startTestKubeApi(t);
  await api.kubectlOk(['apply', '-f', join(ROOT, 'crds', 'policies.sluice.dev.yaml')]);
  await api.kubectlOk(['apply', '-f', '-'], `apiVersion: v1\nkind: Namespace\nmetadata: {name: ${NS}}\n---\napiVersion: v1\nkind: Namespace\nmetadata: {name: unchecked, labels: {sluice.dev/validate-policies: "false"}}\n`);

  const controller = spawnProc(t, join(ROOT, 'bin', 'sluice-controller'), [], processEnv('controller', {
    SLUICE_CONTROLLER_ETCD_ENDPOINTS: '["http://127.0.0.1:9"]',
    SLUICE_CONTROLLER_PROMETHEUS_ADDRESS: '127.0.0.1:9',
    SLUICE_CONTROLLER_SERVER_TLS_ENABLED: 'true',
    SLUICE_CONTROLLER_SERVER_TLS_CERT_FILE: tls.cert,
    SLUICE_CONTROLLER_SERVER_TLS_KEY_FILE: tls.key,
  }));
  const line = await controller.waitForLine(/serving gRPC and HTTP/, 60_000);
  const address = (JSON.parse(line) as { meta: { address: string } }).meta.address;
  const port = Number(address.slice(address.lastIndexOf(':') + 1));

  // The chart's webhook objects, rendered with the test certificate; every namespace but one labelled out.
  const pem = (f: string): string => readFileSync(f, 'utf8');
  const rendered = execFileSync(join(ROOT, 'tools', 'bin', 'helm'), ['template', SVC, join(ROOT, 'charts', 'sluice-controller'), '--namespace', NS,
    '--show-only', 'templates/webhook.yaml', '--set', 'webhook.enabled=false', '--set-string', `webhook.tls.certificate=${pem(tls.cert)}`,
    '--set-string', `webhook.tls.key=${pem(tls.key)}`, '--set-string', `webhook.tls.caBundle=${pem(tls.cert)}`,
    '--set-json', 'policyValidation.namespaceSelector={"matchExpressions":[{"key":"sluice.dev/validate-policies","operator":"NotIn","values":["false"]}]}'], { encoding: 'utf8' });
  // The plain manifests register the same webhook (their caBundle is set by webhook-certificate.sh).
  const hookOf = (text: string): Record<string, unknown> => {
    const doc = parseAllDocuments(text).map((d) => d.toJS() as { kind?: string; webhooks?: Record<string, unknown>[] } | null).find((d) => d?.kind === 'ValidatingWebhookConfiguration');
    const w = { ...doc?.webhooks?.[0] };
    delete w.namespaceSelector;
    w.clientConfig = { ...(w.clientConfig as object), caBundle: undefined };
    return w;
  };
  assert.deepEqual(hookOf(rendered), hookOf(readFileSync(join(ROOT, 'deploy', 'kubernetes', '10-sluice-controller.yaml'), 'utf8')));
  await api.kubectlOk(['apply', '-f', '-'], rendered);
  await api.kubectlOk(['apply', '-f', '-'], endpoints(port));

  // Malformed reviews straight to the controller: a clear 400, the controller keeps serving.
  const dispatcher = new Agent({ connect: { ca: readFileSync(tls.cert), servername: `${SVC}.${NS}.svc` } });
  t.after(() => dispatcher.close());
  const raw = async (body: string): Promise<{ status: number; message: string }> => {
    const r = await ufetch(`https://127.0.0.1:${port}/v1/admission/validate/policy`, { method: 'POST', body, headers: { 'content-type': 'application/json' }, dispatcher });
    return { status: r.status, message: ((await r.json()) as { message: string }).message };
  };
  await until(async () => { try { return (await raw('{')).status === 400; } catch { return false; } }, 10_000, 'webhook over TLS');
  assert.deepEqual(await raw('{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{}}'), { status: 400, message: 'request.uid is missing' });
  assert.match((await raw('not json')).message, /^the body is not JSON/);

  await t.test('a signal read but never written is refused, the path in kubectl\'s output, nothing stored', async () => {
    const r = await api.kubectl(['apply', '-f', '-'], policy('limits', 'NOPE'));
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, new RegExp(`admission webhook "${HOOK}" denied the request: policy "limits" is invalid: `));
    assert.ok(r.stderr.includes(`${RL}.in_ports.fill_amount.signal_name: signal "NOPE" is read but no component writes it`), r.stderr);
    assert.deepEqual(names(api), []);
  });

  await t.test('a cycle and a regex that does not compile are refused together, each at its path', async () => {
    const add = (lhs: string, out: string): string => `      - arithmetic_combinator: {operator: add, in_ports: {lhs: {signal_name: ${lhs}}, rhs: {constant_signal: {value: 1}}}, out_ports: {output: {signal_name: ${out}}}}`;
    const yaml = [
      'apiVersion: sluice.dev/v1alpha1', 'kind: Policy', 'metadata: {name: tangled, namespace: default}', 'spec:', '  circuit:', '    components:',
      '      - flow_control:', '          rate_limiter:',
      '            in_ports: {bucket_capacity: {signal_name: A}, fill_amount: {constant_signal: {value: 1}}}',
      '            parameters: {interval: 1s}',
      "            selectors: [{control_point: ingress, label_matcher: {expression: {label_matches: {label: user, regex: '('}}}}]",
      add('B', 'A'), add('A', 'B'), '',
    ].join('\n');
    const r = await api.kubectl(['apply', '-f', '-'], yaml);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /spec\.circuit\.components\[0\]\.flow_control\.rate_limiter\.selectors\[0\]\.label_matcher\.expression\.label_matches\.regex: [^;]*does not compile/);
    assert.match(r.stderr, /spec\.circuit\.components\[1\]\.arithmetic_combinator: the signals form a cycle/);
    assert.deepEqual(names(api), []);
  });

  await t.test('a good Policy is stored; one with parts the controller ignores is stored with a warning', async () => {
    await api.kubectlOk(['apply', '-f', '-'], policy('limits', 10));
    assert.deepEqual(names(api), ['limits']);
    const r = await api.kubectl(['apply', '-f', '-'], policy('inert', 10, { ignoredPart: true }));
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /Warning: spec\.resources\.infra_meters: accepted and ignored by the controller/);
    assert.deepEqual(names(api), ['inert', 'limits']);
  });

  await t.test('an update the compiler refuses is refused and the stored spec stays', async () => {
    const before = api.server.objects('sluice.dev', 'policies', 'default').find((o) => o.metadata.name === 'limits');
    const r = await api.kubectl(['apply', '-f', '-'], policy('limits', 'GONE'));
    assert.notEqual(r.code, 0);
    assert.ok(r.stderr.includes(`${RL}.in_ports.fill_amount.signal_name: signal "GONE" is read`), r.stderr);
    const after = api.server.objects('sluice.dev', 'policies', 'default').find((o) => o.metadata.name === 'limits');
    assert.deepEqual(after?.spec, before?.spec);
    assert.equal(after?.metadata.resourceVersion, before?.metadata.resourceVersion);
  });

  await t.test('a namespace the namespaceSelector leaves out is not checked', async () => {
    await api.kubectlOk(['apply', '-f', '-'], policy('unchecked-bad', 'NOPE', { namespace: 'unchecked' }));
    assert.deepEqual(names(api, 'unchecked'), ['unchecked-bad']);
  });

  await t.test('controller down: failurePolicy Fail refuses every Policy, Ignore admits them unchecked', async () => {
    controller.child.kill('SIGTERM');
    await controller.exited;
    const r = await api.kubectl(['apply', '-f', '-'], policy('while-down', 10));
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, new RegExp(`failed calling webhook "${HOOK}"`));
    assert.ok(r.stderr.includes(`Post "https://${SVC}.${NS}.svc:8080/v1/admission/validate/policy?timeout=10s": connect ECONNREFUSED`), r.stderr);
    assert.ok(!names(api).includes('while-down'));
    await api.kubectlOk(['patch', 'validatingwebhookconfiguration', `${SVC}-${NS}`, '--type=json', '-p', '[{"op":"replace","path":"/webhooks/0/failurePolicy","value":"Ignore"}]']);
    await api.kubectlOk(['apply', '-f', '-'], policy('while-down', 'NOPE'));
    assert.ok(names(api).includes('while-down'));
  });
});
