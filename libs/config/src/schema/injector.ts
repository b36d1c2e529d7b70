import { Type } from '@sinclair/typebox';
import { address, bool, formatted, oldEnv, oneOf, port, uint32 } from './fields.js';

const ENV_NAME = '^[A-Z_][A-Z0-9_]*$';

/**
 * What the controller's sidecar injection webhook puts into pods (`injector` of the controller).
 * Until the next release the variables SLUICE_INJECTOR_* the charts used to set are read too.
 */
export const InjectorConfigSchema = Type.Object({
  mode: oldEnv(oneOf(['daemonset', 'sidecar'] as const, 'daemonset',
    'Where the injected tap runs: daemonset, a sluice-tap container asking the node\'s agent at agent_address; sidecar, an agent container injected into the pod that serves the tap itself (its tap.* keys): one process per pod, every request decided in-process.'),
  'SLUICE_INJECTOR_MODE'),
  tap_image: oldEnv(formatted('image', 'sluice/tap:0.1.0', 'Image of the injected tap container (daemonset mode).'), 'SLUICE_INJECTOR_TAP_IMAGE'),
  agent_image: oldEnv(formatted('image', 'sluice/agent:0.1.0', 'Image of the injected agent container (sidecar mode).'), 'SLUICE_INJECTOR_AGENT_IMAGE'),
  image_pull_policy: oldEnv(oneOf(['Always', 'IfNotPresent', 'Never'] as const, 'IfNotPresent', 'Pull policy of the injected containers.'),
    'SLUICE_INJECTOR_IMAGE_PULL_POLICY'),
  tap_port: oldEnv(port(8081, 'Port the tap listens on in the pod (the workload\'s port name moves to it): the tap container\'s in daemonset mode, the sidecar agent\'s tap.listen in sidecar mode; not sidecar_agent_port.'),
    'SLUICE_INJECTOR_TAP_PORT'),
  control_point: oldEnv(Type.String({
    default: 'ingress', minLength: 1, description: 'Default control point of the tap, overridden by the pod\'s sluice.dev/control-point annotation.',
    'x-spec-type': 'string',
  }), 'SLUICE_INJECTOR_CONTROL_POINT'),
  agent_address: oldEnv(address('hostname_port', 'sluice-agent.sluice-system.svc.cluster.local:8080',
    'The agent\'s address in daemonset mode (the node-local agent Service).'), 'SLUICE_INJECTOR_AGENT_ADDRESS'),
  controller_address: address('empty|hostname_port', 'sluice-controller.sluice-system.svc.cluster.local:8080',
    'The controller\'s gRPC address (its Service) that injected agents (sidecar mode) dial for agent functions: their agent_functions.endpoints, unless sidecar_agent_env sets SLUICE_AGENT_AGENT_FUNCTIONS_ENDPOINTS; plaintext or TLS as the controller\'s own server.tls.enabled. Empty: none. A Sluice addition (the sluice-controller chart sets its own Service).'),
  sidecar_agent_port: oldEnv(port(8090, 'Port of the injected agent (sidecar mode): its gRPC and HTTP server, metrics and probes; not tap_port.'),
    'SLUICE_INJECTOR_SIDECAR_AGENT_PORT'),
  sidecar_agent_config_map: formatted('dns_subdomain', 'sluice-agent-sidecar',
    'ConfigMap holding the injected agent\'s config file (sidecar mode; optional in the pod).'),
  tap_admin_port: port(9091, 'Port of the injected tap container\'s /metrics, /healthz (its liveness probe) and /readyz (its readiness probe: 503 while its agent is unreachable), daemonset mode (in sidecar mode the agent\'s port serves its metrics and probes); not tap_port or sidecar_agent_port.'),
  agent_tls_secret: formatted('empty|dns_subdomain', '',
    'Secret in the pod\'s namespace holding ca.crt, the CA of the agents\' certificate (agents with server.tls.enabled): mounted into the tap container, which then talks TLS to its agent (--agent-tls-ca); daemonset mode (a sidecar agent\'s tap asks in-process). Empty: plaintext.'),
  agent_tls_client_cert: bool(false, 'The tap also shows the tls.crt and tls.key of agent_tls_secret to its agent (agents with server.tls.client_ca_file).'),
  sidecar_agent_key_secret: formatted('empty|dns_subdomain', '',
    'Secret in the pod\'s namespace whose data key `keys` holds the dist cache group keys (one a line, the first signs) of injected agents (sidecar mode): mounted at /etc/sluice/agent/dist-cache/ and set as their dist_cache.auth.key_file. Every namespace of an agent group needs the same keys. Empty: none (injected agents bind the dist cache ports beyond loopback, so without keys from sidecar_agent_env they refuse to start).'),
  sidecar_agent_token_secret: formatted('empty|dns_subdomain', '',
    'Secret in the pod\'s namespace whose data key `token` holds the bearer token injected agents (sidecar mode) present on their agent functions streams (a controller with server.auth): mounted at /etc/sluice/agent/agent-functions/ and set as their agent_functions.token_file. Empty: none. A Sluice addition.'),
  sidecar_agent_controller_ca_configmap: formatted('empty|dns_subdomain', '',
    'ConfigMap in the pod\'s namespace whose data key `ca.crt` holds the CA of the controller\'s TLS certificate, for injected agents (sidecar mode) dialing a controller that serves TLS: mounted at /etc/sluice/agent/controller-ca/ and set as their agent_functions.client.grpc.tls.ca_file (without it they verify the controller against the system CAs). Empty: none. A Sluice addition.'),
  sidecar_agent_memory_limit: formatted('memory_limit', '256Mi',
    'Memory limit of the injected agent (sidecar mode), in Mi or Gi; its V8 old generation is bounded at 75% of it (SLUICE_NODE_FLAGS=--max-old-space-size).'),
  sidecar_agent_semi_space_mb: uint32(16,
    'V8 semi-space of the injected agent (sidecar mode), in MB (SLUICE_NODE_FLAGS=--max-semi-space-size; the young generation is two of them). The agent serves the pod\'s traffic itself there, and a request\'s garbage dies young: 16 (Node\'s own bound) collects it a quarter as often as the 4 the agent otherwise runs with, for about 25 MB more RSS, idle and under load; 4 keeps the agent smaller at the cost of more CPU per proxied request (docs/guides/agent-memory.md).',
    { minimum: 1, maximum: 64 }),
  sidecar_agent_env: oldEnv(Type.Record(Type.String(), Type.String(), {
    default: {},
    description: 'Environment of the injected agent (sidecar mode), variable name to value, such as SLUICE_AGENT_ETCD_ENDPOINTS (JSON object in the env variable).',
    'x-spec-type': 'map[string]string',
    propertyNames: { pattern: ENV_NAME, description: 'an environment variable name (A-Z, 0-9 and _, not starting with a digit)' },
  }), 'SLUICE_INJECTOR_SIDECAR_AGENT_ENV'),
}, { additionalProperties: false });
