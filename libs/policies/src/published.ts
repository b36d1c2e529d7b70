/**
 * What the controller publishes for the agents, and where (the contract
 * between the controller's publisher and the agents' enforcement).
 *
 * Under the etcd namespace `N` (`etcd.namespace`, default `sluice`):
 * - `N/config/<agent_group>/<policy>/<component_id>`: a PublishedComponent (JSON), on the controller's lease;
 * - `N/decisions/<agent_group>/<policy>/<component_id>`: a PublishedDecision (JSON), on the lease,
 *   written only when it changes;
 * - `N/policies/<policy>`: a StoredPolicy (JSON) for policies posted to the API, no lease.
 *
 * An agent watches `N/config/<its group>/` and `N/decisions/<its group>/` (the trailing slash
 * makes the group match exactly: `default` never sees `default2`). Agent group names, policy names
 * and component ids never contain `/`.
 */

/** The selector of a flow-control component, as in the policy language. */
export interface PublishedSelector {
  control_point: string;
  /** Default `any`. */
  service?: string;
  /** Default `default`. */
  agent_group?: string;
  /** The label filter (the preview's filter language); absent matches every flow. */
  label_matcher?: unknown;
}

interface PublishedBase {
  policy_name: string;
  policy_hash: string;
  /** `root.<i>` (nested indices joined by `.`), or `classifier.<i>` / `flux_meter.<name>` for resources. */
  component_id: string;
  agent_group: string;
  selectors: PublishedSelector[];
  /**
   * How many components the policy publishes to this agent group (the controller sets it): an
   * agent enforces a policy's version once it holds that many configurations of one policy_hash,
   * and keeps the version it enforced until then. Absent: the component stands alone.
   */
  policy_components?: number;
}

export interface PublishedRateLimiter extends PublishedBase {
  kind: 'rate_limiter';
  parameters: {
    label_key?: string;
    /** Default `tokens`. */
    tokens_label_key?: string;
    interval_ms: number;
    continuous_fill: boolean;
    max_idle_time_ms: number;
    lazy_sync: { enabled: boolean; num_sync: number };
  };
}

export interface PublishedSampler extends PublishedBase {
  kind: 'sampler';
  parameters: { label_key?: string };
  pass_through_label_values: string[];
}

/** One rule of a classifier: sets `label` from an attribute path, a JSON pointer into the body, or an address as `<ip>:<port>`. */
export interface PublishedClassifierRule {
  extractor:
    | { from: string }
    | { json: { from: string; pointer: string } }
    | { address: { from: string } }
    | { jwt: { from: string; json_pointer: string } }
    | { path_templates: { template_values: Record<string, string> } };
  /** Present (false) when the label stays out of the baggage the agent sets and out of telemetry. */
  telemetry?: boolean;
}

export interface PublishedClassifier extends PublishedBase {
  kind: 'classifier';
  /** Index of the classifier in `resources.flow_control.classifiers`. */
  classifier_index: number;
  rules: Record<string, PublishedClassifierRule>;
}

export interface PublishedFluxMeter extends PublishedBase {
  kind: 'flux_meter';
  /** The flux meter's name (its key in `resources.flow_control.flux_meters`). */
  name: string;
  attribute_key: string;
  /** Upper bounds of the histogram's buckets, increasing, resolved from static/linear/exponential. */
  buckets: number[];
}

export interface PublishedLoadScheduler extends PublishedBase {
  kind: 'load_scheduler';
  /** Aperture 2.8's `parameters.scheduler` and `workload_latency_based_tokens`, `dry_run`. */
  parameters: Record<string, unknown>;
}

/** The Kubernetes object a pod scaler scales (Aperture's KubernetesObjectSelector). */
export interface PublishedKubernetesObject {
  namespace: string;
  /** `apps/v1`. */
  api_version: string;
  /** `Deployment`, `StatefulSet` or `ReplicaSet`. */
  kind: string;
  name: string;
}

/** auto_scale.pod_scaler: one agent of the group scales the object (its `selectors` are empty). */
export interface PublishedPodScaler extends PublishedBase {
  kind: 'pod_scaler';
  kubernetes_object: PublishedKubernetesObject;
  /** Bounds applied by the agent to the desired replicas (also applied by the controller). */
  min_replicas: number;
  max_replicas: number;
  /** After a scale-out, no other change for this long. */
  scale_out_cooldown_ms: number;
  /** After a scale-in, no further scale-in for this long. */
  scale_in_cooldown_ms: number;
  /** Observe and report only; /scale is never written. */
  dry_run: boolean;
}

export type PublishedComponent =
  | PublishedRateLimiter
  | PublishedSampler
  | PublishedClassifier
  | PublishedFluxMeter
  | PublishedLoadScheduler
  | PublishedPodScaler;

/**
 * The live numbers of a component. A component without a decision runs in
 * pass-through. The controller never publishes an invalid signal: a value
 * whose signal is invalid keeps its last good value (the key is not rewritten).
 */
export type PublishedDecision =
  | { kind: 'rate_limiter'; bucket_capacity: number; fill_amount: number; pass_through: boolean }
  | { kind: 'sampler'; accept_percentage: number; pass_through: boolean }
  | { kind: 'load_scheduler'; load_multiplier: number; pass_through: boolean }
  /** The desired replicas: an integer within the component's bounds. */
  | { kind: 'pod_scaler'; replicas: number };

/** A policy posted to the controller's API, kept in etcd so that a restart loses nothing. */
export interface StoredPolicy {
  name: string;
  /** What a Policy CR's `spec` holds. */
  spec: unknown;
  hash: string;
  source: 'api';
}

export const DEFAULT_ETCD_NAMESPACE = 'sluice';

/** Key of a component's configuration. */
export function configKey(ns: string, agentGroup: string, policy: string, componentId: string): string {
  return `${ns}/config/${agentGroup}/${policy}/${componentId}`;
}

/** Key of a component's decision. */
export function decisionKey(ns: string, agentGroup: string, policy: string, componentId: string): string {
  return `${ns}/decisions/${agentGroup}/${policy}/${componentId}`;
}

/** Prefix an agent of `agentGroup` watches for configurations (exact group match). */
export function configPrefix(ns: string, agentGroup: string): string {
  return `${ns}/config/${agentGroup}/`;
}

/** Prefix an agent of `agentGroup` watches for decisions (exact group match). */
export function decisionPrefix(ns: string, agentGroup: string): string {
  return `${ns}/decisions/${agentGroup}/`;
}

/** Key of a policy posted to the API. */
export function storedPolicyKey(ns: string, policy: string): string {
  return `${ns}/policies/${policy}`;
}

/** Key of a peer of `agentGroup` (the distributed counter cache). */
export function peerKey(ns: string, agentGroup: string, id: string): string {
  return `${ns}/peers/${agentGroup}/${id}`;
}

/** Prefix of the peers of `agentGroup` (exact group match). */
export function peerPrefix(ns: string, agentGroup: string): string {
  return `${ns}/peers/${agentGroup}/`;
}
