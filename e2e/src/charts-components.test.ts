// What each component's chart sets up (Helm charts in charts/ and the plain manifests in
// deploy/kubernetes/): the agent's ports, downward API, RBAC and sidecar mode, the controller's
// RBAC, injection webhook and embedded etcd and Prometheus, and the default configuration as the
// real binaries read it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse, stringify } from 'yaml';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { defaultConfig, defaultWorkload, notes as renderNotes } from './support/helm-render.js';
import { ROOT, read, obj, arr, at, defines, detemplate, CHARTS, template, templateFiles, values, docsOf, releaseDocs, templateDocs, objectNamed, one, workload, firstContainer, type Obj } from './support/chart-checks.js';

test('agent: ports, downward API and discovery RBAC', () => {
  const agent = CHARTS[0];
  const docs = docsOf(agent);
  const ctr = firstContainer(workload(agent));
  const ports = arr(ctr.ports, 'ports').map((p) => obj(p, 'port'));
  for (const port of [8080, 3320, 3322]) assert.ok(ports.some((p) => p.containerPort === port), `port ${port}`);
  const config = obj(values(agent).config, 'config');
  const portOf = (addr: unknown) => Number(/(\d+)$/.exec(String(addr))?.[1]);
  assert.deepEqual([...new Set(ports.map((p) => p.containerPort))],
    [at(config, 'server.listener.addr'), at(config, 'dist_cache.bind_addr'), at(config, 'dist_cache.memberlist_bind_addr')].map(portOf));
  // The same ports, by name and protocol, as the chart's container helper.
  const helper = parse(detemplate(defines(template(agent, '_helpers.tpl')).get('sluice-agent.container') ?? ''));
  const pick = (list: unknown) => arr(list, 'ports').map((p) => [obj(p, 'p').name, obj(p, 'p').protocol]);
  // (The helper's tap port is rendered in sidecar mode only, where the agent serves the tap.)
  assert.match(defines(template(agent, '_helpers.tpl')).get('sluice-agent.container') ?? '', /\{\{- if eq \.Values\.mode "sidecar" \}\}\n\s+- name: tap\n/);
  assert.deepEqual(pick(at(helper, 'ports')).filter(([name]) => name !== 'tap'), pick(ctr.ports));
  // The TLS Secret's mount is there only with tls.secretName; the controller's CA by default (controller.tls).
  assert.deepEqual(arr(at(helper, 'volumeMounts'), 'mounts').filter((m) => obj(m, 'm').name !== 'tls'), ctr.volumeMounts);
  assert.ok(arr(ctr.volumeMounts, 'mounts').some((m) => obj(m, 'm').name === 'controller-ca'));
  // $(VAR) only refers to variables declared before it; the pod IP is advertised to peers.
  const env = arr(ctr.env, 'env').map((e) => obj(e, 'env var'));
  const declared: string[] = [];
  for (const e of env) {
    for (const m of String(e.value ?? '').matchAll(/\$\(([A-Z_]+)\)/g)) assert.ok(declared.includes(m[1]), `${String(e.name)} uses ${m[1]}`);
    declared.push(String(e.name));
  }
  const byName = (n: string) => env.find((e) => e.name === n);
  assert.equal(at(byName('POD_IP'), 'valueFrom.fieldRef.fieldPath'), 'status.podIP');
  assert.equal(at(byName('NODE_NAME'), 'valueFrom.fieldRef.fieldPath'), 'spec.nodeName');
  assert.equal(byName('SLUICE_AGENT_PEER_DISCOVERY_ADVERTISEMENT_ADDR')?.value, '$(POD_IP):3320');
  assert.equal(byName('SLUICE_AGENT_DIST_CACHE_MEMBERLIST_ADVERTISE_ADDR')?.value, '$(POD_IP):3322');
  assert.equal(at(objectNamed(docs, 'Service', 'sluice-agent'), 'spec.internalTrafficPolicy'), 'Local');
  assert.deepEqual(one(docs, 'ClusterRole').rules, [
    { apiGroups: [''], resources: ['pods', 'services', 'endpoints', 'nodes'], verbs: ['get', 'list', 'watch'] },
    { apiGroups: ['discovery.k8s.io'], resources: ['endpointslices'], verbs: ['get', 'list', 'watch'] },
    { apiGroups: ['apps'], resources: ['deployments', 'statefulsets', 'replicasets'], verbs: ['get', 'list', 'watch'] },
    { apiGroups: ['apps'], resources: ['deployments/scale', 'statefulsets/scale', 'replicasets/scale'], verbs: ['get', 'update', 'patch'] },
    { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['get', 'create', 'update'] },
  ]);
  // A headless Service names every agent pod (peers, Prometheus's DNS discovery) on the container's ports.
  const peers = objectNamed(docs, 'Service', 'sluice-agent-peers');
  assert.equal(at(peers, 'spec.clusterIP'), 'None');
  const named = new Map(ports.map((p) => [p.name, p.containerPort]));
  for (const p of arr(at(peers, 'spec.ports'), 'peer ports').map((x) => obj(x, 'port'))) assert.equal(named.get(p.targetPort), p.port, String(p.name));
});

test('agent: sidecar mode renders no DaemonSet or Service and documents the agent container, which serves the tap', () => {
  const agent = CHARTS[0];
  for (const f of ['daemonset.yaml', 'service.yaml']) assert.match(template(agent, f), /^\{\{- if (and )?\(?eq \.Values\.mode "daemonset"/);
  assert.match(defines(template(agent, '_helpers.tpl')).get('sluice-agent.validate') ?? '', /list "daemonset" "sidecar"/);
  const v = values(agent);
  const notes = template(agent, 'NOTES.txt');
  // The containers in the snippet, as helm renders the notes: the agent alone, with the tap's port.
  const snippet = obj(parse(renderNotes('sluice-agent', 'my-app', { mode: 'sidecar' }).split('Merge\nthis into the pod template:\n')[1]), 'snippet');
  const containers = arr(at(snippet, 'spec.containers'), 'containers').map((c) => obj(c, 'c'));
  assert.deepEqual(containers.map((c) => c.name), ['agent'], 'one process per pod: no sluice-tap container');
  const tapPort = arr(containers[0].ports, 'ports').map((p) => obj(p, 'port')).find((p) => p.name === 'tap');
  assert.deepEqual(tapPort, { name: 'tap', containerPort: at(v, 'sidecar.tap.listenPort'), protocol: 'TCP' });
  assert.ok(notes.includes('include "sluice-agent.container"'), 'the snippet uses the DaemonSet container');
  assert.ok(read('charts', 'sluice-agent', 'README.md').includes('tap:\n  enabled: true\n  listen: 0.0.0.0:8081\n  upstream: http://127.0.0.1:<app port>\n  control_point: ingress'));
});

test('controller: one replica, Policy RBAC, CRD note', () => {
  const controller = CHARTS[1];
  const docs = docsOf(controller);
  assert.equal(at(workload(controller), 'spec.replicas'), 1);
  const rules = arr(one(docs, 'ClusterRole').rules, 'rules').map((r) => obj(r, 'rule'));
  const allows = (group: string, resource: string, verb: string) => rules.some((r) => arr(r.apiGroups, 'g').includes(group)
    && arr(r.resources, 'r').includes(resource) && arr(r.verbs, 'v').includes(verb));
  for (const verb of ['get', 'list', 'watch', 'update']) assert.ok(allows('sluice.dev', 'policies', verb), `policies ${verb}`);
  assert.ok(allows('sluice.dev', 'policies/status', 'update'));
  assert.ok(allows('', 'events', 'create'));
  assert.ok(!allows('sluice.dev', 'policies', 'delete'));
  const ports = arr(firstContainer(workload(controller)).ports, 'ports').map((p) => obj(p, 'p').containerPort);
  assert.deepEqual(ports, [8080]);
  assert.match(read('charts', 'sluice-controller', 'README.md'), /crds\//);
});

for (const c of CHARTS) {
  test(`${c.dir}: the default configuration and the env the pod gets are accepted by the real ${c.command}`, (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'sluice-chart-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, c.configFile);
    // The configuration file as helm renders it (addresses derived from the release), and the pod's env.
    const rendered = defaultConfig(c.dir as 'sluice-agent' | 'sluice-controller');
    assert.deepEqual(parse(String(obj(one(docsOf(c), 'ConfigMap').data, 'data')[c.configFile])), rendered, 'the plain manifest holds the default render');
    writeFileSync(file, stringify(rendered));
    // The container's own variables, with the downward-API interpolation done as the kubelet would.
    const podEnv: Record<string, string> = {};
    for (const e of arr(firstContainer(defaultWorkload(c.dir as 'sluice-agent' | 'sluice-controller')).env ?? [], 'env')) {
      const { name, value } = obj(e, 'env entry');
      if (typeof name === 'string' && name.startsWith(c.prefix) && typeof value === 'string') podEnv[name] = value.replace('$(POD_IP)', '10.0.0.7');
    }
    const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('SLUICE_')));
    // Generous: a loaded machine takes seconds to load the process.
    const r = spawnSync(join(ROOT, 'bin', c.command), ['--config', file, '--print-config'], { env: { ...clean, ...podEnv }, encoding: 'utf8', timeout: 60_000 });
    assert.equal(r.status, 0, `${c.command} refused the chart's configuration:\n${r.stderr}`);
    const effective = JSON.parse(r.stdout) as Obj;
    assert.equal(at(effective, 'server.listener.addr'), at(values(c).config, 'server.listener.addr'));
    assert.deepEqual(at(effective, 'etcd.endpoints'), ['http://etcd.sluice-system.svc.cluster.local:2379']);
    if (c.dir === 'sluice-agent') {
      assert.ok(Object.keys(podEnv).length > 0, 'the agent pod sets its advertised addresses');
      assert.equal(at(effective, 'peer_discovery.advertisement_addr'), '10.0.0.7:3320');
    }
  });
}

test('controller: the injection webhook, its certificate and TLS on the server', () => {
  const controller = CHARTS[1];
  const text = template(controller, 'webhook.yaml');
  const docs = templateDocs(text, 'webhook.yaml');
  // First the cert-manager objects (webhook.certManager.enabled), then the Secret, then the hooks.
  const secret = docs.find((d) => d.kind === 'Secret') ?? assert.fail('the Secret');
  const hook = docs[docs.indexOf(secret) + 1];
  assert.deepEqual(docs.slice(0, docs.indexOf(secret)).map((d) => d.kind), ['Issuer', 'Certificate', 'Issuer', 'Certificate']);
  assert.equal(secret.type, 'kubernetes.io/tls');
  assert.deepEqual(Object.keys(obj(secret.data, 'data')).sort(), ['ca.crt', 'tls.crt', 'tls.key']);
  // Generated at install when none is given, for the Service's DNS names, and kept on upgrades.
  assert.match(text, /genCA /);
  assert.match(text, /genSignedCert \$svc nil \$dnsNames/);
  assert.match(text, /lookup "v1" "Secret" \.Release\.Namespace \$secretName/);
  assert.match(text, /\.Values\.webhook\.tls\.certificate/);
  const plainHook = one(docsOf(controller), 'MutatingWebhookConfiguration');
  const shape = (h: Obj) => arr(h.webhooks, 'webhooks').map((w) => {
    const x = obj(w, 'webhook');
    return [x.name, at(x, 'clientConfig.service.path'), x.failurePolicy, x.sideEffects, x.admissionReviewVersions, x.rules];
  });
  // Templated: failurePolicy (a value); the rest is the same in the chart and the plain manifests.
  const fixed = (h: Obj) => shape(h).map(([name, path, , sideEffects, versions, rules]) => [name, path, sideEffects, versions, rules]);
  assert.deepEqual(fixed(hook), fixed(plainHook));
  assert.deepEqual(shape(plainHook).map((s) => s.slice(0, 3)), [
    ['pod.inject.sluice.dev', '/v1/admission/inject', 'Ignore'],
    ['namespace.inject.sluice.dev', '/v1/admission/inject/namespace', 'Ignore'],
  ]);
  assert.equal(at(values(controller), 'webhook.failurePolicy'), 'Ignore');
  // Labelled namespaces go to one path, the others (less kube-system and the release's) to the other: a pod is sent once.
  const [byPod, byNs] = arr(plainHook.webhooks, 'webhooks').map((w) => obj(w, 'w'));
  assert.deepEqual(at(byNs, 'namespaceSelector.matchLabels'), { 'sluice.dev/inject': 'enabled' });
  const exprs = arr(at(byPod, 'namespaceSelector.matchExpressions'), 'exprs').map((e) => obj(e, 'e'));
  assert.deepEqual(exprs.map((e) => [e.key, e.operator, e.values]), [
    ['sluice.dev/inject', 'NotIn', ['enabled', 'disabled']],
    ['kubernetes.io/metadata.name', 'NotIn', ['kube-system', 'sluice-system']],
  ]);
  for (const w of [byPod, byNs]) assert.equal(at(w, 'clientConfig.service.name'), at(objectNamed(docsOf(controller), 'Service', 'sluice-controller'), 'metadata.name'));
  // The server's TLS files are in the mounted Secret; the probes speak HTTPS.
  const w = workload(controller);
  const ctr = firstContainer(w);
  const mount = arr(ctr.volumeMounts, 'mounts').map((m) => obj(m, 'm')).find((m) => m.name === 'webhook-tls');
  const volume = arr(at(w, 'spec.template.spec.volumes'), 'volumes').map((v) => obj(v, 'v')).find((v) => v.name === 'webhook-tls');
  assert.equal(at(volume, 'secret.secretName'), 'sluice-controller-webhook-tls');
  const tls = obj(at(values(controller), 'config.server.tls'), 'server.tls');
  assert.equal(tls.enabled, true);
  assert.equal(tls.cert_file, `${String(mount?.mountPath)}/tls.crt`);
  assert.equal(tls.key_file, `${String(mount?.mountPath)}/tls.key`);
  for (const probe of ['livenessProbe', 'readinessProbe']) assert.equal(at(ctr, `${probe}.httpGet.scheme`), 'HTTPS');
  assert.match(read('deploy', 'kubernetes', 'webhook-certificate.sh'), /sluice-controller-webhook-tls/);
});

test('controller: what the webhook injects is the injector configuration; no pod sets the old variables', async () => {
  // The plain manifest's configuration (the chart's defaults, as the test above checks) through the real loader.
  const { parseConfigText, resolveConfig } = await import('@sluice/config');
  const { injectOptionsOf } = await import('@sluice/kube');
  const parsed = parseConfigText('/etc/sluice/controller/config/controller.yaml', stringify(defaultConfig('sluice-controller')));
  assert.deepEqual(parsed.problems, []);
  const o = injectOptionsOf(resolveConfig({ process: 'controller', file: parsed.file }).injector);
  assert.equal(o.mode, 'daemonset');
  assert.equal(o.tapImage, 'sluice/tap:0.1.0');
  assert.equal(o.tapImage, `${String(at(values(CHARTS[0]), 'sidecar.tap.image.repository'))}:0.1.0`, 'the agent chart\'s tap image');
  assert.equal(o.agentAddress, `sluice-agent.sluice-system.svc.cluster.local:${String(at(values(CHARTS[0]), 'service.port'))}`);
  assert.deepEqual(Object.keys(o.sidecarAgentEnv).sort(), ['SLUICE_AGENT_ETCD_ENDPOINTS', 'SLUICE_AGENT_PROMETHEUS_ADDRESS']);
  // The settings that were variables (SLUICE_INJECTOR_*, SLUICE_PEERS_SERVICE) are keys now: no chart or manifest sets the old names.
  for (const c of CHARTS) {
    const texts = [...templateFiles(c).map((f) => template(c, f)), read('charts', c.dir, 'values.yaml'), read('charts', c.dir, 'README.md')];
    for (const text of texts) assert.doesNotMatch(text, /SLUICE_INJECTOR_|SLUICE_PEERS_SERVICE/, c.dir);
    for (const e of arr(firstContainer(workload(c)).env ?? [], 'env')) assert.doesNotMatch(String(obj(e, 'env').name), /^SLUICE_(INJECTOR_|PEERS_SERVICE$)/);
  }
  // The agent chart names its peers Service through the key's variable unless the configuration does.
  const agentEnv = defines(template(CHARTS[0], '_helpers.tpl')).get('sluice-agent.env') ?? '';
  assert.match(agentEnv, /not \(dig "peer_discovery" "kubernetes_service" "" \.Values\.config\)\) \}\}\n- name: SLUICE_AGENT_PEER_DISCOVERY_KUBERNETES_SERVICE\n/);
});

test('controller: the embedded etcd and Prometheus are where both configurations point, and Prometheus scrapes the agents', (t) => {
  const controller = CHARTS[1];
  const docs = releaseDocs(controller);
  const host = (url: unknown) => new URL(String(url)).host;
  for (const c of CHARTS) {
    const config = defaultConfig(c.dir as 'sluice-agent' | 'sluice-controller');
    assert.equal(host(arr(at(config, 'etcd.endpoints'), 'endpoints')[0]), `${String(at(objectNamed(docs, 'Service', 'etcd'), 'metadata.name'))}.sluice-system.svc.cluster.local:2379`);
    assert.equal(host(at(config, 'prometheus.address')), `${String(at(objectNamed(docs, 'Service', 'prometheus'), 'metadata.name'))}.sluice-system.svc.cluster.local:9090`);
  }
  const v = values(controller);
  const sts = objectNamed(docs, 'StatefulSet', 'etcd');
  const etcdCtr = obj(arr(at(sts, 'spec.template.spec.containers'), 'c')[0], 'etcd');
  assert.equal(etcdCtr.image, `${String(at(v, 'etcd.image.registry'))}/${String(at(v, 'etcd.image.repository'))}:${String(at(v, 'etcd.image.tag'))}`);
  assert.deepEqual(etcdCtr.resources, at(v, 'etcd.resources'));
  assert.equal(at(obj(arr(at(sts, 'spec.volumeClaimTemplates'), 'pvc')[0], 'pvc'), 'spec.resources.requests.storage'), at(v, 'etcd.storage'));
  assert.ok(arr(etcdCtr.command, 'command').includes('--listen-client-urls=http://0.0.0.0:2379'));
  const prom = objectNamed(docs, 'Deployment', 'prometheus');
  const promCtr = obj(arr(at(prom, 'spec.template.spec.containers'), 'c')[0], 'prometheus');
  assert.equal(promCtr.image, `${String(at(v, 'prometheus.image.repository'))}:${String(at(v, 'prometheus.image.tag'))}`);
  assert.ok(arr(promCtr.args, 'args').includes(`--storage.tsdb.retention.time=${String(at(v, 'prometheus.retention'))}`));
  const promYaml = String(obj(objectNamed(docs, 'ConfigMap', 'prometheus').data, 'data')['prometheus.yml']);
  const scrape = parse(promYaml) as { scrape_configs: { job_name: string; dns_sd_configs?: { names: string[]; port: number }[] }[] };
  const agents = scrape.scrape_configs.find((j) => j.job_name === 'sluice-agent');
  assert.deepEqual(agents?.dns_sd_configs?.[0].names, ['sluice-agent-peers.sluice-system.svc.cluster.local'], 'the agent chart\'s headless Service');
  // The real promtool accepts the configuration.
  const dir = mkdtempSync(join(tmpdir(), 'sluice-prom-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'prometheus.yml'), promYaml);
  const r = spawnSync('promtool', ['check', 'config', join(dir, 'prometheus.yml')], { encoding: 'utf8', timeout: 20_000 });
  assert.equal(r.status, 0, r.stdout + r.stderr);
  // On by default, replaceable: each embedded piece is behind its enabled value.
  for (const f of ['etcd-statefulset.yaml', 'etcd-service.yaml']) assert.match(template(controller, f), /^\{\{- if \.Values\.etcd\.enabled \}\}/);
  for (const f of ['prometheus-deployment.yaml', 'prometheus-service.yaml', 'prometheus-configmap.yaml']) assert.match(template(controller, f), /^\{\{- if \.Values\.prometheus\.enabled \}\}/);
  assert.equal(at(v, 'etcd.enabled'), true);
  assert.equal(at(v, 'prometheus.enabled'), true);
});

test('agent: the pod scaler is on by default and the agent may write /scale', () => {
  const agent = CHARTS[0];
  assert.equal(at(values(agent), 'config.auto_scale.kubernetes.enabled'), true);
  const rules = arr(one(docsOf(agent), 'ClusterRole').rules, 'rules').map((r) => obj(r, 'rule'));
  assert.ok(rules.some((r) => arr(r.resources, 'r').includes('deployments/scale') && arr(r.verbs, 'v').includes('update')));
});
