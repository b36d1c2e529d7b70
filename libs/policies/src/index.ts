// @sluice/policies: the policy language (schema, validation, compiler, circuit) and what the controller publishes for agents.
export * from './published.js';
export { validatePolicy, compilePolicy, policyGraph, type CompiledPolicy, type PolicyGraphNode } from './compile.js';
export { PolicyCompileError, type PolicyProblem } from './problems.js';
export type { Circuit, CircuitInputs, CircuitOutput } from './circuit.js';
export { policyJsonSchema, PolicySpecSchema, type PolicySpec } from './schema/policy.js';
export { specHash, canonicalJson } from './hash.js';
export { MAX_SELECTORS_PER_COMPONENT } from './schema/selector.js';
export { COMPONENT_KINDS, UNSUPPORTED_COMPONENTS, IGNORED_COMPONENTS } from './components/index.js';
export type { ComponentKind, KindContext, ComponentRuntime, SignalValue, ReportedSignals, RaisedAlert, AlertSeverity } from './components/kind.js';
export { ALERT_SEVERITIES } from './components/kind.js';
export * from './components/pod-scaler-report.js';
export {
  checkClassifierRule, isClassifierAttributePath, parseJsonPointer,
  CLASSIFIER_FIXED_ATTRIBUTE_PATHS, CLASSIFIER_HEADER_PATH_PREFIX, CLASSIFIER_ADDRESS_PATHS,
  type CheckedClassifierRule, type ClassifierFixedAttributePath,
} from './components/classifier-rule.js';
export { matchesPathTemplate, pathSegments, type PathTemplate } from './components/path-template.js';
export { POLICY_NAME_MAX_LENGTH, POLICY_NAME_RULE, POLICY_SPEC_MAX_DEPTH, policyNameProblem } from './limits.js';
export { checkDynamicConfig, lookupKey, withDynamicValues, type DynamicConfig, type DynamicConfigKey, type DynamicTarget, type DynamicValueType } from './dynamic-config.js';
export { normaliseNumbers } from './numbers.js';
export { parseProto3Number } from './schema/fields.js';
