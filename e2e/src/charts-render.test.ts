// The charts as the real helm v3 renders them (tools/bin/helm): addresses derived from the
// release's namespace and the cluster domain, probes and scrapes that follow TLS, the objects
// operators expect (PodDisruptionBudgets, ServiceMonitor/PodMonitor, NetworkPolicies), image
// registry and pull secrets, numeric users, release notes, and `helm lint --strict`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { stringify } from 'yaml';
import { at, arr, obj, type Obj } from './support/chart-checks.js';
import { configOf, containersOf, kindOf, lint, named, notes, podSpecs, render, renderError } from './support/helm-render.js';

const probesOf = (c: Obj) => ['livenessProbe', 'readinessProbe'].map((p) => at(c, `${p}.httpGet.scheme`));

test('helm lint --strict passes with the defaults and with every option on', () => {
  for (const [chart, sets] of [
    ['sluice-agent', {}], ['sluice-agent', { mode: 'sidecar' }],
    ['sluice-agent', { 'config.server.tls.enabled': true, 'tls.secretName': 'agent-tls', 'networkPolicy.enabled': true, 'global.imageRegistry': 'registry.example.com' }],
    ['sluice-controller', {}],
    ['sluice-controller', { 'networkPolicy.enabled': true, 'monitoring.serviceMonitor.enabled': true, 'monitoring.podMonitor.enabled': true, 'agent.tls': true }],
    ['sluice-controller', { 'config.server.tls.enabled': false, 'webhook.enabled': false }],
  ] as const) {
    const r = lint(chart, sets);
    assert.equal(r.status, 0, `${chart} ${JSON.stringify(sets)}:\n${r.output}`);
  }
});

test('controller: every address comes from the release namespace and clusterDomain, none from sluice-system', async () => {
  const docs = render('sluice-controller', 'team-a', { clusterDomain: 'corp.example', 'agent.namespace': 'agents' });
  assert.doesNotMatch(stringify(docs), /sluice-system/);
  const config = configOf(named(docs, 'ConfigMap', 'sluice-controller'), 'controller.yaml');
  assert.deepEqual(at(config, 'etcd.endpoints'), ['http://etcd.team-a.svc.corp.example:2379']);
  assert.equal(at(config, 'prometheus.address'), 'http://prometheus.team-a.svc.corp.example:9090');
  assert.equal(at(config, 'injector.agent_address'), 'sluice-agent.agents.svc.corp.example:8080');
  assert.deepEqual(at(config, 'injector.sidecar_agent_env'), {
    SLUICE_AGENT_ETCD_ENDPOINTS: '["http://etcd.team-a.svc.corp.example:2379"]',
    SLUICE_AGENT_PROMETHEUS_ADDRESS: 'http://prometheus.team-a.svc.corp.example:9090',
  });
  const sts = named(docs, 'StatefulSet', 'etcd');
  assert.ok(arr(containersOf(obj(at(sts, 'spec.template.spec'), 'spec'))[0].command, 'command').includes('--advertise-client-urls=http://etcd.team-a.svc.corp.example:2379'));
  const prom = String(obj(named(docs, 'ConfigMap', 'prometheus').data, 'data')['prometheus.yml']);
  assert.match(prom, /names: \["sluice-agent-peers\.agents\.svc\.corp\.example"\]/);
  assert.match(prom, /targets: \["sluice-controller\.team-a\.svc\.corp\.example:8080"\]/);
  // The agent release's name is followed as that chart names its objects.
  const other = configOf(named(render('sluice-controller', 'ops', { 'agent.releaseName': 'edge' }), 'ConfigMap', 'sluice-controller'), 'controller.yaml');
  assert.equal(at(other, 'injector.agent_address'), 'edge-sluice-agent.ops.svc.cluster.local:8080');
  // What the webhook injects, through the real configuration loader.
  const { parseConfigText, resolveConfig } = await import('@sluice/config');
  const { injectOptionsOf } = await import('@sluice/kube');
  const parsed = parseConfigText('/etc/sluice/controller/config/controller.yaml', stringify(config));
  assert.deepEqual(parsed.problems, []);
  const o = injectOptionsOf(resolveConfig({ process: 'controller', file: parsed.file }).injector);
  assert.equal(o.agentAddress, 'sluice-agent.agents.svc.corp.example:8080');
  assert.equal(o.sidecarAgentEnv.SLUICE_AGENT_ETCD_ENDPOINTS, '["http://etcd.team-a.svc.corp.example:2379"]');
  // Addresses set in config are kept; an external etcd without one is refused.
  const own = configOf(named(render('sluice-controller', 'team-a', { 'config.etcd.endpoints[0]': 'http://etcd.db:2379' }), 'ConfigMap', 'sluice-controller'), 'controller.yaml');
  assert.deepEqual(at(own, 'etcd.endpoints'), ['http://etcd.db:2379']);
  assert.equal(obj(at(own, 'injector.sidecar_agent_env'), 'env').SLUICE_AGENT_ETCD_ENDPOINTS, '["http://etcd.db:2379"]');
  assert.match(renderError('sluice-controller', 'team-a', { 'etcd.enabled': false }), /config\.etcd\.endpoints is required when etcd\.enabled is false/);
});

test('agent: etcd and Prometheus are the controller release\'s, in its namespace', () => {
  const same = configOf(named(render('sluice-agent', 'team-b', {}), 'ConfigMap', 'sluice-agent'), 'agent.yaml');
  assert.deepEqual(at(same, 'etcd.endpoints'), ['http://etcd.team-b.svc.cluster.local:2379']);
  const docs = render('sluice-agent', 'team-b', { 'controller.namespace': 'team-a', clusterDomain: 'corp.example' });
  assert.doesNotMatch(stringify(docs), /sluice-system/);
  const config = configOf(named(docs, 'ConfigMap', 'sluice-agent'), 'agent.yaml');
  assert.deepEqual(at(config, 'etcd.endpoints'), ['http://etcd.team-a.svc.corp.example:2379']);
  assert.equal(at(config, 'prometheus.address'), 'http://prometheus.team-a.svc.corp.example:9090');
  const own = configOf(named(render('sluice-agent', 'x', { 'config.prometheus.address': 'http://prom.mon:9090' }), 'ConfigMap', 'sluice-agent'), 'agent.yaml');
  assert.equal(at(own, 'prometheus.address'), 'http://prom.mon:9090');
});

test('agent TLS: probes HTTPS, the Service and Prometheus annotations say https, the Secret is mounted; TLS without a certificate is refused', () => {
  const plain = render('sluice-agent', 'a', {});
  assert.deepEqual(probesOf(containersOf(podSpecs(plain)[0].spec)[0]), ['HTTP', 'HTTP']);
  const docs = render('sluice-agent', 'a', { 'config.server.tls.enabled': true, 'tls.secretName': 'agent-tls' });
  const [pod] = podSpecs(docs);
  const agent = containersOf(pod.spec)[0];
  assert.deepEqual(probesOf(agent), ['HTTPS', 'HTTPS']);
  assert.equal(obj(pod.meta.annotations, 'annotations')['prometheus.io/scheme'], 'https');
  assert.equal(at(arr(at(named(docs, 'Service', 'sluice-agent'), 'spec.ports'), 'ports')[0], 'appProtocol'), 'https');
  const config = configOf(named(docs, 'ConfigMap', 'sluice-agent'), 'agent.yaml');
  assert.deepEqual(at(config, 'server.tls'), { enabled: true, cert_file: '/etc/sluice/agent/tls/tls.crt', key_file: '/etc/sluice/agent/tls/tls.key' });
  assert.ok(arr(agent.volumeMounts, 'mounts').some((m) => at(m, 'mountPath') === '/etc/sluice/agent/tls'));
  assert.ok(arr(pod.spec.volumes, 'volumes').some((v) => obj(v, 'volume').name === 'tls' && at(v, 'secret.secretName') === 'agent-tls'));
  assert.match(renderError('sluice-agent', 'a', { 'config.server.tls.enabled': true }), /needs tls\.secretName/);
  // The controller's Prometheus and PodMonitor scrape agents over HTTPS when told they serve it.
  const c = render('sluice-controller', 'a', { 'agent.tls': true, 'monitoring.podMonitor.enabled': true });
  assert.match(String(obj(named(c, 'ConfigMap', 'prometheus').data, 'data')['prometheus.yml']), /job_name: sluice-agent\n\s+scheme: https/);
  assert.equal(at(arr(at(kindOf(c, 'PodMonitor')[0], 'spec.podMetricsEndpoints'), 'e')[0], 'scheme'), 'https');
});

test('controller TLS off: probes, Service, annotations and scrapes say http; the webhook cannot be on without TLS', () => {
  const on = render('sluice-controller', 'a', { 'monitoring.serviceMonitor.enabled': true });
  const ctr = (docs: Obj[]) => containersOf(obj(at(named(docs, 'Deployment', 'sluice-controller'), 'spec.template.spec'), 'spec'))[0];
  assert.deepEqual(probesOf(ctr(on)), ['HTTPS', 'HTTPS']);
  assert.match(String(obj(named(on, 'ConfigMap', 'prometheus').data, 'data')['prometheus.yml']), /job_name: sluice-controller\n\s+scheme: https/);
  const off = render('sluice-controller', 'a', { 'config.server.tls.enabled': false, 'webhook.enabled': false, 'monitoring.serviceMonitor.enabled': true });
  assert.deepEqual(probesOf(ctr(off)), ['HTTP', 'HTTP']);
  assert.equal(at(arr(at(named(off, 'Service', 'sluice-controller'), 'spec.ports'), 'ports')[0], 'appProtocol'), 'http');
  assert.equal(obj(at(named(off, 'Deployment', 'sluice-controller'), 'spec.template.metadata.annotations'), 'a')['prometheus.io/scheme'], 'http');
  assert.doesNotMatch(String(obj(named(off, 'ConfigMap', 'prometheus').data, 'data')['prometheus.yml']), /scheme: https/);
  assert.equal(at(arr(at(kindOf(off, 'ServiceMonitor')[0], 'spec.endpoints'), 'e')[0], 'scheme'), 'http');
  assert.match(renderError('sluice-controller', 'a', { 'config.server.tls.enabled': false }), /webhook\.enabled needs config\.server\.tls\.enabled/);
});

test('PodDisruptionBudgets select the controller and etcd pods', () => {
  const docs = render('sluice-controller', 'a', {});
  const pdbs = kindOf(docs, 'PodDisruptionBudget');
  assert.deepEqual(pdbs.map((p) => at(p, 'metadata.name')).sort(), ['etcd', 'sluice-controller']);
  for (const [pdb, owner] of [[named(docs, 'PodDisruptionBudget', 'sluice-controller'), named(docs, 'Deployment', 'sluice-controller')], [named(docs, 'PodDisruptionBudget', 'etcd'), named(docs, 'StatefulSet', 'etcd')]]) {
    const labels = obj(at(owner, 'spec.template.metadata.labels'), 'labels');
    for (const [k, v] of Object.entries(obj(at(pdb, 'spec.selector.matchLabels'), 'selector'))) assert.equal(labels[k], v, `${String(at(pdb, 'metadata.name'))} ${k}`);
    assert.equal(at(pdb, 'spec.maxUnavailable'), 1);
  }
  assert.equal(kindOf(render('sluice-controller', 'a', { 'podDisruptionBudget.enabled': false }), 'PodDisruptionBudget').length, 0);
  assert.deepEqual(kindOf(render('sluice-controller', 'a', { 'etcd.enabled': false, 'config.etcd.endpoints[0]': 'http://e:2379' }), 'PodDisruptionBudget').map((p) => at(p, 'metadata.name')), ['sluice-controller']);
});

test('ServiceMonitor and PodMonitor are optional and select what they scrape', () => {
  const none = render('sluice-controller', 'a', {});
  assert.equal(kindOf(none, 'ServiceMonitor').length + kindOf(none, 'PodMonitor').length, 0);
  const docs = render('sluice-controller', 'mon', { 'monitoring.serviceMonitor.enabled': true, 'monitoring.podMonitor.enabled': true, 'monitoring.serviceMonitor.labels.release': 'kps', 'agent.namespace': 'agents' });
  const sm = kindOf(docs, 'ServiceMonitor')[0];
  assert.equal(obj(at(sm, 'metadata.labels'), 'l').release, 'kps');
  const svcLabels = obj(at(named(docs, 'Service', 'sluice-controller'), 'metadata.labels'), 'l');
  for (const [k, v] of Object.entries(obj(at(sm, 'spec.selector.matchLabels'), 's'))) assert.equal(svcLabels[k], v);
  assert.equal(at(arr(at(sm, 'spec.endpoints'), 'e')[0], 'port'), 'server');
  const pm = kindOf(docs, 'PodMonitor')[0];
  assert.deepEqual(at(pm, 'spec.namespaceSelector.matchNames'), ['agents']);
  const agentPod = obj(at(named(render('sluice-agent', 'agents', {}), 'DaemonSet', 'sluice-agent'), 'spec.template.metadata.labels'), 'labels');
  for (const [k, v] of Object.entries(obj(at(pm, 'spec.selector.matchLabels'), 's'))) assert.equal(agentPod[k], v, `PodMonitor selects agent pods by ${k}`);
});

test('NetworkPolicies: the agents\' cache ports only from agents; etcd from the controller and agents; the controller from its namespace and configured peers', () => {
  assert.equal(kindOf(render('sluice-agent', 'a', {}), 'NetworkPolicy').length, 0);
  const agentDocs = render('sluice-agent', 'a', { 'networkPolicy.enabled': true });
  const np = kindOf(agentDocs, 'NetworkPolicy')[0];
  const [peers, server] = arr(at(np, 'spec.ingress'), 'ingress').map((r) => obj(r, 'rule'));
  assert.deepEqual(arr(peers.ports, 'p').map((p) => at(p, 'port')), ['dist-cache', 'memberlist', 'memberlist-udp']);
  const podLabels = obj(at(named(agentDocs, 'DaemonSet', 'sluice-agent'), 'spec.template.metadata.labels'), 'l');
  const from = arr(peers.from, 'from').map((f) => obj(f, 'peer'));
  assert.equal(from.length, 1);
  for (const [k, v] of Object.entries(obj(at(from[0], 'podSelector.matchLabels'), 'm'))) assert.equal(podLabels[k], v);
  assert.deepEqual(arr(server.ports, 'p').map((p) => at(p, 'port')), ['server']);
  // Every named port exists on the agent container.
  const names = new Set(arr(containersOf(podSpecs(agentDocs)[0].spec)[0].ports, 'ports').map((p) => at(p, 'name')));
  for (const p of [...arr(peers.ports, 'p'), ...arr(server.ports, 'p')]) assert.ok(names.has(at(p, 'port')), String(at(p, 'port')));
  const extra = { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } } };
  const docs = render('sluice-controller', 'ctl', { 'networkPolicy.enabled': true, 'networkPolicy.from[0].namespaceSelector.matchLabels.kubernetes\\.io/metadata\\.name': 'monitoring' });
  const ctl = named(docs, 'NetworkPolicy', 'sluice-controller');
  const [api] = arr(at(ctl, 'spec.ingress'), 'ingress').map((r) => obj(r, 'rule'));
  assert.deepEqual(api.from, [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'ctl' } } }, extra]);
  const etcd = named(docs, 'NetworkPolicy', 'etcd');
  const etcdFrom = arr(at(arr(at(etcd, 'spec.ingress'), 'i')[0], 'from'), 'from');
  const controllerPod = obj(at(named(docs, 'Deployment', 'sluice-controller'), 'spec.template.metadata.labels'), 'l');
  for (const [k, v] of Object.entries(obj(at(etcdFrom[0], 'podSelector.matchLabels'), 'm'))) assert.equal(controllerPod[k], v, `etcd admits the controller by ${k}`);
  assert.deepEqual(etcdFrom[1], { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'ctl' } }, podSelector: { matchLabels: { 'app.kubernetes.io/name': 'sluice-agent' } } });
  assert.deepEqual(etcdFrom[2], extra);
});

test('images: registry, repository, tag and pull policy from values, pull secrets on every pod', () => {
  const sets = { 'global.imageRegistry': 'registry.example.com/team', 'imagePullSecrets[0].name': 'regcred' };
  for (const chart of ['sluice-agent', 'sluice-controller']) {
    const pods = podSpecs(render(chart, 'a', sets));
    assert.ok(pods.length > 0);
    for (const { owner, spec } of pods) {
      assert.deepEqual(spec.imagePullSecrets, [{ name: 'regcred' }], owner);
      for (const c of containersOf(spec)) {
        assert.match(String(c.image), /^registry\.example\.com\/team\/[a-z]/, `${owner} ${String(c.name)}`);
        assert.equal(typeof c.imagePullPolicy, 'string', `${owner} ${String(c.name)} pull policy`);
      }
    }
  }
  const config = configOf(named(render('sluice-controller', 'a', { ...sets, 'injector.tapImage.tag': '1.2.3' }), 'ConfigMap', 'sluice-controller'), 'controller.yaml');
  assert.equal(at(config, 'injector.tap_image'), 'registry.example.com/team/sluice/tap:1.2.3');
  assert.equal(at(config, 'injector.agent_image'), 'registry.example.com/team/sluice/agent:0.1.0');
  const own = podSpecs(render('sluice-controller', 'a', { 'image.registry': 'r.io', 'image.tag': '9.9.9', 'image.pullPolicy': 'Always' })).find((p) => p.owner.startsWith('Deployment/sluice-controller'));
  assert.equal(containersOf(obj(own?.spec, 'spec'))[0].image, 'r.io/sluice/controller:9.9.9');
  assert.equal(containersOf(obj(own?.spec, 'spec'))[0].imagePullPolicy, 'Always');
});

test('every pod of the charts runs as a numeric, non-root user', () => {
  for (const chart of ['sluice-agent', 'sluice-controller']) {
    for (const { owner, spec } of podSpecs(render(chart, 'a', {}))) {
      for (const c of containersOf(spec)) {
        const user = at(c, 'securityContext') !== undefined && obj(c.securityContext, 'sc').runAsUser !== undefined ? obj(c.securityContext, 'sc').runAsUser : at(spec, 'securityContext.runAsUser');
        assert.ok(Number.isInteger(user) && Number(user) > 0, `${owner} ${String(c.name)}: runAsUser ${String(user)}`);
      }
    }
  }
});

test('release notes: the controller\'s curl speaks the port\'s scheme; the CRD is said to be installed', () => {
  const tls = notes('sluice-controller', 'team-a');
  assert.doesNotMatch(tls, /curl http:\/\//);
  assert.match(tls, /curl --cacert sluice-ca\.crt --resolve sluice-controller\.team-a\.svc:8080:127\.0\.0\.1 https:\/\/sluice-controller\.team-a\.svc:8080\/v1\/status\/system\/readiness/);
  assert.match(tls, /This chart installed the\nPolicy CRD/);
  assert.doesNotMatch(tls, /^\s*kubectl apply -f crds\/\s*$/m);
  assert.match(tls, /etcd: http:\/\/etcd\.team-a\.svc\.cluster\.local:2379/);
  const plain = notes('sluice-controller', 'team-a', { 'config.server.tls.enabled': false, 'webhook.enabled': false });
  assert.match(plain, /curl http:\/\/127\.0\.0\.1:8080\/v1\/status\/system\/readiness/);
  const agent = notes('sluice-agent', 'team-b', { mode: 'sidecar', 'config.server.tls.enabled': true, 'tls.secretName': 'agent-tls', 'controller.namespace': 'team-a' });
  assert.match(agent, /etcd: http:\/\/etcd\.team-a\.svc\.cluster\.local:2379/);
  // Sidecar mode: the agent serves the tap (no TLS to itself); the daemonset notes give the separate taps the CA.
  assert.doesNotMatch(agent, /--agent-tls-ca|name: sluice-tap/);
  assert.match(agent, /- name: tap\n\s+containerPort: 8081\n\s+protocol: TCP/);
  const daemonset = notes('sluice-agent', 'team-b', { 'config.server.tls.enabled': true, 'tls.secretName': 'agent-tls', 'controller.namespace': 'team-a' });
  assert.match(daemonset, /sluice-tap --listen 0\.0\.0\.0:8081 .* --agent-tls-ca <CA file of the agent's certificate>/);
});
