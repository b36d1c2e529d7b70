import { Type } from '@sinclair/typebox';
import { address, bool, formatted, int64, objectList, oldEnv, str, stringList } from './fields.js';
import { ClientConfigSchema } from './clients.js';

export const AgentInfoConfigSchema = Type.Object({
  agent_group: str('default', 'Group of this agent; all agents of a group receive the same data-plane configuration.'),
}, { additionalProperties: false });

export const AgentFunctionsConfigSchema = Type.Object({
  endpoints: stringList('RPC servers to connect to, which may call agent functions (JSON list in the env variable).'),
  client: ClientConfigSchema,
}, { additionalProperties: false });

export const AutoScaleKubernetesConfigSchema = Type.Object({
  enabled: bool(true, 'Enables auto-scaling of Kubernetes workloads.'),
}, { additionalProperties: false });

export const FlowPreviewConfigSchema = Type.Object({
  enabled: bool(true, 'Enables the flow preview service.'),
}, { additionalProperties: false });

export const DistCacheConfigSchema = Type.Object({
  bind_addr: address('hostname_port', ':3320', 'Address the distributed cache serves counter operations on.'),
  memberlist_advertise_addr: address('empty|hostname_port', '', 'Membership address advertised to peers, for NAT traversal; empty means memberlist_bind_addr.'),
  memberlist_bind_addr: address('hostname_port', ':3322', 'Address of the membership (gossip) protocol.'),
  replica_count: int64(1, 'Number of copies of each counter; at least 1.', { minimum: 1 }),
  sync_replication: bool(false, 'Copies counters synchronously; asynchronous by default.'),
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
