// docs/guides/kubernetes.md from an empty cluster to an enforced policy and a preview, as one
// scenario against the test API server with the real helm, kubectl and binaries. The test API
// server stores objects only (no pod runs), so the test plays the kubelet: it reads what helm
// installed (ConfigMaps, env, the webhook's TLS Secret) and starts the real processes with exactly
// that configuration, overriding only listen addresses (free loopback ports) and the paths where a
// volume would be mounted; it plays the EndpointSlice controller too (slices of the Services onto
// the loopback processes). Steps that need running pods are left out: `kubectl rollout status`
// (no pod ever becomes ready), the agnhost Deployment (a node http server stands for it; the
// injection webhook's pod rewriting is covered by kube-webhook.test.ts) and `kubectl run load`.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import { join } from 'node:path';
import { test } from 'node:test';
import { parse } from 'yaml';
import { startTestKubeApi, type TestKubeApi } from './kube-api/testing.js';
import { isObj, type Obj } from './support/chart-checks.js';
import { get, post, startWorkload } from './support/clients.js';
import { startEtcd } from './support/etcd.js';
import { AGENT_CHART, CONTROLLER_CHART, helmFor } from './support/helm.js';
import { startedConfig } from './support/pod-config.js';
import { startPrometheus } from './support/prometheus.js';
import { cleanEnv, ROOT, spawnProc, startTap, tempDir, until, waitReady, writeFile } from './support/processes.js';

const NS = 'sluice-system';
const CONTROLLER_HOST = 'sluice-controller.sluice-system.svc';
const WEB = 'web.shop.svc.cluster.local';

const json = async (api: TestKubeApi, args: string[]): Promise<Obj> => JSON.parse(await api.kubectlOk([...args, '-o', 'json'])) as Obj;
const dig = (o: unknown, ...path: string[]): unknown => path.reduce<unknown>((cur, k) => (isObj(cur) ? cur[k] : undefined), o);

/** The serving port from a Sluice process's "serving gRPC and HTTP" log line. */
const servingPort = (line: string): number => {
  const address = (JSON.parse(line) as { meta: { address: string } }).meta.address;
  return Number(address.slice(address.lastIndexOf(':') + 1));
};

/** GET over TLS trusting only `ca`, the certificate checked for `servername`. */
function tlsGet(port: number, path: string, ca: string, servername: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = https.get({ host: '127.0.0.1', port, path, ca, servername, timeout: 5000 }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => { text += c; });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
  });
}

test('docs/guides/kubernetes.md: install both charts, apply the example policy, 429s for the heavy user and a preview of its requests', { timeout: 120_000 }, async (t) => {
  const started = Date.now();
  const api = await startTestKubeApi(t);
  const helm = helmFor(api.kubeconfig);
  t.after(() => helm.close());
  const dir = tempDir(t, 'sluice-guide-');

  // What the charts' etcd StatefulSet and Prometheus Deployment would run; started first so the
  // charts can be pointed at them. Prometheus runs with the helper's configuration, not the chart's
  // (whose Kubernetes service discovery of scrape targets needs pods): the example policy runs no query.
  const etcd = await startEtcd(t);
  const prometheus = await startPrometheus(t, []);

  // 1. and 2. The guide's helm installs (release names, namespace, chart defaults). The etcd and
  // Prometheus addresses are the only values added: in a cluster they are the Services' DNS names,
  // here the loopback ports of the processes above.
  const addresses = ['--set', `config.etcd.endpoints={${etcd.endpoint}}`, '--set', `config.prometheus.address=http://${prometheus.address}`];
  await helm.ok(['install', 'sluice-controller', CONTROLLER_CHART, '--namespace', NS, '--create-namespace', ...addresses]);
  await helm.ok(['install', 'sluice-agent', AGENT_CHART, '--namespace', NS, ...addresses]);

  // The kubelet's part: the installed objects, read back from the API server.
  const deployment = await json(api, ['-n', NS, 'get', 'deployment', 'sluice-controller']);
  const controllerCm = await json(api, ['-n', NS, 'get', 'configmap', 'sluice-controller']);
  const webhookTls = await json(api, ['-n', NS, 'get', 'secret', 'sluice-controller-webhook-tls']);
  const daemonset = await json(api, ['-n', NS, 'get', 'daemonset', 'sluice-agent']);
  const agentCm = await json(api, ['-n', NS, 'get', 'configmap', 'sluice-agent']);

  // The controller: its ConfigMap's file, its env, its Secret's files where the volume mounts them.
  const controllerStart = startedConfig([controllerCm], deployment, 'controller', 'controller');
  const tlsDir = join(dir, 'controller-tls');
  const secretData = dig(webhookTls, 'data') as Record<string, string>;
  const pem = (key: string): string => Buffer.from(secretData[key] ?? assert.fail(`the webhook Secret has ${key}`), 'base64').toString('utf8');
  const ca = pem('ca.crt');
  mkdirSync(tlsDir);
  for (const key of ['ca.crt', 'tls.crt', 'tls.key']) writeFileSync(join(tlsDir, key), pem(key));
  assert.equal(dig(parse(controllerStart.file), 'policies', 'cr_watcher', 'enabled'), true, 'the chart turns the Policy watcher on');
  assert.match(controllerStart.file, /\/etc\/sluice\/controller\/tls\//, 'the chart\'s controller config reads its TLS files from the Secret\'s mount');
  const controllerFile = writeFile(dir, 'controller.yaml', controllerStart.file.replaceAll('/etc/sluice/controller/tls/', `${tlsDir}/`));
  const controller = spawnProc(t, join(ROOT, 'bin', 'sluice-controller'), [...controllerStart.args, '--config', controllerFile], cleanEnv({
    ...controllerStart.env,
    KUBECONFIG: api.kubeconfig,
    SLUICE_CONTROLLER_SERVER_LISTENER_ADDR: '127.0.0.1:0',
  }));
  const controllerPort = servingPort(await controller.waitForLine(/serving gRPC and HTTP/));
  await until(async () => (await tlsGet(controllerPort, '/v1/status/system/readiness', ca, CONTROLLER_HOST).catch(() => ({ status: 0 }))).status === 200, 30_000, 'controller ready over TLS');
  // The endpoint controller's part: the controller Service's endpoint (the API server calls the
  // policy validation webhook through it).
  await api.kubectlOk(['apply', '-f', '-'], JSON.stringify({
    apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice',
    metadata: { name: 'sluice-controller-loopback', namespace: NS, labels: { 'kubernetes.io/service-name': 'sluice-controller' } },
    addressType: 'IPv4', endpoints: [{ addresses: ['127.0.0.1'], conditions: { ready: true } }], ports: [{ name: 'server', port: controllerPort, protocol: 'TCP' }],
  }));

  // The agent: its ConfigMap's file and env. The peer advertisement addresses the chart derives
  // from the pod IP are dropped (no pod IP here): the agent advertises what it binds, loopback. The
  // group key the chart generated (its Secret) is written where the volume would mount it.
  const agentStart = startedConfig([agentCm], daemonset, 'agent', 'agent');
  const keySecret = await json(api, ['-n', NS, 'get', 'secret', 'sluice-agent-dist-cache-key']);
  const keyDir = join(dir, 'agent-dist-cache');
  mkdirSync(keyDir);
  const keys = Buffer.from(String((dig(keySecret, 'data') as Record<string, string>).keys ?? assert.fail('the key Secret has keys')), 'base64');
  assert.ok(keys.toString('utf8').trim().length >= 16, 'a key of at least 16 bytes');
  writeFileSync(join(keyDir, 'keys'), keys);
  assert.match(agentStart.file, /\/etc\/sluice\/agent\/dist-cache\/keys/, 'the chart\'s agent config reads its key from the Secret\'s mount');
  agentStart.file = agentStart.file.replaceAll('/etc/sluice/agent/dist-cache/', `${keyDir}/`);
  const agentEnv = { ...agentStart.env };
  delete agentEnv.SLUICE_AGENT_PEER_DISCOVERY_ADVERTISEMENT_ADDR;
  delete agentEnv.SLUICE_AGENT_DIST_CACHE_MEMBERLIST_ADVERTISE_ADDR;
  const agentProc = spawnProc(t, join(ROOT, 'bin', 'sluice-agent'), [...agentStart.args, '--config', writeFile(dir, 'agent.yaml', agentStart.file)], cleanEnv({
    ...agentEnv,
    KUBECONFIG: api.kubeconfig,
    SLUICE_AGENT_SERVER_LISTENER_ADDR: '127.0.0.1:0',
    SLUICE_AGENT_DIST_CACHE_BIND_ADDR: '127.0.0.1:0',
    SLUICE_AGENT_DIST_CACHE_MEMBERLIST_BIND_ADDR: '127.0.0.1:0',
  }));
  const agentPort = servingPort(await agentProc.waitForLine(/serving gRPC and HTTP/));
  const agent = `http://127.0.0.1:${agentPort}`;
  await waitReady(agent, 30_000);

  // 3. and 4. The namespace and the workload's Service; the pod itself is a node http server behind
  // a real tap with the injector's flags (--upstream, --agent, --control-point from the pod's
  // annotation), on loopback ports instead of 8081/9091, asking the agent on its loopback port
  // instead of the agent Service.
  // `kubectl create namespace` sends a protobuf Namespace, which the test API server does not
  // read (it reads protobuf of Secrets and ConfigMaps only, what helm sends): the same object as JSON.
  await api.kubectlOk(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } }));
  await api.kubectlOk(['label', 'namespace', 'shop', 'sluice.dev/inject=enabled']);
  const injector = dig(parse(controllerStart.file), 'injector');
  assert.match(String(dig(injector, 'agent_address')), /^sluice-agent\.sluice-system\.svc\.cluster\.local:8080$/, 'taps ask the agent Service');
  await api.kubectlOk(['-n', 'shop', 'apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'web' }, spec: { selector: { app: 'web' }, ports: [{ port: 80, targetPort: 'http' }] } }));
  const workload = await startWorkload(t);
  // The tap's default check timeout (250 ms) lets a check through when the agent is late; forty
  // checks at once on a test machine running other test files can be: 5 s keeps this about the policy.
  const tap = await startTap(t, workload.url, `127.0.0.1:${agentPort}`, 'ingress', ['--check-timeout', '5s']);
  await api.kubectlOk(['apply', '-f', '-'], JSON.stringify({
    apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice',
    metadata: { name: 'web-loopback', namespace: 'shop', labels: { 'kubernetes.io/service-name': 'web' } },
    addressType: 'IPv4',
    endpoints: [{ addresses: ['127.0.0.1'], conditions: { ready: true }, nodeName: agentEnv.NODE_NAME, targetRef: { kind: 'Pod', name: 'web-0', namespace: 'shop', uid: 'uid-web-0' } }],
    ports: [{ name: 'http', port: tap.listen, protocol: 'TCP' }],
  }));
  await until(async () => (await get(`${agent}/v1/discovery/entities?service=${WEB}`)).text.includes('web-0'), 15_000, 'the agent discovers web');

  // 5. Apply the policy; the controller's CR watcher marks it uploaded, the agent enforces it.
  await api.kubectlOk(['apply', '-f', join(ROOT, 'deploy', 'examples', 'rate-limit.yaml')]);
  await until(async () => dig(await json(api, ['-n', 'default', 'get', 'policy', 'rate-limit-per-user']), 'status', 'status') === 'uploaded', 30_000, 'policy uploaded');
  assert.match(await api.kubectlOk(['get', 'policies', '-A']), /^default\s+rate-limit-per-user\s+uploaded\s/m);
  await until(async () => (await get(`${agent}/v1/policies/enforced`)).text.includes('rate-limit-per-user'), 30_000, 'policy enforced by the agent');
  // The chart's policy validation webhook (failurePolicy Fail) was called through the controller
  // Service's endpoint and admitted the policy.
  const metrics = await tlsGet(controllerPort, '/metrics', ca, CONTROLLER_HOST);
  assert.match(metrics.text, /^policy_admission_reviews_total\{[^}]*result="allowed"[^}]*\} [1-9]/m, metrics.text.split('\n').filter((l) => l.startsWith('policy_admission')).join('\n'));

  // 6. The preview first, in the background, then the load through the tap. The guide reaches the
  // agent through `kubectl port-forward` and the load through the Service from a pod; here the
  // agent and the tap are on loopback already (the test API server forwards no ports, runs no pod).
  const preview = post(`${agent}/v1/flowcontrol/preview/http_requests/ingress?samples=5&service=${WEB}`, JSON.stringify({ match_labels: { 'http.request.header.user': 'alice' } }));
  await new Promise((r) => setTimeout(r, 300));
  const send = async (user: string): Promise<number> => (await get(`${tap.base}/echo?msg=hi`, { headers: { user } })).status;
  // Another user's requests first: the preview's filter must leave them out.
  const bobBefore = await Promise.all(Array.from({ length: 3 }, () => send('bob')));
  // The guide's 40 requests of alice, sent at once: a loop of sequential requests on this shared
  // machine can be slow enough for the bucket's refill (10/s) to keep up with it.
  const sentAt = Date.now();
  const alice = await Promise.all(Array.from({ length: 40 }, () => send('alice')));
  const took = (Date.now() - sentAt) / 1000;
  const bob: number[] = [];
  for (let i = 0; i < 5; i++) bob.push(await send('bob'));
  t.diagnostic(`alice (in ${took} s): ${alice.join(' ')}; bob: ${bob.join(' ')}`);
  const accepted = alice.filter((s) => s === 200).length;
  assert.equal(accepted + alice.filter((s) => s === 429).length, 40, `only 200 and 429: ${alice.join(' ')}`);
  assert.ok(accepted >= 20, `the burst of 20 gets through: ${alice.join(' ')}`);
  // A check the agent does not answer within the tap's check timeout is let through (fail open, counted):
  // on a loaded machine some of forty at once can be.
  const tapMetrics = (await get(`http://127.0.0.1:${tap.admin}/metrics`)).text;
  const failedOpen = [...tapMetrics.matchAll(/^tap_fail_open_total\{[^}]*\} (\d+)$/gm)].reduce((n, m) => n + Number(m[1]), 0);
  assert.ok(accepted <= 20 + Math.ceil(10 * took) + 1 + failedOpen, `no more than the burst and the refill of ${took} s (and ${failedOpen} let through failing open): ${alice.join(' ')}`);
  assert.ok(accepted < 40, `the heavy user gets 429s: ${alice.join(' ')}`);
  assert.deepEqual([...bobBefore, ...bob], [200, 200, 200, 200, 200, 200, 200, 200], 'another user is not limited');

  const previewed = await preview;
  assert.equal(previewed.status, 200, previewed.text);
  type Sample = { attributes?: { request?: { http?: { path?: string; headers?: Record<string, string> } } } };
  const samples = (JSON.parse(previewed.text) as { samples?: Sample[] }).samples ?? [];
  assert.equal(samples.length, 5, previewed.text);
  for (const s of samples) {
    const http = s.attributes?.request?.http;
    assert.equal(http?.headers?.user, 'alice', `every sample matches the filter: ${JSON.stringify(s)}`);
    assert.equal(http?.path, '/echo?msg=hi', JSON.stringify(s));
  }

  // The agent's other routes of step 6 and the controller's route over TLS with the chart's CA.
  assert.match((await get(`${agent}/v1/discovery/entities?service=${WEB}`)).text, /web-0/);
  const policy = await tlsGet(controllerPort, '/v1/policies/rate-limit-per-user', ca, CONTROLLER_HOST);
  assert.equal(policy.status, 200, policy.text);
  assert.match(policy.text, /rate-limit-per-user/);
  t.diagnostic(`scenario took ${Date.now() - started} ms`);
});
