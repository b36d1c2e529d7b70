// @sluice/controller: the controller's policies: API, registry, circuits, PromQL jobs, publication to etcd.
export { createPolicyController, type PolicyController, type PolicyControllerOptions, type ControllerLogger } from './controller.js';
export type { ControllerEtcd, EtcdState, PrefixWatchHandler } from './controller-etcd.js';
export type { PolicyLanguage, CompiledPolicy, Circuit, CircuitInputs, CircuitOutput, PolicyProblem, PromqlQuery } from './policy-language.js';
export { PolicyRejectedError, rejectionOf } from './policy-errors.js';
export { PolicyRegistry, type PolicyView, type DecisionView } from './policy-registry.js';
export { PolicyStore, PolicyManagedElsewhereError, STORE_WRITE_TIMEOUT_MS } from './policy-store.js';
export { policySink, type PolicySink, type PolicyApplyResult } from './policy-sink.js';
export { Publisher, type PublicationKind } from './publisher.js';
export { PromqlScheduler, type PromqlHandle } from './promql-scheduler.js';
export { injectQueryLabels, checkQueryLabels, type QueryLabel } from './promql-labels.js';
export { queryPrometheus, valueOfAnswer, prometheusBaseUrl, PromqlResultError } from './promql-query.js';
export { mergePatch } from './merge-patch.js';
export { checkPolicyName, MAX_POLICY_NAME_LENGTH } from './policy-name.js';
export { ControllerMetrics } from './metrics.js';
export { registerPolicyService } from './register-policy-service.js';
export { policyServiceDefinition, policyServiceImpl, POLICY_SERVICE_NAME } from './policy-grpc.js';
export { policyGatewayRoutes, POLICIES_PATH, POLICY_PATH, DECISIONS_PATH, VARIABLE_PATH } from './policy-routes.js';
export { RunningPolicy, type PolicySource } from './running-policy.js';
