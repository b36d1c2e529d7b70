// @sluice/enforcement: the agent side of policies: published component configs and decisions from etcd into the engine.
export { PolicyEnforcement, MAX_AGENT_SELECTORS, type PolicyEnforcementOptions, type EnforcedComponent, type EnforcedPublished, type EnforcedListener } from './policy-enforcement.js';
export { buildRateLimiter, buildSampler, buildClassifier, buildFluxMeter, localTokenBucketStore } from './builders.js';
export { FLOW_KINDS, flowKind, flowKindEntry, checkFlowKinds, UnknownFlowKindError, type FlowKindEntry } from './flow-kinds.js';
export type { LiveComponent, ComponentBuilder, ComponentBuilders, BuildContext, TokenBucketStoreFactory } from './live-component.js';
export { parseComponent, parseDecision, type Parsed } from './parse-published.js';
export { buildLoadScheduler } from './load-scheduler.js';
export { buildPodScaler } from './pod-scaler.js';
