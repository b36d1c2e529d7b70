import { InvalidArgumentError } from '@sluice/errors';

/** Where the injected tap finds its agent. */
export type InjectMode = 'daemonset' | 'sidecar';

/** What the webhook puts into a pod; the controller chart sets it through SLUICE_INJECTOR_* variables. */
export interface InjectOptions {
  mode: InjectMode;
  tapImage: string;
  /** The agent's image (sidecar mode). */
  agentImage: string;
  imagePullPolicy: 'Always' | 'IfNotPresent' | 'Never';
  /** Port the tap listens on in the pod (the workload's port name moves to it). */
  tapPort: number;
  /** The agent's gRPC address in daemonset mode (the node-local agent Service). */
  agentAddress: string;
  /** The sidecar agent's port (sidecar mode; the tap reaches it on 127.0.0.1). */
  sidecarAgentPort: number;
  /** ConfigMap holding the sidecar agent's config file (sidecar mode; optional in the pod). */
  sidecarAgentConfigMap: string;
  /** Default control point, overridden by the `sluice.dev/control-point` annotation. */
  controlPoint: string;
  /** Extra environment of the sidecar agent (SLUICE_AGENT_* keys such as the etcd endpoints), name to value. */
  sidecarAgentEnv: Record<string, string>;
}

export const DEFAULT_INJECT_OPTIONS: InjectOptions = {
  mode: 'daemonset',
  tapImage: 'sluice/tap:0.1.0',
  agentImage: 'sluice/agent:0.1.0',
  imagePullPolicy: 'IfNotPresent',
  tapPort: 8081,
  agentAddress: 'sluice-agent.sluice-system.svc.cluster.local:8080',
  sidecarAgentPort: 8090,
  sidecarAgentConfigMap: 'sluice-agent-sidecar',
  controlPoint: 'ingress',
  sidecarAgentEnv: {},
};

const ENV: Record<keyof InjectOptions, string> = {
  mode: 'SLUICE_INJECTOR_MODE',
  tapImage: 'SLUICE_INJECTOR_TAP_IMAGE',
  agentImage: 'SLUICE_INJECTOR_AGENT_IMAGE',
  imagePullPolicy: 'SLUICE_INJECTOR_IMAGE_PULL_POLICY',
  tapPort: 'SLUICE_INJECTOR_TAP_PORT',
  agentAddress: 'SLUICE_INJECTOR_AGENT_ADDRESS',
  sidecarAgentPort: 'SLUICE_INJECTOR_SIDECAR_AGENT_PORT',
  sidecarAgentConfigMap: 'SLUICE_INJECTOR_SIDECAR_AGENT_CONFIGMAP',
  controlPoint: 'SLUICE_INJECTOR_CONTROL_POINT',
  sidecarAgentEnv: 'SLUICE_INJECTOR_SIDECAR_AGENT_ENV',
};

/** The variable of each option (documented in the controller chart). */
export const INJECTOR_ENV: Readonly<Record<keyof InjectOptions, string>> = ENV;

function port(name: string, text: string): number {
  const n = Number(text);
  if (!/^\d+$/.test(text) || n < 1 || n > 65535) throw new InvalidArgumentError(`${name}=${text}: a port 1..65535`, name);
  return n;
}

/** The options from SLUICE_INJECTOR_* variables over the defaults; a bad value throws InvalidArgumentError naming it. */
export function injectOptionsFromEnv(env: NodeJS.ProcessEnv): InjectOptions {
  const o: InjectOptions = { ...DEFAULT_INJECT_OPTIONS };
  const get = (k: keyof InjectOptions): string | undefined => {
    const v = env[ENV[k]];
    return v === undefined || v === '' ? undefined : v;
  };
  const mode = get('mode');
  if (mode !== undefined) {
    if (mode !== 'daemonset' && mode !== 'sidecar') throw new InvalidArgumentError(`${ENV.mode}=${mode}: one of daemonset, sidecar`, ENV.mode);
    o.mode = mode;
  }
  const pull = get('imagePullPolicy');
  if (pull !== undefined) {
    if (pull !== 'Always' && pull !== 'IfNotPresent' && pull !== 'Never') throw new InvalidArgumentError(`${ENV.imagePullPolicy}=${pull}: one of Always, IfNotPresent, Never`, ENV.imagePullPolicy);
    o.imagePullPolicy = pull;
  }
  for (const k of ['tapPort', 'sidecarAgentPort'] as const) {
    const v = get(k);
    if (v !== undefined) o[k] = port(ENV[k], v);
  }
  for (const k of ['tapImage', 'agentImage', 'agentAddress', 'sidecarAgentConfigMap', 'controlPoint'] as const) {
    const v = get(k);
    if (v !== undefined) o[k] = v;
  }
  const extra = get('sidecarAgentEnv');
  if (extra !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(extra);
    } catch {
      parsed = undefined;
    }
    const isMap = typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed);
    const entries = isMap ? Object.entries(parsed as Record<string, unknown>) : [];
    if (!isMap || entries.some(([k, v]) => typeof v !== 'string' || !/^[A-Z_][A-Z0-9_]*$/.test(k))) {
      throw new InvalidArgumentError(`${ENV.sidecarAgentEnv}: a JSON object of variable names to string values`, ENV.sidecarAgentEnv);
    }
    o.sidecarAgentEnv = Object.fromEntries(entries) as Record<string, string>;
  }
  if (o.tapPort === o.sidecarAgentPort) throw new InvalidArgumentError(`${ENV.tapPort} and ${ENV.sidecarAgentPort} are both ${o.tapPort}`, ENV.tapPort);
  return o;
}
