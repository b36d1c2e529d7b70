import { Type } from '@sinclair/typebox';
import { address, bool, duration, formatted, int64, objectList, oldEnv, secret, str, stringList } from './fields.js';
import { ClientConfigSchema } from './clients.js';

export const AgentInfoConfigSchema = Type.Object({
  agent_group: str('default', 'Group of this agent; all agents of a group receive the same data-plane configuration.'),
}, { additionalProperties: false });

export const AgentFunctionsConfigSchema = Type.Object({
  endpoints: stringList('RPC servers to connect to, which may call agent functions (JSON list in the env variable). The sluice-agent chart and the sidecar injector set the controller\'s Service address unless it is set.'),
  client: ClientConfigSchema,
  token_file: str('', 'File holding the bearer token the agent presents on its agent functions streams (`authorization: Bearer <token>`), for a controller with server.auth.token_file; the first line that is not empty or a # comment; re-read at every connection (rotation without restart). A Sluice addition.'),
  token: secret('The bearer token the agent presents on its agent functions streams, when token_file is empty (for the env variable). A Sluice addition.'),
}, { additionalProperties: false });

export const AutoScaleKubernetesConfigSchema = Type.Object({
  enabled: bool(true, 'Enables auto-scaling of Kubernetes workloads.'),
}, { additionalProperties: false });

export const FlowPreviewConfigSchema = Type.Object({
  enabled: bool(true, 'Enables the flow preview service.'),
}, { additionalProperties: false });

export const DistCacheAuthConfigSchema = Type.Object({
  key_file: str('', 'File of the group\'s shared keys, one a line (at least 16 bytes each): the first signs, every one is accepted (rotation), e.g. a mounted Kubernetes Secret; read at start.'),
  keys: secret('The group\'s shared keys, comma-separated (first signs), after those of key_file; for the env variable.'),
  insecure: bool(false, 'Runs without keys although a port is bound beyond loopback: anyone who reaches the ports can join the group and set limits. Without it, no key and such a port is a start-up error.'),
}, { additionalProperties: false });

export const DistCacheConfigSchema = Type.Object({
  auth: DistCacheAuthConfigSchema,
  bind_addr: address('hostname_port', ':3320', 'Address the distributed cache serves counter operations on.'),
  memberlist_advertise_addr: address('empty|hostname_port', '', 'Membership address advertised to peers, for NAT traversal; empty means memberlist_bind_addr.'),
  memberlist_bind_addr: address('hostname_port', ':3322', 'Address of the membership (gossip) protocol.'),
  replica_count: int64(1, 'Number of copies of each counter; at least 1.', { minimum: 1 }),
  sync_replication: bool(false, 'Copies counters synchronously; asynchronous by default.'),
  max_buckets: int64(200_000, 'Buckets held at most (owned and replicas); past it the least recently used go first (a bucket dropped starts full when next used).', { minimum: 1 }),
  max_bucket_bytes: int64(64 * 1024 * 1024, 'Estimated bytes of buckets held at most (keys and state); past it the least recently used go first.', { minimum: 65_536 }),
  max_connections: int64(1024, 'Connections to the counter port served at once (full-state syncs to the membership port: at most 128 or this); more are closed as they come.', { minimum: 1 }),
  idle_timeout: duration('60s', 'A counter-port connection that sends nothing for this long is closed (peers reconnect on their next operation); 0s never.'),
}, { additionalProperties: false });

export const PeerDiscoveryConfigSchema = Type.Object({
  advertisement_addr: address('empty|hostname_port', '', 'Server address advertised to peers, reachable from other agents; empty means derived from the listener.'),
  kubernetes_service: oldEnv(formatted('dns_label', 'sluice-agent-peers',
    'In a pod: the headless Service in POD_NAMESPACE whose EndpointSlices name the dist-cache peers (the sluice-agent chart\'s peers Service).'),
  'SLUICE_PEERS_SERVICE'),
}, { additionalProperties: false });

export const KubernetesDiscoveryConfigSchema = Type.Object({
  enabled: bool(true, 'Discovers services and entities from Kubernetes.'),
}, { additionalProperties: false });

export const EntitySchema = Type.Object({
  ip_address: Type.String({ format: 'ip', description: 'IP address of the entity; required.', 'x-spec-type': 'string' }),
  uid: Type.String({ minLength: 1, description: 'Unique identifier of the entity; required.', 'x-spec-type': 'string' }),
  name: str('', 'Name, for example the pod name.'),
  namespace: str('', 'Namespace, for example the pod namespace.'),
  node_name: str('', 'Node, for example the host name.'),
  services: stringList('Services the entity belongs to.'),
}, { additionalProperties: false });

export const StaticDiscoveryConfigSchema = Type.Object({
  entities: objectList(EntitySchema, 'Entity', 'Entities known without discovery (JSON list in the env variable).'),
}, { additionalProperties: false });
