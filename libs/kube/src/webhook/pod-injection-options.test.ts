// What the injector's options and a pod's annotations put into the injected containers: the sidecar
// agent's installation mode, group, memory bound and scrape annotations, the tap's agent address,
// TLS files and probes, and numeric users.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fastJsonPatch from 'fast-json-patch';
import { resolveConfig } from '@sluice/config';
import { injectOptionsOf, type InjectOptions } from './inject-options.js';
import { AGENT_KEY_DIR, oldSpaceMb, planInjection, TAP_TLS_DIR } from './pod-injection.js';

type Obj = Record<string, unknown>;
const optionsOf = (env: Record<string, string>): InjectOptions => injectOptionsOf(resolveConfig({ process: 'controller', env, requireKeys: [] }).injector);
const SIDECAR = optionsOf({ SLUICE_CONTROLLER_INJECTOR_MODE: 'sidecar' });
const DAEMONSET = optionsOf({});

function pod(annotations: Record<string, string>): Obj {
  return {
    metadata: { name: 'web-1', namespace: 'shop', annotations: { 'sluice.dev/inject': 'true', ...annotations } },
    spec: { containers: [{ name: 'web', image: 'nginx', ports: [{ name: 'http', containerPort: 8080 }] }] },
  };
}

/** The pod after the plan's patch; fails on a refusal. */
function injected(p: Obj, o: InjectOptions): Obj {
  const plan = planInjection(p, { namespaceEnabled: false }, o);
  assert.equal(plan.action, 'inject', plan.action === 'refuse' ? plan.message : plan.action);
  if (plan.action !== 'inject') return p;
  return fastJsonPatch.applyPatch(structuredClone(p), plan.patch as fastJsonPatch.Operation[], true, false).newDocument;
}
const container = (p: Obj, name: string): Obj => {
  const c = (p.spec as { containers: Obj[] }).containers.find((x) => x.name === name);
  assert.ok(c, name);
  return c;
};
const envOf = (c: Obj): Record<string, unknown> => Object.fromEntries((c.env as Obj[]).map((e) => [e.name, e.value]));
const annotationsOf = (p: Obj): Record<string, string> => (p.metadata as { annotations: Record<string, string> }).annotations;
const refusal = (p: Obj, o: InjectOptions): string => {
  const plan = planInjection(p, { namespaceEnabled: false }, o);
  assert.equal(plan.action, 'refuse');
  return plan.action === 'refuse' ? `${plan.reason}: ${plan.message}` : '';
};

test('a sidecar agent says it is one, finds its peers through etcd, is bounded at 75% of its memory limit, runs with the configured semi-space and is scraped', () => {
  const out = injected(pod({}), SIDECAR);
  const agent = container(out, 'sluice-agent');
  const env = envOf(agent);
  assert.equal(env.SLUICE_AGENT_CLOUDEXT_INSTALLATION_MODE, 'KUBERNETES_SIDECAR');
  assert.equal(env.SLUICE_NODE_FLAGS, '--max-old-space-size=192 --max-semi-space-size=16');
  assert.deepEqual(agent.resources, { requests: { cpu: '50m', memory: '64Mi' }, limits: { memory: '256Mi' } });
  assert.equal(env.SLUICE_AGENT_AGENT_INFO_AGENT_GROUP, undefined, 'the configured group by default');
  assert.deepEqual({ ...annotationsOf(out) }, {
    'sluice.dev/inject': 'true', 'sluice.dev/injected': 'true', 'prometheus.io/scrape': 'true', 'prometheus.io/port': '8090', 'prometheus.io/path': '/metrics',
  });
  const big = envOf(container(injected(pod({}), optionsOf({
    SLUICE_CONTROLLER_INJECTOR_MODE: 'sidecar', SLUICE_CONTROLLER_INJECTOR_SIDECAR_AGENT_MEMORY_LIMIT: '1Gi', SLUICE_CONTROLLER_INJECTOR_SIDECAR_AGENT_SEMI_SPACE_MB: '4',
  })), 'sluice-agent'));
  assert.equal(big.SLUICE_NODE_FLAGS, '--max-old-space-size=768 --max-semi-space-size=4');
  assert.throws(() => optionsOf({ SLUICE_CONTROLLER_INJECTOR_SIDECAR_AGENT_SEMI_SPACE_MB: '0' }), /injector\.sidecar_agent_semi_space_mb/);
  assert.throws(() => optionsOf({ SLUICE_CONTROLLER_INJECTOR_SIDECAR_AGENT_SEMI_SPACE_MB: '65' }), /injector\.sidecar_agent_semi_space_mb/);
  assert.deepEqual([oldSpaceMb('256Mi'), oldSpaceMb('512Mi'), oldSpaceMb('2Gi'), oldSpaceMb('8Mi')], [192, 384, 1536, 16]);
  assert.throws(() => oldSpaceMb('1G'), /not <n>Mi or <n>Gi/);
  assert.throws(() => optionsOf({ SLUICE_CONTROLLER_INJECTOR_SIDECAR_AGENT_MEMORY_LIMIT: '256M' }), /injector\.sidecar_agent_memory_limit .*memory_limit/);
  // The pod's own Prometheus annotations are left as they are (scrape the agent with a PodMonitor on port sluice-agent).
  const own = injected(pod({ 'prometheus.io/scrape': 'true', 'prometheus.io/port': '9100' }), SIDECAR);
  assert.equal(annotationsOf(own)['prometheus.io/port'], '9100');
  // sidecar_agent_env cannot take over what the injector sets.
  const o = optionsOf({ SLUICE_CONTROLLER_INJECTOR_MODE: 'sidecar', SLUICE_CONTROLLER_INJECTOR_SIDECAR_AGENT_ENV: '{"SLUICE_AGENT_CLOUDEXT_INSTALLATION_MODE":"LINUX_BARE_METAL","SLUICE_AGENT_LOG_LEVEL":"debug"}' });
  const env2 = container(injected(pod({}), o), 'sluice-agent').env as Obj[];
  assert.deepEqual(env2.filter((e) => e.name === 'SLUICE_AGENT_CLOUDEXT_INSTALLATION_MODE').map((e) => e.value), ['KUBERNETES_SIDECAR']);
  assert.ok(env2.some((e) => e.name === 'SLUICE_AGENT_LOG_LEVEL' && e.value === 'debug'));
});

test('sluice.dev/agent-group chooses the sidecar agent\'s group; sluice.dev/agent-address the daemonset agent; each refused in the other mode or when malformed', () => {
  const grouped = injected(pod({ 'sluice.dev/agent-group': 'checkout' }), SIDECAR);
  assert.equal(envOf(container(grouped, 'sluice-agent')).SLUICE_AGENT_AGENT_INFO_AGENT_GROUP, 'checkout');
  const withEnvGroup = optionsOf({ SLUICE_CONTROLLER_INJECTOR_MODE: 'sidecar', SLUICE_CONTROLLER_INJECTOR_SIDECAR_AGENT_ENV: '{"SLUICE_AGENT_AGENT_INFO_AGENT_GROUP":"fleet"}' });
  assert.deepEqual((container(injected(pod({ 'sluice.dev/agent-group': 'checkout' }), withEnvGroup), 'sluice-agent').env as Obj[])
    .filter((e) => e.name === 'SLUICE_AGENT_AGENT_INFO_AGENT_GROUP').map((e) => e.value), ['checkout'], 'the annotation wins over the configured variable');
  const tap = container(injected(pod({ 'sluice.dev/agent-address': 'edge-agents.sluice.svc.cluster.local:8080' }), DAEMONSET), 'sluice-tap');
  const args = tap.args as string[];
  assert.equal(args[args.indexOf('--agent') + 1], 'edge-agents.sluice.svc.cluster.local:8080');
  assert.equal((container(injected(pod({}), DAEMONSET), 'sluice-tap').args as string[])[5], DAEMONSET.agentAddress);
  assert.match(refusal(pod({ 'sluice.dev/agent-group': 'checkout' }), DAEMONSET), /^bad_annotation: sluice\.dev\/agent-group: applies to injected agents/);
  assert.match(refusal(pod({ 'sluice.dev/agent-address': 'a:1' }), SIDECAR), /^bad_annotation: sluice\.dev\/agent-address: applies in daemonset mode/);
  for (const bad of ['', 'no port', 'agent:', 'agent:70000', 'http://agent:8080']) {
    assert.match(refusal(pod({ 'sluice.dev/agent-address': bad }), DAEMONSET), /is not host:port/, bad);
  }
  for (const bad of ['', 'a b', '-x', 'x'.repeat(64)]) assert.match(refusal(pod({ 'sluice.dev/agent-group': bad }), SIDECAR), /is not an agent group/, bad);
  assert.equal((container(injected(pod({ 'sluice.dev/agent-address': '[fd00::1]:8080' }), DAEMONSET), 'sluice-tap').args as string[])[5], '[fd00::1]:8080');
});

test('the tap: TLS files from injector.agent_tls_secret, readiness on /readyz of its admin port, numeric users', () => {
  const tls = optionsOf({ SLUICE_CONTROLLER_INJECTOR_AGENT_TLS_SECRET: 'sluice-agent-ca' });
  const out = injected(pod({}), tls);
  const tap = container(out, 'sluice-tap');
  const args = tap.args as string[];
  assert.deepEqual(args.slice(args.indexOf('--agent-tls-ca'), args.indexOf('--agent-tls-ca') + 2), ['--agent-tls-ca', `${TAP_TLS_DIR}/ca.crt`]);
  assert.ok(!args.includes('--agent-tls-cert'));
  assert.deepEqual(tap.volumeMounts, [{ name: 'sluice-agent-tls', mountPath: TAP_TLS_DIR, readOnly: true }]);
  assert.deepEqual((out.spec as { volumes: Obj[] }).volumes, [{ name: 'sluice-agent-tls', secret: { secretName: 'sluice-agent-ca' } }]);
  const mutual = container(injected(pod({}), optionsOf({ SLUICE_CONTROLLER_INJECTOR_AGENT_TLS_SECRET: 'sluice-agent-ca', SLUICE_CONTROLLER_INJECTOR_AGENT_TLS_CLIENT_CERT: 'true' })), 'sluice-tap').args as string[];
  assert.deepEqual(mutual.slice(mutual.indexOf('--agent-tls-cert')), ['--agent-tls-cert', `${TAP_TLS_DIR}/tls.crt`, '--agent-tls-key', `${TAP_TLS_DIR}/tls.key`]);
  assert.equal(container(injected(pod({}), DAEMONSET), 'sluice-tap').volumeMounts, undefined, 'plaintext: nothing mounted');
  assert.throws(() => optionsOf({ SLUICE_CONTROLLER_INJECTOR_AGENT_TLS_SECRET: 'Bad_Name' }), /injector\.agent_tls_secret/);
  // Probes on the admin port: not ready while the agent is unreachable.
  assert.deepEqual(tap.readinessProbe, { httpGet: { path: '/readyz', port: 9091 }, periodSeconds: 5 });
  assert.deepEqual(tap.livenessProbe, { httpGet: { path: '/healthz', port: 9091 }, periodSeconds: 10, failureThreshold: 6 });
  assert.deepEqual(args.slice(args.indexOf('--admin'), args.indexOf('--admin') + 2), ['--admin', '0.0.0.0:9091']);
  assert.match(refusal({ ...pod({}), spec: { containers: [{ name: 'web', image: 'x', ports: [{ containerPort: 8080 }, { containerPort: 9091 }] }] } }, DAEMONSET), /^port_conflict: .*9091/);
  assert.throws(() => optionsOf({ SLUICE_CONTROLLER_INJECTOR_TAP_ADMIN_PORT: '8081' }), /injector\.tap_admin_port .*also injector\.tap_port/);
  // Numeric users, so the kubelet can check runAsNonRoot against any image.
  for (const c of [tap, container(injected(pod({}), SIDECAR), 'sluice-agent')]) {
    assert.equal((c.securityContext as Obj).runAsUser, 65532);
    assert.equal((c.securityContext as Obj).runAsNonRoot, true);
  }
});

test('injector.sidecar_agent_key_secret: the sidecar agent mounts the group key Secret read-only and reads it as dist_cache.auth.key_file', () => {
  const o = optionsOf({ SLUICE_CONTROLLER_INJECTOR_MODE: 'sidecar', SLUICE_CONTROLLER_INJECTOR_SIDECAR_AGENT_KEY_SECRET: 'sluice-agent-dist-cache-key',
    SLUICE_CONTROLLER_INJECTOR_SIDECAR_AGENT_ENV: '{"SLUICE_AGENT_DIST_CACHE_AUTH_KEY_FILE":"/elsewhere"}' });
  const out = injected(pod({}), o);
  const agent = container(out, 'sluice-agent');
  const keyFile = (agent.env as Obj[]).filter((e) => e.name === 'SLUICE_AGENT_DIST_CACHE_AUTH_KEY_FILE').map((e) => e.value);
  assert.deepEqual(keyFile, [`${AGENT_KEY_DIR}/keys`], 'the mounted file, once, over sidecar_agent_env');
  assert.deepEqual(agent.volumeMounts, [
    { name: 'sluice-agent-config', mountPath: '/etc/sluice/agent/config', readOnly: true },
    { name: 'sluice-agent-tmp', mountPath: '/tmp' },
    { name: 'sluice-agent-dist-cache-key', mountPath: AGENT_KEY_DIR, readOnly: true },
  ]);
  const volumes = (out.spec as { volumes: Obj[] }).volumes;
  // 0444: readable by the agent's numeric user whatever the workload's fsGroup; only the agent mounts it.
  assert.deepEqual(volumes.find((v) => v.name === 'sluice-agent-dist-cache-key'),
    { name: 'sluice-agent-dist-cache-key', secret: { secretName: 'sluice-agent-dist-cache-key', defaultMode: 0o444, items: [{ key: 'keys', path: 'keys' }] } });
  assert.equal((out.spec as { containers: Obj[] }).containers.length, 2, 'no tap container beside the sidecar agent');
  // Without it nothing is mounted and sidecar_agent_env is kept as given; in daemonset mode no agent is injected at all.
  const plain = container(injected(pod({}), optionsOf({ SLUICE_CONTROLLER_INJECTOR_MODE: 'sidecar', SLUICE_CONTROLLER_INJECTOR_SIDECAR_AGENT_ENV: '{"SLUICE_AGENT_DIST_CACHE_AUTH_KEY_FILE":"/elsewhere"}' })), 'sluice-agent');
  assert.equal(envOf(plain).SLUICE_AGENT_DIST_CACHE_AUTH_KEY_FILE, '/elsewhere');
  assert.equal((plain.volumeMounts as Obj[]).length, 2);
  const daemonset = injected(pod({}), optionsOf({ SLUICE_CONTROLLER_INJECTOR_SIDECAR_AGENT_KEY_SECRET: 'k' }));
  assert.equal((daemonset.spec as { volumes?: Obj[] }).volumes, undefined);
  assert.throws(() => optionsOf({ SLUICE_CONTROLLER_INJECTOR_SIDECAR_AGENT_KEY_SECRET: 'Bad_Name' }), /injector\.sidecar_agent_key_secret/);
});

test('sidecar mode: the agent serves the tap (tap.* from the pod and the injector); no tap container, admin port or agent TLS', () => {
  const out = injected(pod({ 'sluice.dev/control-point': 'checkout', 'sluice.dev/fail-open': 'false' }),
    optionsOf({ SLUICE_CONTROLLER_INJECTOR_MODE: 'sidecar', SLUICE_CONTROLLER_INJECTOR_TAP_PORT: '8500', SLUICE_CONTROLLER_INJECTOR_AGENT_TLS_SECRET: 'sluice-agent-ca',
      SLUICE_CONTROLLER_INJECTOR_SIDECAR_AGENT_ENV: '{"SLUICE_AGENT_TAP_UPSTREAM":"http://elsewhere:1","SLUICE_AGENT_TAP_BODY_BYTES":"0"}' }));
  assert.deepEqual((out.spec as { containers: Obj[] }).containers.map((c) => c.name), ['web', 'sluice-agent']);
  const agent = container(out, 'sluice-agent');
  const env = (agent.env as Obj[]).filter((e) => String(e.name).startsWith('SLUICE_AGENT_TAP_'));
  assert.deepEqual(env, [
    { name: 'SLUICE_AGENT_TAP_ENABLED', value: 'true' },
    { name: 'SLUICE_AGENT_TAP_LISTEN', value: '0.0.0.0:8500' },
    { name: 'SLUICE_AGENT_TAP_UPSTREAM', value: 'http://127.0.0.1:8080' },
    { name: 'SLUICE_AGENT_TAP_CONTROL_POINT', value: 'checkout' },
    { name: 'SLUICE_AGENT_TAP_FAIL_CLOSED', value: 'true' },
    { name: 'SLUICE_AGENT_TAP_BODY_BYTES', value: '0' },
  ], 'the injector\'s own tap variables win over sidecar_agent_env; the other tap keys pass');
  assert.deepEqual((agent.ports as Obj[]).map((p) => [p.name, p.containerPort]), [['sluice-agent', 8090], ['http', 8500]]);
  assert.equal((out.spec as { volumes: Obj[] }).volumes.some((v) => v.name === 'sluice-agent-tls'), false, 'no TLS to an agent in the same process');
  // The tap admin port is the separate tap's: a pod using 9091 is fine in sidecar mode, refused in daemonset mode.
  const busy = { ...pod({}), spec: { containers: [{ name: 'web', image: 'x', ports: [{ containerPort: 8080 }, { containerPort: 9091 }] }] } };
  injected(busy, SIDECAR);
  assert.match(refusal(busy, DAEMONSET), /^port_conflict: .*9091/);
  // Daemonset mode keeps the separate tap, and sets no tap.* anywhere.
  const ds = injected(pod({}), DAEMONSET);
  assert.deepEqual((ds.spec as { containers: Obj[] }).containers.map((c) => c.name), ['web', 'sluice-tap']);
});

test('the sidecar agent has a writable /tmp (an emptyDir) under its read-only root filesystem; the tap needs none', () => {
  const out = injected(pod({}), SIDECAR);
  const agent = container(out, 'sluice-agent');
  assert.equal((agent.securityContext as Obj).readOnlyRootFilesystem, true);
  assert.deepEqual((agent.volumeMounts as Obj[]).find((m) => m.mountPath === '/tmp'), { name: 'sluice-agent-tmp', mountPath: '/tmp' });
  assert.deepEqual((out.spec as { volumes: Obj[] }).volumes.find((v) => v.name === 'sluice-agent-tmp'), { name: 'sluice-agent-tmp', emptyDir: { sizeLimit: '64Mi' } });
  // A pod with volumes of its own keeps them; the agent's are added after.
  const withVolumes = pod({});
  (withVolumes.spec as Obj).volumes = [{ name: 'data', emptyDir: {} }];
  const names = ((injected(withVolumes, SIDECAR).spec as { volumes: Obj[] }).volumes).map((v) => v.name);
  assert.deepEqual(names, ['data', 'sluice-agent-config', 'sluice-agent-tmp']);
});
