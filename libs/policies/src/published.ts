/**
 * What the controller publishes for the agents, and where (the contract
 * between the controller's publisher and the agents' enforcement).
 *
 * Under the etcd namespace `N` (`etcd.namespace`, default `sluice`):
 * - `N/config/<agent_group>/<policy>/<component_id>`: a PublishedComponent (JSON);
 * - `N/decisions/<agent_group>/<policy>/<component_id>`: a PublishedDecision (JSON),
 *   written only when it changes;
 * - `N/policies/<policy>`: a StoredPolicy (JSON) for policies posted to the API, no lease;
 * - `N/dynamic-configs/<policy>`: a policy's dynamic configuration posted to the API (JSON), no lease.
 *
 * An agent watches `N/config/<its group>/` and `N/decisions/<its group>/` (the trailing slash
 * makes the group match exactly: `default` never sees `default2`). Agent group names, policy names
 * and component ids never contain `/`.
 *
 * The shape of both is one TypeBox schema per kind (./published/): the types below are their
 * `Static<>`, and one compiled validator (checkPublishedComponent, checkPublishedDecision) is what
 * the controller checks before publishing and the agents on receipt.
 */

export { PublishedSelector, PublishedSelectors, PublishedLabelMatcher, type ContractProblem, type PublishedKind, kindName } from './published/common.js';
export { PublishedRateLimiter, PublishedRateLimiterParameters, RateLimiterDecision } from './published/rate-limiter.js';
export { PublishedSampler, SamplerDecision } from './published/sampler.js';
export { PublishedClassifier, PublishedClassifierRule } from './published/classifier.js';
export { PublishedFluxMeter } from './published/flux-meter.js';
export {
  PublishedLoadScheduler, PublishedSchedulerParameters, PublishedWorkloadParameters, PublishedWorkload, LoadSchedulerDecision,
} from './published/load-scheduler.js';
export { PublishedPodScaler, PublishedKubernetesObject, PodScalerDecision } from './published/pod-scaler.js';
export {
  PUBLISHED_KINDS, PUBLISHED_KIND_BY_NAME, PUBLISHED_KIND_NAMES, PUBLISHED_DECISION_KINDS,
  type PublishedComponent, type PublishedDecision, type PublishedKindName,
} from './published/kinds.js';
export {
  checkPublishedComponent, checkPublishedDecision, parsePublishedComponent, parsePublishedDecision, contractProblems, compilePublishedValidators,
  type Checked,
} from './published/validate.js';

/** A policy posted to the controller's API, kept in etcd so that a restart loses nothing. */
export interface StoredPolicy {
  name: string;
  /** What a Policy CR's `spec` holds. */
  spec: unknown;
  hash: string;
  source: 'api';
}

export const DEFAULT_ETCD_NAMESPACE = 'sluice';

/**
 * The component id of a flux meter: `flux_meter.<name>` with `%` and `/` escaped (`%25`, `%2F`),
 * since ids are segments of etcd keys and a flux meter's name may hold `/`
 * (`load-ramping/average_latency/0` → `flux_meter.load-ramping%2Faverage_latency%2F0`). The
 * published `name` keeps the name as written.
 */
export function fluxMeterComponentId(name: string): string {
  return `flux_meter.${name.replace(/%/g, '%25').replace(/\//g, '%2F')}`;
}

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
