/**
 * An entity of service discovery (a pod, a VM, a process): `Entity`.
 * Field names are the configuration's snake_case ones.
 */
export interface Entity {
  /** IP address of the entity (required). */
  ip_address: string;
  /** Unique identifier of the entity (required). */
  uid: string;
  /** For example the pod name. */
  name?: string;
  /** For example the pod namespace. */
  namespace?: string;
  /** For example the host name. */
  node_name?: string;
  /** Services the entity belongs to. */
  services?: string[];
}

/** `StaticDiscoveryConfig` (`service_discovery.static`). */
export interface StaticDiscoveryConfig {
  entities?: Entity[];
}
