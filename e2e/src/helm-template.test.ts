// `helm lint --strict` and `helm template` of both charts over a matrix of values (one row per render: add a row to cover a
// new value). Every rendered object must pass the Kubernetes schema of its kind with unknown fields
// refused (support/k8s-schema.ts), and every rendered agent and controller container must start:
// its ConfigMap's file and its env, given to the real bin/sluice-agent or bin/sluice-controller with
// --print-config, must be accepted. Then what each row is about is checked on the printed tree and
// the objects, and for every render: the container's ports follow the printed listener addresses,
// the probes' scheme follows server.tls, TLS files are mounted; every agent container gets past the
// dist cache's key check at start (support/dist-key.ts: its key file, from the Secret volume mounted
// there, read with the agent's own check).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, describe, it, test } from 'node:test';
import { parse } from 'yaml';
import { isObj, type Obj } from './support/chart-checks.js';
import { AGENT_CHART, CONTROLLER_CHART, helmFor, setJson } from './support/helm.js';
import { schemaProblems } from './support/k8s-schema.js';
import { startKeyring } from './support/dist-key.js';
import { containerEnv, printConfig, startedConfig, type Service } from './support/pod-config.js';
import type { InjectorConfig } from '@sluice/config';
import { injectOptionsOf, planInjection, type InjectOptions } from '@sluice/kube';
import fastJsonPatch from 'fast-json-patch';

const NS = 'flow-test';
const AGENT_TLS = {
  'config.server.tls': { enabled: true, cert_file: '/etc/sluice/agent/tls/tls.crt', key_file: '/etc/sluice/agent/tls/tls.key' },
  extraVolumes: [{ name: 'agent-tls', secret: { secretName: 'agent-tls' } }],
  extraVolumeMounts: [{ name: 'agent-tls', mountPath: '/etc/sluice/agent/tls', readOnly: true }],
};

interface Workload { service: Service; name: string; container: string; config: Record<string, unknown> }
interface Rendered { objects: Obj[]; workloads: Workload[]; sidecarConfig?: Record<string, unknown> }
/** existing: Secrets the cluster holds already (named by the values, not rendered). */
interface Row { name: string; chart: Service; release: string; values: Record<string, unknown>; existing?: Obj[]; expect?: (r: Rendered) => void }

const kinds = (r: Rendered): string[] => r.objects.map((o) => String(o.kind));
const one = (r: Rendered, kind: string, name?: string): Obj => {
  const found = r.objects.filter((o) => o.kind === kind && (name === undefined || get(o, 'metadata', 'name') === name));
  assert.equal(found.length, 1, `one ${kind}${name ? ` ${name}` : ''} rendered (${found.length})`);
  return found[0];
};
const get = (o: unknown, ...path: (string | number)[]): unknown => path.reduce<unknown>((cur, k) => (isObj(cur) || Array.isArray(cur) ? (cur as Record<string, unknown>)[k] : undefined), o);
const cfg = (r: Rendered, service: Service): Record<string, unknown> => (r.workloads.find((w) => w.service === service) ?? assert.fail(`no ${service} workload`)).config;

const TEAM_KEY: Obj = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'team-key', namespace: NS }, data: { group: Buffer.from('0123456789abcdef0123456789abcdef\nfedcba9876543210fedcba9876543210\n').toString('base64') } };

/** A workload's pod in namespace shop as the webhook injects it, wrapped as a workload of that namespace. */
function injectedPod(o: InjectOptions): Obj {
  const pod: Obj = { metadata: { name: 'web-0', namespace: 'shop', annotations: { 'sluice.dev/inject': 'true' } }, spec: { containers: [{ name: 'web', image: 'web', ports: [{ name: 'http', containerPort: 3000 }] }] } };
  const plan = planInjection(pod, { namespaceEnabled: true }, o);
  assert.equal(plan.action, 'inject', plan.action === 'refuse' ? plan.message : plan.action);
  const patched = fastJsonPatch.applyPatch(pod, plan.action === 'inject' ? plan.patch as fastJsonPatch.Operation[] : [], true, false).newDocument;
  return { kind: 'Pod', metadata: { name: 'web-0', namespace: 'shop' }, spec: { template: { spec: patched.spec } } };
}
/** The env of the agent the controller of a render injects (sidecar mode), with the controller's own TLS. */
function injectedAgentEnv(r: Rendered): Record<string, string> {
  const c = cfg(r, 'controller');
  const pod = injectedPod(injectOptionsOf(get(c, 'injector') as InjectorConfig, { tls: get(c, 'server', 'tls', 'enabled') === true }));
  const agent = (get(pod, 'spec', 'template', 'spec', 'containers') as Obj[]).find((x) => x.name === 'sluice-agent') ?? assert.fail('an agent is injected');
  return Object.fromEntries((agent.env as Obj[]).filter((e) => typeof e.value === 'string').map((e) => [String(e.name), String(e.value)]));
}
const SHOP_KEY: Obj = { ...TEAM_KEY, metadata: { name: 'sluice-agent-dist-cache-key', namespace: 'shop' }, data: { keys: Buffer.from('0123456789abcdef0123456789abcdef\n').toString('base64') } };

const ROWS: Row[] = [
  { name: 'agent: defaults (daemonset, TLS off)', chart: 'agent', release: 'edge', values: {}, expect: (r) => {
    assert.equal(get(cfg(r, 'agent'), 'server', 'tls', 'enabled'), false);
    assert.equal(get(one(r, 'DaemonSet'), 'spec', 'template', 'spec', 'hostNetwork'), false);
    // Agent functions: the agents dial the controller chart's Service over TLS, with its CA mounted.
    assert.deepEqual(get(cfg(r, 'agent'), 'agent_functions', 'endpoints'), [`sluice-controller.${NS}.svc.cluster.local:8080`]);
    assert.equal(get(cfg(r, 'agent'), 'agent_functions', 'client', 'grpc', 'insecure'), false);
    assert.equal(get(cfg(r, 'agent'), 'agent_functions', 'client', 'grpc', 'tls', 'ca_file'), '/etc/sluice/agent/controller-ca/ca.crt');
    const spec = get(one(r, 'DaemonSet'), 'spec', 'template', 'spec');
    assert.deepEqual(get((get(spec, 'volumes') as Obj[]).find((v) => v.name === 'controller-ca'), 'secret'), { secretName: 'sluice-controller-webhook-tls', optional: true, items: [{ key: 'ca.crt', path: 'ca.crt' }] });
    assert.ok((get(spec, 'containers', 0, 'volumeMounts') as Obj[]).some((m) => m.name === 'controller-ca' && m.mountPath === '/etc/sluice/agent/controller-ca'));
  } },
  { name: 'agent: a plaintext controller elsewhere', chart: 'agent', release: 'edge', values: { controller: { namespace: 'ops', serviceName: 'brain-sluice-controller', port: 9000, tls: false } }, expect: (r) => {
    assert.deepEqual(get(cfg(r, 'agent'), 'agent_functions', 'endpoints'), ['brain-sluice-controller.ops.svc.cluster.local:9000']);
    assert.equal(get(cfg(r, 'agent'), 'agent_functions', 'client', 'grpc', 'insecure'), true);
    assert.ok(!(get(one(r, 'DaemonSet'), 'spec', 'template', 'spec', 'volumes') as Obj[]).some((v) => v.name === 'controller-ca'));
  } },
  { name: 'agent: agent functions off, and a token file', chart: 'agent', release: 'edge', values: { 'config.agent_functions': { endpoints: [], token_file: '/etc/sluice/agent/token/token' } }, expect: (r) => {
    assert.deepEqual(get(cfg(r, 'agent'), 'agent_functions', 'endpoints'), []);
    assert.equal(get(cfg(r, 'agent'), 'agent_functions', 'token_file'), '/etc/sluice/agent/token/token');
    assert.ok(!(get(one(r, 'DaemonSet'), 'spec', 'template', 'spec', 'volumes') as Obj[]).some((v) => v.name === 'controller-ca'));
  } },
  { name: 'agent: the chart\'s group key Secret', chart: 'agent', release: 'edge', values: {}, expect: (r) => {
    const secret = one(r, 'Secret', 'edge-sluice-agent-dist-cache-key');
    const key = Buffer.from(String(get(secret, 'data', 'keys')), 'base64').toString('utf8');
    assert.equal(Buffer.from(key, 'base64').length, 32, 'the key is 32 random bytes as base64 text');
    assert.equal(get(cfg(r, 'agent'), 'dist_cache', 'auth', 'key_file'), '/etc/sluice/agent/dist-cache/keys');
    const annotations = get(one(r, 'DaemonSet'), 'spec', 'template', 'metadata', 'annotations') as Obj;
    assert.equal(annotations['checksum/dist-cache-key'], createHash('sha256').update(String(get(secret, 'data', 'keys'))).digest('hex'), 'the pods roll when the key changes');
  } },
  { name: 'agent: an existing group key Secret', chart: 'agent', release: 'edge', values: { 'distCache.auth': { existingSecret: 'team-key', secretKey: 'group' } }, existing: [TEAM_KEY], expect: (r) => {
    assert.ok(!kinds(r).includes('Secret'), 'no Secret rendered: the given one is mounted');
    const volumes = get(one(r, 'DaemonSet'), 'spec', 'template', 'spec', 'volumes') as Obj[];
    assert.deepEqual(get(volumes.find((v) => v.name === 'dist-cache-key'), 'secret', 'secretName'), 'team-key');
  } },
  { name: 'agent: TLS on', chart: 'agent', release: 'edge', values: AGENT_TLS, expect: (r) => assert.equal(get(cfg(r, 'agent'), 'server', 'tls', 'enabled'), true) },
  { name: 'agent: sidecar mode', chart: 'agent', release: 'edge', values: { mode: 'sidecar' }, expect: (r) => {
    assert.ok(!kinds(r).includes('DaemonSet'), 'no DaemonSet in sidecar mode');
    assert.equal(get(r.sidecarConfig, 'agent_info', 'agent_group'), 'default');
    // The agent serves the tap itself, in front of sidecar.appPort.
    assert.deepEqual(get(r.sidecarConfig, 'tap'), { ...(get(r.sidecarConfig, 'tap') as Obj), enabled: true, listen: '0.0.0.0:8081', upstream: 'http://127.0.0.1:3000', control_point: 'ingress' });
  } },
  { name: 'agent: sidecar mode with TLS', chart: 'agent', release: 'edge', values: { mode: 'sidecar', 'config.server.tls': AGENT_TLS['config.server.tls'] }, expect: (r) => assert.equal(get(r.sidecarConfig, 'server', 'tls', 'enabled'), true) },
  { name: 'agent: a second agent group', chart: 'agent', release: 'edge-b', values: { 'config.agent_info.agent_group': 'group-b' }, expect: (r) => {
    assert.equal(get(cfg(r, 'agent'), 'agent_info', 'agent_group'), 'group-b');
    assert.equal(get(one(r, 'DaemonSet'), 'metadata', 'name'), 'edge-b-sluice-agent');
  } },
  { name: 'agent: hostNetwork', chart: 'agent', release: 'edge', values: { hostNetwork: true }, expect: (r) => {
    const spec = get(one(r, 'DaemonSet'), 'spec', 'template', 'spec');
    assert.equal(get(spec, 'hostNetwork'), true);
    assert.equal(get(spec, 'dnsPolicy'), 'ClusterFirstWithHostNet');
  } },
  { name: 'agent: other ports', chart: 'agent', release: 'edge', values: { 'config.server.listener.addr': ':9080', 'config.dist_cache.bind_addr': ':4320', 'config.dist_cache.memberlist_bind_addr': ':4322' } },
  { name: 'agent: no agent Service', chart: 'agent', release: 'edge', values: { 'service.enabled': false }, expect: (r) => {
    assert.deepEqual(r.objects.filter((o) => o.kind === 'Service').map((o) => get(o, 'metadata', 'name')), ['edge-sluice-agent-peers']);
  } },
  { name: 'controller: a given webhook certificate', chart: 'controller', release: 'brain', values: { 'webhook.tls': { certificate: 'CERT-PEM', key: 'KEY-PEM', caBundle: 'CA-PEM' } }, expect: (r) => {
    const b64 = (v: string): string => Buffer.from(v).toString('base64');
    assert.deepEqual(get(one(r, 'Secret'), 'data'), { 'tls.crt': b64('CERT-PEM'), 'tls.key': b64('KEY-PEM'), 'ca.crt': b64('CA-PEM') });
    for (const w of get(one(r, 'MutatingWebhookConfiguration'), 'webhooks') as Obj[]) assert.equal(get(w, 'clientConfig', 'caBundle'), b64('CA-PEM'));
  } },
  { name: 'controller: webhook certificate from an existing Secret', chart: 'controller', release: 'brain', values: { 'webhook.certificate.existingSecret': 'hook-tls', 'webhook.tls.caBundle': 'CA-PEM' }, expect: (r) => {
    assert.ok(!kinds(r).includes('Secret'), 'the given Secret is not rendered');
    const volumes = get(one(r, 'Deployment', 'brain-sluice-controller'), 'spec', 'template', 'spec', 'volumes') as Obj[];
    assert.equal(get(volumes.find((v) => v.name === 'webhook-tls'), 'secret', 'secretName'), 'hook-tls', 'the controller mounts it');
    for (const kind of ['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration']) {
      for (const w of get(one(r, kind), 'webhooks') as Obj[]) assert.equal(get(w, 'clientConfig', 'caBundle'), Buffer.from('CA-PEM').toString('base64'));
    }
  } },
  { name: 'controller: webhook certificate from cert-manager', chart: 'controller', release: 'brain', values: { 'webhook.certManager.enabled': true }, expect: (r) => {
    assert.ok(!kinds(r).includes('Secret'), 'no Secret and no key rendered: cert-manager issues it');
    assert.deepEqual(r.objects.filter((o) => String(o.apiVersion).startsWith('cert-manager.io/')).map((o) => `${String(o.kind)} ${String(get(o, 'metadata', 'name'))}`).sort(),
      ['Certificate brain-sluice-controller-webhook', 'Certificate brain-sluice-controller-webhook-ca', 'Issuer brain-sluice-controller-selfsigned', 'Issuer brain-sluice-controller-webhook-ca']);
    const cert = one(r, 'Certificate', 'brain-sluice-controller-webhook');
    assert.equal(get(cert, 'spec', 'secretName'), 'brain-sluice-controller-webhook-tls');
    assert.ok((get(cert, 'spec', 'dnsNames') as string[]).includes(`brain-sluice-controller.${NS}.svc`));
    const volumes = get(one(r, 'Deployment', 'brain-sluice-controller'), 'spec', 'template', 'spec', 'volumes') as Obj[];
    assert.equal(get(volumes.find((v) => v.name === 'webhook-tls'), 'secret', 'secretName'), 'brain-sluice-controller-webhook-tls');
    for (const kind of ['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration']) {
      const hook = one(r, kind);
      assert.equal(get(hook, 'metadata', 'annotations', 'cert-manager.io/inject-ca-from'), `${NS}/brain-sluice-controller-webhook`);
      for (const w of get(hook, 'webhooks') as Obj[]) assert.equal(get(w, 'clientConfig', 'caBundle'), undefined, 'cert-manager injects the CA');
    }
  } },
  { name: 'controller: cert-manager with an issuer of mine', chart: 'controller', release: 'brain', values: { 'webhook.certManager': { enabled: true, issuerRef: { name: 'corp-ca', kind: 'ClusterIssuer', group: 'cert-manager.io' } } }, expect: (r) => {
    assert.ok(!kinds(r).includes('Issuer'));
    assert.deepEqual(get(one(r, 'Certificate'), 'spec', 'issuerRef'), { name: 'corp-ca', kind: 'ClusterIssuer', group: 'cert-manager.io' });
  } },
  { name: 'controller: defaults (TLS on)', chart: 'controller', release: 'brain', values: {}, expect: (r) => assert.equal(get(cfg(r, 'controller'), 'server', 'tls', 'enabled'), true) },
  { name: 'controller: TLS off, webhook off', chart: 'controller', release: 'brain', values: { 'config.server.tls': { enabled: false }, 'webhook.enabled': false }, expect: (r) => {
    assert.equal(get(cfg(r, 'controller'), 'server', 'tls', 'enabled'), false);
    assert.ok(!kinds(r).includes('MutatingWebhookConfiguration'));
  } },
  { name: 'controller: sidecar injection with the group key Secret', chart: 'controller', release: 'brain', values: { 'config.injector.mode': 'sidecar' }, existing: [SHOP_KEY], expect: (r) => {
    assert.equal(get(cfg(r, 'controller'), 'injector', 'mode'), 'sidecar');
    assert.equal(get(cfg(r, 'controller'), 'injector', 'sidecar_agent_key_secret'), 'sluice-agent-dist-cache-key');
    // The injected agents dial this release's Service for agent functions (TLS: the controller serves it).
    assert.equal(get(cfg(r, 'controller'), 'injector', 'controller_address'), `brain-sluice-controller.${NS}.svc.cluster.local:8080`);
    const injected = injectedAgentEnv(r);
    assert.equal(injected.SLUICE_AGENT_AGENT_FUNCTIONS_ENDPOINTS, `["brain-sluice-controller.${NS}.svc.cluster.local:8080"]`);
    assert.equal(injected.SLUICE_AGENT_AGENT_FUNCTIONS_CLIENT_GRPC_INSECURE, undefined);
  } },
  { name: 'controller: sidecar injection, plaintext controller', chart: 'controller', release: 'brain', values: { 'config.injector.mode': 'sidecar', 'config.server.tls': { enabled: false }, 'webhook.enabled': false }, existing: [SHOP_KEY], expect: (r) => {
    const injected = injectedAgentEnv(r);
    assert.equal(injected.SLUICE_AGENT_AGENT_FUNCTIONS_ENDPOINTS, `["brain-sluice-controller.${NS}.svc.cluster.local:8080"]`);
    assert.equal(injected.SLUICE_AGENT_AGENT_FUNCTIONS_CLIENT_GRPC_INSECURE, 'true');
  } },
  { name: 'controller: sidecar injection with another key Secret', chart: 'controller', release: 'brain', values: { 'config.injector.mode': 'sidecar', 'config.injector.sidecar_agent_key_secret': 'shop-key' },
    existing: [{ ...SHOP_KEY, metadata: { name: 'shop-key', namespace: 'shop' } }] },
  { name: 'controller: own etcd and Prometheus', chart: 'controller', release: 'brain', values: { 'etcd.enabled': false, 'prometheus.enabled': false, 'config.etcd.endpoints': ['http://etcd.db.svc:2379'], 'config.prometheus.address': 'http://prom.mon.svc:9090' }, expect: (r) => {
    assert.ok(!kinds(r).includes('StatefulSet'));
    assert.deepEqual(r.workloads.map((w) => w.name), ['brain-sluice-controller']);
  } },
];

const helm = helmFor();
after(() => helm.close());

/** The port of a `[host]:port` listener address. */
const portOf = (addr: unknown): number => Number(/:(\d+)$/.exec(String(addr))?.[1] ?? NaN);

/** What holds for every rendered agent and controller container, whatever the values. */
function checkContainer(workload: Obj, w: Workload): void {
  const container = (get(workload, 'spec', 'template', 'spec', 'containers') as Obj[]).find((c) => c.name === w.container) as Obj;
  const ports = new Map((container.ports as Obj[]).map((p) => [String(p.name), Number(p.containerPort)]));
  assert.equal(ports.get('server'), portOf(get(w.config, 'server', 'listener', 'addr')), `${w.name}: port "server" follows server.listener.addr`);
  if (w.service === 'agent') {
    assert.equal(ports.get('dist-cache'), portOf(get(w.config, 'dist_cache', 'bind_addr')), `${w.name}: port "dist-cache" follows dist_cache.bind_addr`);
    assert.equal(ports.get('memberlist'), portOf(get(w.config, 'dist_cache', 'memberlist_bind_addr')), `${w.name}: port "memberlist" follows dist_cache.memberlist_bind_addr`);
  }
  const tls = get(w.config, 'server', 'tls', 'enabled') === true;
  for (const probe of ['livenessProbe', 'readinessProbe']) {
    const scheme = get(container, probe, 'httpGet', 'scheme') ?? 'HTTP';
    assert.equal(scheme, tls ? 'HTTPS' : 'HTTP', `${w.name}: ${probe} scheme follows server.tls.enabled (${tls})`);
  }
  if (tls) {
    const mounts = (container.volumeMounts as Obj[]).map((m) => String(m.mountPath));
    for (const key of ['cert_file', 'key_file']) {
      const file = String(get(w.config, 'server', 'tls', key));
      assert.ok(mounts.some((m) => file.startsWith(`${m}/`)), `${w.name}: server.tls.${key} ${file} is on a mounted volume`);
    }
  }
}

// Two rows at a time: each mostly waits on helm and the binaries.
describe('helm lint and template over the values matrix', { concurrency: 2 }, () => {
  for (const row of ROWS) {
    it(`helm lint and template ${row.name}: objects valid for their kinds, configurations accepted by the binaries`, async () => {
      const chart = row.chart === 'agent' ? AGENT_CHART : CONTROLLER_CHART;
      assert.match(await helm.ok(['lint', '--strict', chart, '--namespace', NS, ...setJson(row.values)]), /0 chart\(s\) failed/);
      const objects = await helm.template(chart, row.release, NS, row.values, ['--include-crds']);
      assert.ok(objects.length > 0);
      const problems: string[] = [];
      for (const o of objects) for (const p of await schemaProblems(o)) problems.push(`${String(o.kind)} ${String(get(o, 'metadata', 'name'))}: ${p}`);
      assert.deepEqual(problems, [], 'every rendered object is valid for its kind');
      for (const o of objects) {
        if (get(o, 'metadata', 'namespace') !== undefined) assert.equal(get(o, 'metadata', 'namespace'), NS, `${String(o.kind)} ${String(get(o, 'metadata', 'name'))} is in the release namespace`);
      }
      const workloads: Workload[] = [];
      for (const o of objects) {
        if (o.kind !== 'DaemonSet' && o.kind !== 'Deployment') continue;
        const containers = get(o, 'spec', 'template', 'spec', 'containers') as Obj[];
        const c = containers.find((x) => x.name === 'agent' || x.name === 'controller');
        if (!c) continue;
        const service = c.name as Service;
        const w: Workload = { service, name: String(get(o, 'metadata', 'name')), container: service, config: await printConfig(service, startedConfig(objects, o, service, service)) };
        checkContainer(o, w);
        if (service === 'agent') {
          const started = startedConfig(objects, o, 'agent', 'agent');
          assert.ok(startKeyring(objects, o, 'agent', w.config, started.env, row.existing), `${w.name}: the agent starts with a group key`);
        }
        workloads.push(w);
      }
      const rendered: Rendered = { objects, workloads };
      if (row.chart === 'agent' && row.values.mode === 'sidecar') {
        const cm = one(rendered, 'ConfigMap');
        const file = Object.values(get(cm, 'data') as Record<string, string>)[0];
        rendered.sidecarConfig = await printConfig('agent', { file, env: { POD_NAME: 'pod-0', POD_NAMESPACE: NS }, args: [] });
      } else {
        assert.ok(workloads.some((w) => w.service === row.chart), `a ${row.chart} workload is rendered`);
      }
      if (row.chart === 'controller') {
        const prom = rendered.objects.find((o) => o.kind === 'ConfigMap' && get(o, 'metadata', 'name') === 'prometheus');
        if (prom) {
          const jobs = get(parse(String(get(prom, 'data', 'prometheus.yml'))), 'scrape_configs') as Obj[];
          const job = jobs.find((j) => j.job_name === 'sluice-controller') ?? assert.fail('Prometheus scrapes the controller');
          const tls = get(cfg(rendered, 'controller'), 'server', 'tls', 'enabled') === true;
          assert.equal(job.scheme ?? 'http', tls ? 'https' : 'http', 'Prometheus scrapes the controller with the scheme of its server');
        }
        // The sidecar agents the controller injects start from its injector.sidecar_agent_env alone.
        const env = get(cfg(rendered, 'controller'), 'injector', 'sidecar_agent_env') as Record<string, string>;
        await printConfig('agent', { file: '', env: { ...env, POD_NAME: 'pod-0', POD_NAMESPACE: 'shop' }, args: [] });
        // In sidecar mode, the agent the webhook injects (its whole env and mounts) passes the key check
        // with the group key Secret in the pod's namespace.
        if (get(cfg(rendered, 'controller'), 'injector', 'mode') === 'sidecar') {
          const pod = injectedPod(injectOptionsOf(get(cfg(rendered, 'controller'), 'injector') as InjectorConfig));
          const agent = (get(pod, 'spec', 'template', 'spec', 'containers') as Obj[]).find((c) => c.name === 'sluice-agent') ?? assert.fail('an agent is injected');
          const agentEnv = containerEnv(agent, 'shop');
          const printed = await printConfig('agent', { file: '', env: agentEnv, args: [] });
          assert.ok(startKeyring([], pod, 'sluice-agent', printed, agentEnv, row.existing), 'the injected agent starts with a group key');
          // ... and serves the tap itself: no tap container beside it.
          assert.equal(get(printed, 'tap', 'enabled'), true, 'the injected agent serves the tap');
          assert.ok(!(get(pod, 'spec', 'template', 'spec', 'containers') as Obj[]).some((c) => c.name === 'sluice-tap'), 'no tap container in sidecar mode');
        }
      }
      row.expect?.(rendered);
    });
  }
});

test('the checks refuse what a cluster or the binaries would: unknown fields, wrong types, a bad configuration', async () => {
  const values = { securityContext: { runAsNonRoot: true, readOnlyRootFilesytem: true }, 'resources.limits': { memory: ['512Mi'] }, 'config.server.listener.addr': 'abc' };
  const objects = await helm.template(AGENT_CHART, 'edge', NS, values);
  const ds = one({ objects, workloads: [] }, 'DaemonSet');
  const problems = (await schemaProblems(ds)).join('\n');
  assert.match(problems, /spec\.template\.spec\.containers\[0\]\.securityContext\.readOnlyRootFilesytem: unknown field/);
  assert.match(problems, /resources\/limits\/memory/);
  await assert.rejects(printConfig('agent', startedConfig(objects, ds, 'agent', 'agent')), /refused the rendered configuration[\s\S]*server\.listener\.addr/);
  // cert-manager objects: an unknown field, a wrong type, a kind without a schema.
  const certs = (await helm.template(CONTROLLER_CHART, 'brain', NS, { 'webhook.certManager.enabled': true })).filter((o) => String(o.apiVersion).startsWith('cert-manager.io/'));
  const cert = structuredClone(certs.find((o) => o.kind === 'Certificate') ?? assert.fail('a Certificate'));
  (cert.spec as Obj).dnsName = ['x'];
  (cert.spec as Obj).isCA = 'yes';
  const certProblems = (await schemaProblems(cert)).join('\n');
  assert.match(certProblems, /\/spec: must NOT have additional properties \(dnsName\)/);
  assert.match(certProblems, /\/spec\/isCA: must be boolean/);
  assert.deepEqual(await schemaProblems({ ...cert, kind: 'ClusterIssuer' }), ['no schema for cert-manager.io/v1, Kind=ClusterIssuer']);
});

test('the key check refuses an agent without a usable group key, as the agent would', async () => {
  const refuse = async (values: Record<string, unknown>, existing: Obj[], problem: RegExp): Promise<void> => {
    const objects = await helm.template(AGENT_CHART, 'edge', NS, values);
    const ds = one({ objects, workloads: [] }, 'DaemonSet');
    const started = startedConfig(objects, ds, 'agent', 'agent');
    const config = await printConfig('agent', started);
    assert.throws(() => startKeyring(objects, ds, 'agent', config, started.env, existing), problem);
  };
  // The chart's key left out: the agent's own refusal, naming the keys.
  await refuse({ 'distCache.auth.enabled': false }, [], /dist_cache\.bind_addr \(SLUICE_AGENT_DIST_CACHE_BIND_ADDR\) :3320 and dist_cache\.memberlist_bind_addr .* not on loopback and no key: set dist_cache\.auth\.key_file/);
  // An existing Secret whose key is too short.
  const short = { ...TEAM_KEY, data: { group: Buffer.from('short\n').toString('base64') } };
  await refuse({ 'distCache.auth': { existingSecret: 'team-key', secretKey: 'group' } }, [short], /key_file .* (16|short)/);
  // A mode only root could read while the agent runs as 65532.
  await refuse({ 'distCache.auth.defaultMode': 256 }, [], /mode 400 is not readable by user 65532/);
  // Named, but not in the cluster.
  await refuse({ 'distCache.auth.existingSecret': 'missing' }, [], /Secret missing is neither rendered nor in the cluster/);
  // An injected agent without a key Secret to mount: the agent's refusal.
  const ctl = await helm.template(CONTROLLER_CHART, 'brain', NS, { 'config.injector': { mode: 'sidecar', sidecar_agent_key_secret: '' } });
  const deployment = one({ objects: ctl, workloads: [] }, 'Deployment', 'brain-sluice-controller');
  const injector = get(await printConfig('controller', startedConfig(ctl, deployment, 'controller', 'controller')), 'injector') as InjectorConfig;
  const noKey = injectedPod(injectOptionsOf(injector));
  const agent = (get(noKey, 'spec', 'template', 'spec', 'containers') as Obj[]).find((c) => c.name === 'sluice-agent') as Obj;
  const env = containerEnv(agent, 'shop');
  assert.equal(env.SLUICE_AGENT_DIST_CACHE_AUTH_KEY_FILE, undefined);
  const printed = await printConfig('agent', { file: '', env, args: [] });
  assert.throws(() => startKeyring([], noKey, 'sluice-agent', printed, env), /dist_cache\.bind_addr .*:3320 and .* not on loopback and no key/);
});
