// What the webhook adds to a pod, as a JSON Patch (RFC 6902) against the pod it was sent.
//
// The workload's port is routed through the tap by a container port rewrite: the tap takes the
// workload port's name (so a Service whose targetPort is that name now reaches the tap), the
// workload keeps its number under the name `sluice-upstream`, and the tap forwards to it on
// 127.0.0.1. The workload's own probes that named the port are rewritten to its number, so the
// kubelet keeps probing the workload directly. A port without a name gets a tap port named
// `sluice-tap`; its Services then name `sluice-tap` as their targetPort.
//
// In daemonset mode the tap is a container of its own (`sluice-tap`) asking the node's agent. In
// sidecar mode the injected agent serves the tap itself (its `tap.*` keys): one process per pod,
// every request decided in-process, and the tap port is the agent container's.
import type { InjectOptions } from './inject-options.js';

export const ANNOTATIONS = {
  /** "true" asks for injection, "false" refuses it even in a labelled namespace. */
  inject: 'sluice.dev/inject',
  /** Set on every injected pod: a second admission leaves the pod alone. */
  injected: 'sluice.dev/injected',
  controlPoint: 'sluice.dev/control-point',
  /** The workload's port, by number or by the name of a declared container port. */
  upstreamPort: 'sluice.dev/upstream-port',
  /** "true" (default): requests go through when the agent does not answer; "false": 503. */
  failOpen: 'sluice.dev/fail-open',
  /** Sidecar mode: the agent group of the injected agent (agent_info.agent_group). */
  agentGroup: 'sluice.dev/agent-group',
  /** Daemonset mode: the agent the tap asks, host:port (instead of injector.agent_address). */
  agentAddress: 'sluice.dev/agent-address',
} as const;

/** Where the injected tap finds the agents' CA (injector.agent_tls_secret). */
export const TAP_TLS_DIR = '/etc/sluice/tap/agent-tls';
/** Where the injected agent finds its dist cache group keys (injector.sidecar_agent_key_secret). */
export const AGENT_KEY_DIR = '/etc/sluice/agent/dist-cache';
/** The user and group of the injected containers (numeric, so the kubelet can check runAsNonRoot). */
export const INJECTED_UID = 65532;

/** The namespace label that asks for injection of every pod in it. */
export const NAMESPACE_LABEL = 'sluice.dev/inject';
export const NAMESPACE_LABEL_VALUE = 'enabled';
export const TAP_CONTAINER = 'sluice-tap';
export const AGENT_CONTAINER = 'sluice-agent';
export const UPSTREAM_PORT_NAME = 'sluice-upstream';
const TAP_PORT_NAME = 'sluice-tap';
const AGENT_CONFIG_VOLUME = 'sluice-agent-config';
const TAP_TLS_VOLUME = 'sluice-agent-tls';
const AGENT_KEY_VOLUME = 'sluice-agent-dist-cache-key';
/** The sidecar agent's agent functions token (injector.sidecar_agent_token_secret). */
export const AGENT_TOKEN_DIR = '/etc/sluice/agent/agent-functions';
const AGENT_TOKEN_VOLUME = 'sluice-agent-functions-token';
/** The controller's CA for a sidecar agent dialing a TLS controller (injector.sidecar_agent_controller_ca_configmap). */
export const CONTROLLER_CA_DIR = '/etc/sluice/agent/controller-ca';
const CONTROLLER_CA_VOLUME = 'sluice-controller-ca';
const CA_FILE_ENV = 'SLUICE_AGENT_AGENT_FUNCTIONS_CLIENT_GRPC_TLS_CA_FILE';
/** The injected agent's /tmp: its root filesystem is read-only, and its HTTP gateway makes its sockets under /tmp. */
const AGENT_TMP_VOLUME = 'sluice-agent-tmp';
const TAP_ADMIN_PORT_NAME = 'sluice-admin';
/** Ports a sidecar agent binds besides its server port (dist_cache defaults). */
const SIDECAR_AGENT_EXTRA_PORTS = [3320, 3322];

export interface JsonPatchOp {
  op: 'add' | 'replace';
  path: string;
  value: unknown;
}

export type SkipReason = 'not_requested' | 'opted_out' | 'already_injected';
export type RefuseReason = 'malformed_pod' | 'bad_annotation' | 'no_port' | 'port_conflict';

export type InjectionPlan =
  | { action: 'inject'; patch: JsonPatchOp[]; upstreamPort: number; controlPoint: string; failOpen: boolean }
  | { action: 'skip'; reason: SkipReason }
  | { action: 'refuse'; reason: RefuseReason; message: string };

export interface InjectionContext {
  /** The pod's namespace carries `sluice.dev/inject=enabled`. */
  namespaceEnabled: boolean;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
/** RFC 6901 escaping of one reference token. */
export const pointerToken = (s: string): string => s.replace(/~/g, '~0').replace(/\//g, '~1');

interface PortRef { container: number; port?: number; number: number; name?: string }

function refuse(reason: RefuseReason, message: string): InjectionPlan {
  return { action: 'refuse', reason, message };
}

function portsOf(container: Obj): Obj[] {
  return Array.isArray(container.ports) ? container.ports.filter(isObj) : [];
}

function isTcp(p: Obj): boolean {
  return p.protocol === undefined || p.protocol === 'TCP';
}

/** The workload's port: the annotation's, or the first TCP port declared by a container. */
function findUpstream(containers: Obj[], annotation: string | undefined): PortRef | string {
  if (annotation !== undefined) {
    const asNumber = /^\d+$/.test(annotation) ? Number(annotation) : undefined;
    if (asNumber !== undefined && (asNumber < 1 || asNumber > 65535)) return `${ANNOTATIONS.upstreamPort}: ${annotation} is not a port (1..65535)`;
    for (let c = 0; c < containers.length; c++) {
      const ports = portsOf(containers[c]);
      for (let p = 0; p < ports.length; p++) {
        const n = ports[p].containerPort;
        if (typeof n !== 'number' || !isTcp(ports[p])) continue;
        if (asNumber === n || (asNumber === undefined && ports[p].name === annotation)) {
          return { container: c, port: p, number: n, ...(typeof ports[p].name === 'string' ? { name: ports[p].name as string } : {}) };
        }
      }
    }
    // A number the pod does not declare: the first container serves it.
    if (asNumber !== undefined) return { container: 0, number: asNumber };
    return `${ANNOTATIONS.upstreamPort}: no container declares a TCP port named "${annotation}"`;
  }
  for (let c = 0; c < containers.length; c++) {
    const ports = portsOf(containers[c]);
    for (let p = 0; p < ports.length; p++) {
      const n = ports[p].containerPort;
      if (typeof n === 'number' && Number.isInteger(n) && n >= 1 && n <= 65535 && isTcp(ports[p])) {
        return { container: c, port: p, number: n, ...(typeof ports[p].name === 'string' ? { name: ports[p].name as string } : {}) };
      }
    }
  }
  return `no container declares a TCP port; set the ${ANNOTATIONS.upstreamPort} annotation`;
}

function fieldRef(name: string, fieldPath: string): Obj {
  return { name, valueFrom: { fieldRef: { fieldPath } } };
}

const SECURITY_CONTEXT = {
  runAsNonRoot: true, runAsUser: INJECTED_UID, runAsGroup: INJECTED_UID, readOnlyRootFilesystem: true, allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] },
};

/** The V8 old generation of a sidecar agent: 75% of its memory limit (Mi or Gi), in MB. */
export function oldSpaceMb(limit: string): number {
  const m = /^(\d+)(Mi|Gi)$/.exec(limit);
  if (m === null) throw new Error(`memory limit ${limit} is not <n>Mi or <n>Gi`);
  const mib = Number(m[1]) * (m[2] === 'Gi' ? 1024 : 1);
  return Math.max(16, Math.floor(mib * 0.75));
}

/**
 * The Node flags of a sidecar agent (its SLUICE_NODE_FLAGS, after those bin/sluice-agent sets, so they win):
 * the old generation bounded under its memory limit, the semi-space of the agent that serves the pod's tap.
 */
export function sidecarAgentNodeFlags(o: Pick<InjectOptions, 'sidecarAgentMemoryLimit' | 'sidecarAgentSemiSpaceMb'>): string {
  return `--max-old-space-size=${oldSpaceMb(o.sidecarAgentMemoryLimit)} --max-semi-space-size=${o.sidecarAgentSemiSpaceMb}`;
}

function tapContainer(o: InjectOptions, portName: string, upstream: number, controlPoint: string, failOpen: boolean, agent: string): Obj {
  const tls = o.agentTlsSecret === '' ? [] : ['--agent-tls-ca', `${TAP_TLS_DIR}/ca.crt`,
    ...(o.agentTlsClientCert ? ['--agent-tls-cert', `${TAP_TLS_DIR}/tls.crt`, '--agent-tls-key', `${TAP_TLS_DIR}/tls.key`] : [])];
  return {
    name: TAP_CONTAINER,
    image: o.tapImage,
    imagePullPolicy: o.imagePullPolicy,
    args: ['--listen', `0.0.0.0:${o.tapPort}`, '--upstream', `http://127.0.0.1:${upstream}`, '--agent', agent,
      '--control-point', controlPoint, '--admin', `0.0.0.0:${o.tapAdminPort}`, ...tls, ...(failOpen ? [] : ['--fail-closed'])],
    ports: [{ name: portName, containerPort: o.tapPort, protocol: 'TCP' }, { name: TAP_ADMIN_PORT_NAME, containerPort: o.tapAdminPort, protocol: 'TCP' }],
    env: [fieldRef('POD_NAME', 'metadata.name'), fieldRef('POD_NAMESPACE', 'metadata.namespace')],
    // Not ready while its agent is unreachable (past the tap's grace): its requests would go through unchecked.
    readinessProbe: { httpGet: { path: '/readyz', port: o.tapAdminPort }, periodSeconds: 5 },
    livenessProbe: { httpGet: { path: '/healthz', port: o.tapAdminPort }, periodSeconds: 10, failureThreshold: 6 },
    resources: { requests: { cpu: '20m', memory: '32Mi' }, limits: { memory: '128Mi' } },
    securityContext: SECURITY_CONTEXT,
    ...(o.agentTlsSecret === '' ? {} : { volumeMounts: [{ name: TAP_TLS_VOLUME, mountPath: TAP_TLS_DIR, readOnly: true }] }),
  };
}

/** What the sidecar agent's in-process tap serves: the port (and its name) and the workload behind it. */
interface InProcessTap { portName: string; upstream: number; controlPoint: string; failOpen: boolean }

/** The sidecar agent's `tap.*` variables: its in-process tap in front of the workload. */
function tapEnv(o: InjectOptions, tap: InProcessTap): Obj[] {
  return [
    { name: 'SLUICE_AGENT_TAP_ENABLED', value: 'true' },
    { name: 'SLUICE_AGENT_TAP_LISTEN', value: `0.0.0.0:${o.tapPort}` },
    { name: 'SLUICE_AGENT_TAP_UPSTREAM', value: `http://127.0.0.1:${tap.upstream}` },
    { name: 'SLUICE_AGENT_TAP_CONTROL_POINT', value: tap.controlPoint },
    { name: 'SLUICE_AGENT_TAP_FAIL_CLOSED', value: String(!tap.failOpen) },
  ];
}

function agentContainer(o: InjectOptions, group: string | undefined, tap: InProcessTap): Obj {
  const probe = (path: string) => ({ httpGet: { path, port: o.sidecarAgentPort }, periodSeconds: 10 });
  return {
    name: AGENT_CONTAINER,
    image: o.agentImage,
    imagePullPolicy: o.imagePullPolicy,
    env: [
      fieldRef('POD_NAME', 'metadata.name'), fieldRef('POD_NAMESPACE', 'metadata.namespace'),
      fieldRef('NODE_NAME', 'spec.nodeName'), fieldRef('POD_IP', 'status.podIP'),
      { name: 'SLUICE_AGENT_SERVER_LISTENER_ADDR', value: `:${o.sidecarAgentPort}` },
      // A sidecar: discovery keeps its own pod; peers are found through etcd (<etcd namespace>/peers/<group>/), not a peers Service.
      { name: 'SLUICE_AGENT_CLOUDEXT_INSTALLATION_MODE', value: 'KUBERNETES_SIDECAR' },
      { name: 'SLUICE_AGENT_PEER_DISCOVERY_ADVERTISEMENT_ADDR', value: '$(POD_IP):3320' },
      { name: 'SLUICE_AGENT_DIST_CACHE_MEMBERLIST_ADVERTISE_ADDR', value: '$(POD_IP):3322' },
      ...(group === undefined ? [] : [{ name: 'SLUICE_AGENT_AGENT_INFO_AGENT_GROUP', value: group }]),
      ...tapEnv(o, tap),
      ...Object.entries(o.sidecarAgentEnv)
        .filter(([name]) => !OWN_AGENT_ENV.has(name) && !(group !== undefined && name === 'SLUICE_AGENT_AGENT_INFO_AGENT_GROUP') && !(o.sidecarAgentKeySecret !== '' && name === KEY_FILE_ENV)
          && !(o.sidecarAgentTokenSecret !== '' && name === 'SLUICE_AGENT_AGENT_FUNCTIONS_TOKEN_FILE'))
        .map(([name, value]) => ({ name, value })),
      ...(o.sidecarAgentKeySecret === '' ? [] : [{ name: 'SLUICE_AGENT_DIST_CACHE_AUTH_KEY_FILE', value: `${AGENT_KEY_DIR}/keys` }]),
      ...agentFunctionsEnv(o),
      { name: 'SLUICE_NODE_FLAGS', value: sidecarAgentNodeFlags(o) },
    ],
    ports: [{ name: 'sluice-agent', containerPort: o.sidecarAgentPort, protocol: 'TCP' }, { name: tap.portName, containerPort: o.tapPort, protocol: 'TCP' }],
    volumeMounts: [
      { name: AGENT_CONFIG_VOLUME, mountPath: '/etc/sluice/agent/config', readOnly: true },
      { name: AGENT_TMP_VOLUME, mountPath: '/tmp' },
      ...(o.sidecarAgentKeySecret === '' ? [] : [{ name: AGENT_KEY_VOLUME, mountPath: AGENT_KEY_DIR, readOnly: true }]),
      ...(o.sidecarAgentTokenSecret === '' ? [] : [{ name: AGENT_TOKEN_VOLUME, mountPath: AGENT_TOKEN_DIR, readOnly: true }]),
      ...(controllerCa(o) ? [{ name: CONTROLLER_CA_VOLUME, mountPath: CONTROLLER_CA_DIR, readOnly: true }] : []),
    ],
    livenessProbe: probe('/v1/status/system/liveness'),
    readinessProbe: probe('/v1/status/system/readiness'),
    resources: { requests: { cpu: '50m', memory: '64Mi' }, limits: { memory: o.sidecarAgentMemoryLimit } },
    securityContext: SECURITY_CONTEXT,
  };
}

/**
 * Agent functions: the sidecar agent dials the controller (injector.controller_address), so the
 * controller reaches it without being told its address; plaintext unless the controller serves TLS.
 * Left to sidecar_agent_env when that sets the endpoints. With sidecar_agent_token_secret, the
 * mounted token is the agent's token file; with sidecar_agent_controller_ca_configmap and a TLS
 * controller, the mounted CA is the one the agent verifies the controller against.
 */
function agentFunctionsEnv(o: InjectOptions): Obj[] {
  const token = o.sidecarAgentTokenSecret === '' ? [] : [{ name: 'SLUICE_AGENT_AGENT_FUNCTIONS_TOKEN_FILE', value: `${AGENT_TOKEN_DIR}/token` }];
  if (o.controllerAddress === '' || ENDPOINTS_ENV in o.sidecarAgentEnv) return token;
  return [
    { name: ENDPOINTS_ENV, value: JSON.stringify([o.controllerAddress]) },
    ...(o.controllerTls || INSECURE_ENV in o.sidecarAgentEnv ? [] : [{ name: INSECURE_ENV, value: 'true' }]),
    ...(controllerCa(o) ? [{ name: CA_FILE_ENV, value: `${CONTROLLER_CA_DIR}/ca.crt` }] : []),
    ...token,
  ];
}

/** The controller's CA is mounted: a TLS controller the injected agent dials, and a ConfigMap holding its CA, unless the env sets a CA file. */
function controllerCa(o: InjectOptions): boolean {
  return o.sidecarAgentControllerCaConfigMap !== '' && o.controllerTls && o.controllerAddress !== ''
    && !(ENDPOINTS_ENV in o.sidecarAgentEnv) && !(CA_FILE_ENV in o.sidecarAgentEnv);
}
const ENDPOINTS_ENV = 'SLUICE_AGENT_AGENT_FUNCTIONS_ENDPOINTS';
const INSECURE_ENV = 'SLUICE_AGENT_AGENT_FUNCTIONS_CLIENT_GRPC_INSECURE';

/** Variables of the sidecar agent the injector sets itself. */
const OWN_AGENT_ENV = new Set([
  'SLUICE_AGENT_SERVER_LISTENER_ADDR', 'SLUICE_AGENT_CLOUDEXT_INSTALLATION_MODE', 'SLUICE_NODE_FLAGS',
  'SLUICE_AGENT_TAP_ENABLED', 'SLUICE_AGENT_TAP_LISTEN', 'SLUICE_AGENT_TAP_UPSTREAM', 'SLUICE_AGENT_TAP_CONTROL_POINT', 'SLUICE_AGENT_TAP_FAIL_CLOSED',
]);
/** ...and with a key Secret, the key file it mounts. */
const KEY_FILE_ENV = 'SLUICE_AGENT_DIST_CACHE_AUTH_KEY_FILE';

/** An agent group name: what agent_info.agent_group takes in a policy's selector. */
const AGENT_GROUP = /^[A-Za-z0-9]([A-Za-z0-9._-]{0,61}[A-Za-z0-9])?$/;
/** host:port, the host a DNS name, IPv4 or [IPv6]. */
const AGENT_ADDRESS = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9]([A-Za-z0-9.-]{0,251}[A-Za-z0-9])?):(\d{1,5})$/;

/** The agent the tap asks and the sidecar agent's group, from the pod's annotations, or why they are refused. */
function agentChoice(o: InjectOptions, ann: (k: string) => string | undefined): { address: string; group: string | undefined } | string {
  const group = ann(ANNOTATIONS.agentGroup);
  const address = ann(ANNOTATIONS.agentAddress);
  if (group !== undefined) {
    if (o.mode !== 'sidecar') return `${ANNOTATIONS.agentGroup}: applies to injected agents (injector.mode sidecar); in daemonset mode choose the agents with ${ANNOTATIONS.agentAddress}`;
    if (!AGENT_GROUP.test(group)) return `${ANNOTATIONS.agentGroup}: "${group.slice(0, 64)}" is not an agent group (1..63 letters, digits, ".", "_" or "-")`;
  }
  if (address !== undefined) {
    if (o.mode === 'sidecar') return `${ANNOTATIONS.agentAddress}: applies in daemonset mode; in sidecar mode the injected agent serves the tap itself`;
    const m = AGENT_ADDRESS.exec(address);
    if (m === null || Number(m[3]) < 1 || Number(m[3]) > 65535) return `${ANNOTATIONS.agentAddress}: "${address.slice(0, 64)}" is not host:port`;
  }
  return { address: o.mode === 'sidecar' ? `127.0.0.1:${o.sidecarAgentPort}` : address ?? o.agentAddress, group };
}

/** Rewrites the workload container's probes that name `portName` to its number. */
function probePatches(container: Obj, base: string, portName: string, number: number): JsonPatchOp[] {
  const out: JsonPatchOp[] = [];
  for (const probe of ['livenessProbe', 'readinessProbe', 'startupProbe']) {
    const p = container[probe];
    if (!isObj(p)) continue;
    for (const handler of ['httpGet', 'tcpSocket', 'grpc']) {
      const h = p[handler];
      if (isObj(h) && h.port === portName) out.push({ op: 'replace', path: `${base}/${probe}/${handler}/port`, value: number });
    }
  }
  return out;
}

/** Decides what to do with one pod (an AdmissionReview's `request.object`) and builds the patch. */
export function planInjection(pod: unknown, ctx: InjectionContext, o: InjectOptions): InjectionPlan {
  if (!isObj(pod)) return refuse('malformed_pod', 'the object is not a mapping');
  const metadata = pod.metadata;
  if (metadata !== undefined && !isObj(metadata)) return refuse('malformed_pod', 'metadata is not a mapping');
  const annotations = metadata?.annotations;
  if (annotations !== undefined && annotations !== null && !isObj(annotations)) return refuse('malformed_pod', 'metadata.annotations is not a mapping');
  const ann = (k: string): string | undefined => {
    const v = isObj(annotations) ? annotations[k] : undefined;
    return typeof v === 'string' ? v : undefined;
  };
  const spec = pod.spec;
  if (!isObj(spec) || !Array.isArray(spec.containers) || spec.containers.length === 0) return refuse('malformed_pod', 'spec.containers is missing or empty');
  const containers = spec.containers;
  if (!containers.every((c) => isObj(c) && typeof c.name === 'string')) return refuse('malformed_pod', 'a container is not a mapping with a name');
  const cs = containers as Obj[];

  if (ann(ANNOTATIONS.injected) === 'true' || cs.some((c) => c.name === TAP_CONTAINER || c.name === AGENT_CONTAINER)) return { action: 'skip', reason: 'already_injected' };
  const wanted = ann(ANNOTATIONS.inject);
  if (wanted === 'false') return { action: 'skip', reason: 'opted_out' };
  if (wanted !== undefined && wanted !== 'true') return refuse('bad_annotation', `${ANNOTATIONS.inject}: "${wanted}" is not "true" or "false"`);
  if (wanted === undefined && !ctx.namespaceEnabled) return { action: 'skip', reason: 'not_requested' };

  const failOpenText = ann(ANNOTATIONS.failOpen);
  if (failOpenText !== undefined && failOpenText !== 'true' && failOpenText !== 'false') {
    return refuse('bad_annotation', `${ANNOTATIONS.failOpen}: "${failOpenText}" is not "true" or "false"`);
  }
  const controlPoint = ann(ANNOTATIONS.controlPoint) ?? o.controlPoint;
  if (controlPoint === '' || controlPoint.length > 253 || /\s/.test(controlPoint)) {
    return refuse('bad_annotation', `${ANNOTATIONS.controlPoint}: "${controlPoint.slice(0, 64)}" is not a control point (1..253 characters, no spaces)`);
  }
  const agent = agentChoice(o, ann);
  if (typeof agent === 'string') return refuse('bad_annotation', agent);
  const upstream = findUpstream(cs, ann(ANNOTATIONS.upstreamPort));
  if (typeof upstream === 'string') return refuse(upstream.startsWith(ANNOTATIONS.upstreamPort) ? 'bad_annotation' : 'no_port', upstream);

  const taken = new Set<number>();
  for (const list of [cs, Array.isArray(spec.initContainers) ? spec.initContainers.filter(isObj) : []]) {
    for (const c of list) for (const p of portsOf(c)) if (typeof p.containerPort === 'number') taken.add(p.containerPort);
  }
  taken.add(upstream.number);
  const ours = o.mode === 'sidecar' ? [o.tapPort, o.sidecarAgentPort, ...SIDECAR_AGENT_EXTRA_PORTS] : [o.tapPort, o.tapAdminPort];
  const clash = ours.find((p) => taken.has(p));
  if (clash !== undefined) return refuse('port_conflict', `the pod already uses port ${clash}, which the injected containers need`);

  const patch: JsonPatchOp[] = [];
  const base = `/spec/containers/${upstream.container}`;
  let tapPortName = TAP_PORT_NAME;
  if (upstream.port !== undefined && upstream.name !== undefined) {
    tapPortName = upstream.name;
    patch.push({ op: 'replace', path: `${base}/ports/${upstream.port}/name`, value: UPSTREAM_PORT_NAME });
    patch.push(...probePatches(cs[upstream.container], base, upstream.name, upstream.number));
  }
  const failOpen = failOpenText !== 'false';
  const volumes: Obj[] = [];
  if (o.mode === 'sidecar') {
    patch.push({ op: 'add', path: '/spec/containers/-', value: agentContainer(o, agent.group, { portName: tapPortName, upstream: upstream.number, controlPoint, failOpen }) });
    volumes.push({ name: AGENT_CONFIG_VOLUME, configMap: { name: o.sidecarAgentConfigMap, optional: true } });
    volumes.push({ name: AGENT_TMP_VOLUME, emptyDir: { sizeLimit: '64Mi' } });
    // Not optional: without its key the agent would not start. 0444: the pod's fsGroup is the
    // workload's (maybe none), and only the agent container mounts the volume.
    if (o.sidecarAgentKeySecret !== '') {
      volumes.push({ name: AGENT_KEY_VOLUME, secret: { secretName: o.sidecarAgentKeySecret, defaultMode: 0o444, items: [{ key: 'keys', path: 'keys' }] } });
    }
    if (o.sidecarAgentTokenSecret !== '') {
      volumes.push({ name: AGENT_TOKEN_VOLUME, secret: { secretName: o.sidecarAgentTokenSecret, defaultMode: 0o444, items: [{ key: 'token', path: 'token' }] } });
    }
    if (controllerCa(o)) {
      volumes.push({ name: CONTROLLER_CA_VOLUME, configMap: { name: o.sidecarAgentControllerCaConfigMap, defaultMode: 0o444, items: [{ key: 'ca.crt', path: 'ca.crt' }] } });
    }
  }
  // The separate tap's TLS to its agent; an in-process tap asks no one over the network.
  if (o.agentTlsSecret !== '' && o.mode !== 'sidecar') volumes.push({ name: TAP_TLS_VOLUME, secret: { secretName: o.agentTlsSecret } });
  if (volumes.length > 0) {
    if (Array.isArray(spec.volumes)) for (const v of volumes) patch.push({ op: 'add', path: '/spec/volumes/-', value: v });
    else patch.push({ op: 'add', path: '/spec/volumes', value: volumes });
  }
  if (o.mode !== 'sidecar') patch.push({ op: 'add', path: '/spec/containers/-', value: tapContainer(o, tapPortName, upstream.number, controlPoint, failOpen, agent.address) });
  // Marked as injected; a sidecar agent is scraped through the Prometheus annotations unless the pod has its own.
  const added: Record<string, string> = { [ANNOTATIONS.injected]: 'true' };
  if (o.mode === 'sidecar' && ann('prometheus.io/scrape') === undefined) {
    Object.assign(added, { 'prometheus.io/scrape': 'true', 'prometheus.io/port': String(o.sidecarAgentPort), 'prometheus.io/path': '/metrics' });
  }
  if (metadata === undefined) patch.push({ op: 'add', path: '/metadata', value: { annotations: added } });
  else if (!isObj(annotations)) patch.push({ op: 'add', path: '/metadata/annotations', value: added });
  else for (const [k, v] of Object.entries(added)) patch.push({ op: 'add', path: `/metadata/annotations/${pointerToken(k)}`, value: v });
  return { action: 'inject', patch, upstreamPort: upstream.number, controlPoint, failOpen };
}
