// @sluice/whatif: a policy tried on live samples of a control point in a sandbox, before it enforces.
export { PolicySandbox, circuitDecisions, type SandboxTarget, type SandboxComponent, type FlowOutcome, type WorkloadMatch } from './sandbox.js';
export { flowsOfPreview, requestOfHttpSample, type SampleFlow } from './flows.js';
export {
  summarize, EXAMPLES_PER_OUTCOME, TIMELINE_BUCKETS, NO_VALUE, MAX_LABEL_VALUES,
  type OutcomeReport, type OutcomeGroup, type LabelValueOutcome, type WorkloadOutcome, type Timeline, type ExampleFlow,
} from './report.js';
export { runWhatIf, type WhatIfDeps, type WhatIfAnswer, type AgentSamples } from './whatif.js';
export { parseWhatIfRequest, WHATIF_DEFAULT_SAMPLES, WHATIF_MAX_SAMPLES, WHATIF_DEFAULT_WAIT_MS, WHATIF_MAX_WAIT_MS, type WhatIfRequest } from './whatif-request.js';
export { whatIfRouter, WHATIF_PATH } from './whatif-route.js';
