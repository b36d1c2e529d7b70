// @sluice/enforcement: the agent side of policies: published component configs and decisions from etcd into the engine.
export { PolicyEnforcement, MAX_AGENT_SELECTORS, type PolicyEnforcementOptions, type EnforcedComponent } from './policy-enforcement.js';
export { buildRateLimiter, buildSampler, buildClassifier, buildFluxMeter, localTokenBucketStore, DEFAULT_BUILDERS } from './builders.js';
export type { LiveComponent, ComponentBuilder, ComponentBuilders, BuildContext, TokenBucketStoreFactory } from './live-component.js';
export { parseComponent, parseDecision, type Parsed } from './parse-published.js';
export { buildLoadScheduler } from './load-scheduler.js';
export { buildPodScaler, podScalerConfigProblem, podScalerDecisionProblem } from './pod-scaler.js';
