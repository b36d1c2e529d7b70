import { defaultsOf, InjectorConfigSchema, type InjectorConfig } from '@sluice/config';

/** Where the injected tap finds its agent. */
export type InjectMode = InjectorConfig['mode'];

/** What the webhook puts into a pod: the controller's `injector` configuration. */
export interface InjectOptions {
  mode: InjectMode;
  tapImage: string;
  /** The agent's image (sidecar mode). */
  agentImage: string;
  imagePullPolicy: InjectorConfig['image_pull_policy'];
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
  /** Port of the tap's /metrics, /healthz and /readyz (its probes). */
  tapAdminPort: number;
  /** Secret (pod's namespace) with the CA of the agents' certificate; '' for plaintext to the agent. */
  agentTlsSecret: string;
  /** The tap also shows the Secret's tls.crt/tls.key to the agent. */
  agentTlsClientCert: boolean;
  /** Secret (pod's namespace) with the sidecar agents' dist cache group keys (data key `keys`); '' for none. */
  sidecarAgentKeySecret: string;
  /** Secret (pod's namespace) with the sidecar agents' agent functions bearer token (data key `token`); '' for none. */
  sidecarAgentTokenSecret: string;
  /** ConfigMap (pod's namespace) with the controller's CA (data key `ca.crt`) for sidecar agents dialing a TLS controller; '' for none. */
  sidecarAgentControllerCaConfigMap: string;
  /** Memory limit of the sidecar agent, e.g. 256Mi. */
  sidecarAgentMemoryLimit: string;
  /** V8 semi-space of the sidecar agent, in MB (--max-semi-space-size). */
  sidecarAgentSemiSpaceMb: number;
  /** Extra environment of the sidecar agent (SLUICE_AGENT_* keys such as the etcd endpoints), name to value. */
  sidecarAgentEnv: Record<string, string>;
  /** The controller's gRPC address the sidecar agents dial for agent functions; '' for none. */
  controllerAddress: string;
  /** The controller serves TLS (its own server.tls.enabled): the sidecar agents dial it over TLS. */
  controllerTls: boolean;
}

/**
 * The options of a loaded `injector` configuration. Its schema (libs/config) has checked every value:
 * image references, ports 1..65535 and apart, the modes and pull policies, the variable names.
 * `controller.tls` is the controller's own server.tls.enabled (how its agents dial it).
 */
export function injectOptionsOf(c: InjectorConfig, controller: { tls: boolean } = { tls: false }): InjectOptions {
  return {
    mode: c.mode,
    tapImage: c.tap_image,
    agentImage: c.agent_image,
    imagePullPolicy: c.image_pull_policy,
    tapPort: c.tap_port,
    agentAddress: c.agent_address,
    sidecarAgentPort: c.sidecar_agent_port,
    sidecarAgentConfigMap: c.sidecar_agent_config_map,
    controlPoint: c.control_point,
    tapAdminPort: c.tap_admin_port,
    agentTlsSecret: c.agent_tls_secret,
    agentTlsClientCert: c.agent_tls_client_cert,
    sidecarAgentKeySecret: c.sidecar_agent_key_secret,
    sidecarAgentTokenSecret: c.sidecar_agent_token_secret,
    sidecarAgentControllerCaConfigMap: c.sidecar_agent_controller_ca_configmap,
    sidecarAgentMemoryLimit: c.sidecar_agent_memory_limit,
    sidecarAgentSemiSpaceMb: c.sidecar_agent_semi_space_mb,
    sidecarAgentEnv: { ...c.sidecar_agent_env },
    controllerAddress: c.controller_address,
    controllerTls: controller.tls,
  };
}

/** The options of the configuration's defaults. */
export const DEFAULT_INJECT_OPTIONS: InjectOptions = injectOptionsOf(defaultsOf(InjectorConfigSchema) as InjectorConfig);
