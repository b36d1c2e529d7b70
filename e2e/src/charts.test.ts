// Structural checks of the Helm charts (charts/) and the plain manifests (deploy/kubernetes/)
// that need no Helm binary: chart metadata, values, template references and helpers, the
// configuration trees against the reference's key trees, and the plain manifests against the
// charts' default values.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'yaml';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { defaultConfig, defaultWorkload } from './support/helm-render.js';
import { ROOT, read, obj, arr, at, AGENT_TREE, CONTROLLER_TREE, AGENT_TOP, CONTROLLER_TOP, unknownConfigKeys, envNames, defines, detemplate, missingValues, includesOf, CHARTS, templateFiles, template, values, docsOf, releaseDocs, templateDocs, objectNamed, CRD_COPIES, manifestDocs, one, workload, firstContainer } from './support/chart-checks.js';

test('the key tables give the reference top-level key sets', () => {
  const tops = (t: Record<string, string>) => [...new Set(Object.keys(t).map((p) => p.split('.')[0]))].sort();
  assert.deepEqual(tops(AGENT_TREE), [...AGENT_TOP].sort());
  assert.deepEqual(tops(CONTROLLER_TREE), [...CONTROLLER_TOP].sort());
});

test('the checkers catch bad input', () => {
  assert.deepEqual(unknownConfigKeys({ server: { listener: { addr: ':1', port: 1 } }, bogus: {} }, AGENT_TREE),
    ['server.listener.port', 'bogus']);
  assert.deepEqual(unknownConfigKeys({ policies: { cr_watcher: { enabled: true } } }, AGENT_TREE), ['policies']);
  assert.deepEqual(unknownConfigKeys({ dist_cache: {} }, CONTROLLER_TREE), ['dist_cache']);
  assert.deepEqual(unknownConfigKeys({ flow_control: { preview: {} } }, AGENT_TREE), ['flow_control.preview']);
  assert.deepEqual(unknownConfigKeys([], AGENT_TREE), ['(config is not a mapping)']);
  assert.ok(envNames(AGENT_TREE, 'SLUICE_AGENT_').has('SLUICE_AGENT_FLOW_CONTROL_PREVIEW_SERVICE_ENABLED'));
  assert.ok(!envNames(AGENT_TREE, 'SLUICE_AGENT_').has('SLUICE_AGENT_POLICIES_CR_WATCHER_ENABLED'));
  assert.deepEqual(missingValues('{{ .Values.a.b }} {{ $.Values.a.c }} {{ .Values.d }}', { a: { b: 1 } }),
    ['.Values.a.c', '.Values.d']);
  assert.throws(() => defines('{{ if .x }}{{ define "a" }}{{ end }}'), /without end/);
  assert.throws(() => defines('{{ end }}'), /unbalanced/);
  assert.throws(() => defines('{{ define "a" }}{{ end }}{{ define "a" }}{{ end }}'), /twice/);
  assert.equal(defines('{{- define "a" -}}x{{ if .y }}z{{ end }}{{- end }}').get('a'), 'x{{ if .y }}z{{ end }}');
  assert.deepEqual(includesOf('{{ include "a.b" . }}{{ template "c" }}'), ['a.b', 'c']);
  assert.equal(detemplate('a: {{ .x }}\n  {{- with .y }}\nb: 1'), 'a: TEMPLATE\nb: 1');
});

for (const c of CHARTS) {
  test(`${c.dir}: Chart.yaml`, () => {
    const chart = obj(parse(read('charts', c.dir, 'Chart.yaml')), 'Chart.yaml');
    assert.equal(chart.apiVersion, 'v2');
    assert.equal(chart.name, c.dir);
    assert.equal(chart.type, 'application');
    assert.equal(chart.appVersion, '0.1.0');
    assert.match(String(chart.version), /^\d+\.\d+\.\d+$/);
    assert.ok(typeof chart.description === 'string' && chart.description.length > 0);
  });

  test(`${c.dir}: values.yaml defaults`, () => {
    const v = values(c);
    assert.equal(at(v, 'image.repository'), c.image);
    assert.deepEqual(v.command, [c.command]);
    assert.equal(at(v, 'securityContext.runAsNonRoot'), true);
    assert.equal(at(v, 'securityContext.readOnlyRootFilesystem'), true);
    assert.equal(at(v, 'livenessProbe.httpGet.path'), '/v1/status/system/liveness');
    assert.equal(at(v, 'readinessProbe.httpGet.path'), '/v1/status/system/readiness');
    assert.equal(at(v, 'livenessProbe.httpGet.port'), 'server');
    assert.equal(at(v, 'readinessProbe.httpGet.port'), 'server');
    // The Prometheus annotations are derived (port and scheme from the server); podAnnotations adds to them.
    assert.deepEqual(v.podAnnotations, {});
    assert.equal(at(v, 'config.server.listener.addr'), ':8080');
    // etcd and Prometheus are derived from the release namespace unless set.
    assert.equal(at(v, 'config.etcd'), undefined);
    assert.equal(at(v, 'config.prometheus'), undefined);
    assert.equal(at(v, 'config.log.level'), 'info');
    for (const name of Object.keys(obj(v.env, 'env'))) assert.ok(name.startsWith(c.prefix), name);
    if (c.dir === 'sluice-agent') {
      assert.equal(v.mode, 'daemonset');
      assert.equal(v.hostNetwork, false);
      assert.equal(at(v, 'service.internalTrafficPolicy'), 'Local');
      assert.equal(at(v, 'config.dist_cache.bind_addr'), ':3320');
      assert.equal(at(v, 'config.dist_cache.memberlist_bind_addr'), ':3322');
      assert.equal(at(v, 'config.flow_control.preview_service.enabled'), true);
    } else {
      assert.equal(v.replicaCount, 1);
      assert.equal(at(v, 'config.policies.cr_watcher.enabled'), true);
    }
  });

  test(`${c.dir}: config uses only the reference's keys`, () => {
    const config = values(c).config;
    const top = c.dir === 'sluice-agent' ? AGENT_TOP : CONTROLLER_TOP;
    for (const key of Object.keys(obj(config, 'config'))) assert.ok(top.includes(key), `top-level key ${key}`);
    assert.deepEqual(unknownConfigKeys(config, c.tree), []);
  });

  test(`${c.dir}: SLUICE_* names in templates, docs and manifests are key paths`, () => {
    const allowed = envNames(c.tree, c.prefix);
    const texts = [...templateFiles(c).map((f) => template(c, f)), read('charts', c.dir, 'README.md'),
      ...readdirSync(join(ROOT, 'deploy', 'kubernetes')).map((f) => read('deploy', 'kubernetes', f))];
    const used = new Set(texts.flatMap((t) => [...t.matchAll(new RegExp(`\\b${c.prefix}[A-Z0-9_]+`, 'g'))].map((m) => m[0])));
    assert.ok(used.size > 0);
    for (const name of used) assert.ok(allowed.has(name), `${name} names no configuration key`);
  });

  test(`${c.dir}: template references resolve`, () => {
    const v = values(c);
    const helpers = defines(template(c, '_helpers.tpl'));
    const used = new Set<string>();
    for (const f of templateFiles(c)) {
      const text = template(c, f);
      assert.deepEqual(missingValues(text, v), [], `${f}: .Values references`);
      assert.doesNotThrow(() => defines(text), `${f}: blocks balance`);
      assert.ok(!text.includes('\t'), `${f}: no tabs`);
      for (const name of includesOf(text)) {
        assert.ok(helpers.has(name), `${f}: include "${name}" has a define`);
        used.add(name);
      }
    }
    for (const name of helpers.keys()) {
      assert.ok(name.startsWith(`${c.dir}.`), `${name} is namespaced by the chart`);
      assert.ok(used.has(name), `define "${name}" is used`);
    }
    for (const h of ['name', 'fullname', 'labels', 'selectorLabels']) assert.ok(helpers.has(`${c.dir}.${h}`));
  });

  test(`${c.dir}: templates have the shape of the plain manifests`, () => {
    const docs = docsOf(c);
    const kinds: string[] = [];
    for (const f of templateFiles(c).filter((n) => n.endsWith('.yaml'))) {
      for (const doc of templateDocs(template(c, f), f)) {
        assert.ok(doc.apiVersion && doc.kind && at(doc, 'metadata.name'), `${f}: apiVersion, kind, metadata.name`);
        kinds.push(`${String(doc.kind)}/${String(at(doc, 'metadata.name')).includes('TEMPLATE') ? '' : String(at(doc, 'metadata.name'))}`);
        if (doc.kind === 'ClusterRole') assert.deepEqual(doc.rules, one(docs, 'ClusterRole').rules, 'same RBAC rules');
        if ((doc.kind === 'Deployment' || doc.kind === 'DaemonSet') && at(doc, 'metadata.name') === 'TEMPLATE') {
          const annotations = obj(at(doc, 'spec.template.metadata.annotations'), 'pod annotations');
          assert.equal(annotations['checksum/config'], 'TEMPLATE', 'config checksum rolls the pods');
          const spec = obj(at(workload(c), 'spec.template.spec'), 'pod spec');
          const tspec = obj(at(doc, 'spec.template.spec'), 'template pod spec');
          for (const k of Object.keys(spec)) assert.ok(Object.hasOwn(tspec, k), `pod spec key ${k} is templated`);
        }
      }
    }
    // The plain manifests hold the same objects, the chart's own (templated names) and the embedded
    // ones (fixed names), less the webhook's Secret, which webhook-certificate.sh creates there.
    const plain = releaseDocs(c).map((d) => `${String(d.kind)}/${at(d, 'metadata.labels') && obj(at(d, 'metadata.labels'), 'labels')['app.kubernetes.io/name'] === c.dir ? '' : String(at(d, 'metadata.name'))}`);
    // Off by default, so not in the plain manifests: NetworkPolicies, ServiceMonitor, PodMonitor, cert-manager's Issuers and Certificates.
    const optional = /^(NetworkPolicy|ServiceMonitor|PodMonitor|Issuer|Certificate)\//;
    assert.deepEqual(kinds.filter((k) => k !== 'Secret/' && !optional.test(k)).sort(), plain.sort());
    const configMap = detemplate(template(c, 'configmap.yaml'));
    assert.ok(configMap.includes(`  ${c.configFile}: |\n`), 'ConfigMap holds the config file');
    // .Values.config with the addresses it leaves out derived from the release (the chart's config helper).
    assert.ok(template(c, 'configmap.yaml').includes(`include "${c.dir}.config" . | nindent 4`));
    assert.match(defines(template(c, '_helpers.tpl')).get(`${c.dir}.config`) ?? '', /deepCopy \.Values\.config/);
  });

  test(`${c.dir}: plain manifests match the default values`, () => {
    const v = values(c);
    const docs = docsOf(c);
    const configMap = one(docs, 'ConfigMap');
    assert.deepEqual(parse(String(obj(configMap.data, 'data')[c.configFile])), defaultConfig(c.dir as 'sluice-agent' | 'sluice-controller'), 'same configuration');
    const w = workload(c);
    const pod = obj(at(w, 'spec.template.spec'), 'pod spec');
    const ctr = firstContainer(w);
    assert.equal(ctr.image, `${c.image}:0.1.0`);
    assert.deepEqual(ctr.command, v.command);
    for (const k of ['resources', 'securityContext']) assert.deepEqual(ctr[k], v[k], k);
    assert.deepEqual(pod.securityContext, v.podSecurityContext);
    const rendered = defaultWorkload(c.dir as 'sluice-agent' | 'sluice-controller');
    const annotations = { ...obj(at(rendered, 'spec.template.metadata.annotations'), 'annotations') };
    delete annotations['checksum/config'];
    // The group key's checksum: the chart rolls the pods on a new key; dist-cache-key.sh never replaces one.
    if (c.dir === 'sluice-agent') assert.match(String(annotations['checksum/dist-cache-key']), /^[0-9a-f]{64}$/);
    delete annotations['checksum/dist-cache-key'];
    assert.deepEqual(at(w, 'spec.template.metadata.annotations'), annotations);
    for (const k of ['livenessProbe', 'readinessProbe']) assert.deepEqual(ctr[k], firstContainer(rendered)[k], k);
    assert.notEqual(pod.hostNetwork, true);
    // The config file lands at the process's default path.
    const mount = arr(ctr.volumeMounts, 'volumeMounts').map((m) => obj(m, 'mount')).find((m) => m.name === 'config');
    const volume = arr(pod.volumes, 'volumes').map((x) => obj(x, 'volume')).find((x) => x.name === 'config');
    const service = c.dir.replace('sluice-', '');
    const items = arr(at(volume, 'configMap.items'), 'items').map((i) => obj(i, 'item'));
    assert.equal(at(volume, 'configMap.name'), at(configMap, 'metadata.name'));
    assert.equal(`${String(mount?.mountPath)}/${String(items[0].path)}`, `/etc/sluice/${service}/config/${service}.yaml`);
    assert.equal(items[0].key, c.configFile);
    assert.equal(mount?.readOnly, true);
    const mounted = new Set(arr(pod.volumes, 'volumes').map((x) => obj(x, 'volume').name));
    // The volumes (the key Secret's name and mode, items) and mounts are the chart's.
    assert.deepEqual(pod.volumes, at(rendered, 'spec.template.spec.volumes'), 'same volumes');
    assert.deepEqual(ctr.volumeMounts, firstContainer(rendered).volumeMounts, 'same volume mounts');
    for (const m of arr(ctr.volumeMounts, 'volumeMounts')) assert.ok(mounted.has(obj(m, 'mount').name));
    // Probes and the Service reach the `server` port, 8080.
    const ports = arr(ctr.ports, 'ports').map((p) => obj(p, 'port'));
    assert.equal(ports.find((p) => p.name === 'server')?.containerPort, 8080);
    const svc = objectNamed(docs, 'Service', c.dir);
    assert.deepEqual(arr(at(svc, 'spec.ports'), 'service ports').map((p) => [obj(p, 'p').port, obj(p, 'p').targetPort]), [[8080, 'server']]);
    const labels = obj(at(w, 'spec.template.metadata.labels'), 'pod labels');
    for (const sel of [at(svc, 'spec.selector'), at(w, 'spec.selector.matchLabels')]) {
      for (const [k, val] of Object.entries(obj(sel, 'selector'))) assert.equal(labels[k], val, `selector ${k}`);
    }
    // RBAC binds the ClusterRole to the ServiceAccount the pods run as.
    const binding = one(docs, 'ClusterRoleBinding');
    assert.equal(at(binding, 'roleRef.name'), at(one(docs, 'ClusterRole'), 'metadata.name'));
    const subject = obj(arr(binding.subjects, 'subjects')[0], 'subject');
    assert.equal(subject.name, pod.serviceAccountName);
    assert.equal(subject.name, at(one(docs, 'ServiceAccount'), 'metadata.name'));
    assert.equal(subject.namespace, 'sluice-system');
  });
}

test('plain manifests: every document is a named object in sluice-system', () => {
  const docs = manifestDocs();
  assert.ok(docs.length >= 13);
  const clusterScoped = ['Namespace', 'ClusterRole', 'ClusterRoleBinding', 'CustomResourceDefinition', 'MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration'];
  for (const d of docs) {
    assert.ok(typeof d.apiVersion === 'string' && typeof d.kind === 'string', 'apiVersion and kind');
    assert.ok(typeof at(d, 'metadata.name') === 'string', `${String(d.kind)} has metadata.name`);
    if (!clusterScoped.includes(String(d.kind))) assert.equal(at(d, 'metadata.namespace'), 'sluice-system');
  }
  const first = readdirSync(join(ROOT, 'deploy', 'kubernetes')).filter((n) => n.endsWith('.yaml')).sort()[0];
  assert.equal(obj(parse(read('deploy', 'kubernetes', first)), first).kind, 'Namespace', 'the namespace applies first');
  assert.equal(at(one(docs, 'Namespace'), 'metadata.name'), 'sluice-system');
});

test('the Policy CRD: the chart and the plain manifests carry crds/ byte for byte', () => {
  const crd = read('crds', 'policies.sluice.dev.yaml');
  for (const copy of CRD_COPIES) assert.equal(read(...copy), crd, `${copy.join('/')} differs from crds/policies.sluice.dev.yaml: copy it again`);
  assert.ok(parse(read('deploy', 'kubernetes', 'kustomization.yaml')).resources.includes('05-crd-policies.yaml'));
});
