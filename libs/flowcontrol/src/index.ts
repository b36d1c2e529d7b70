// The public face of @sluice/flowcontrol: what the agent, the tap, the other libraries, e2e and the
// benches use. Everything else stays inside the library. Two subpaths load one file each, without
// the engine: @sluice/flowcontrol/http-path and @sluice/flowcontrol/grpc-labels.

// check/: the engine that decides a flow, and the contracts of what it runs.
export { Engine, type EngineOptions } from './check/engine.js';
export type {
  ComponentIdentity, ComponentSelector, DecideContext, FlowComponent, Limiter, LimiterKind, LimiterResult,
} from './check/component.js';
export type { FlowRequest } from './check/flow-request.js';
export type { FlowObserver, FlowSink } from './check/flow-observer.js';
export type { CheckDecision } from './check/decision.js';
export type { CancelSource } from './check/call-cancellation.js';
export { checkControlPoint, deadlineMsOf } from './check/request-checks.js';

// labels/: flow labels of a request, what a component reads of them, the headers a caller must send.
export { httpFlowLabels } from './labels/http-labels.js';
export { normalizeRequestTarget, isNormalTarget } from './labels/http-path.js';
export { noReads, readLabel, readLabelMatcher, type FlowReads } from './labels/flow-reads.js';
export type { HeaderInterest } from './labels/header-interest.js';

// classifiers/, limiters/, local-limiters/, flux-meters/: the components.
export { PolicyClassifier, type PolicyClassifierOptions } from './classifiers/classifier.js';
export { RateLimiter, RATE_LIMITER_KIND, type RateLimiterOptions } from './limiters/rate-limiter.js';
export { Sampler, SAMPLER_KIND, type SamplerOptions } from './limiters/sampler.js';
export { SCHEDULER_INFO, QUOTA_SCHEDULER_INFO, tokensWire, tokensOutput, type LimiterDetails } from './limiters/limiter-details.js';
export { rateLimiterMetrics } from './limiters/rate-limiter-metrics.js';
export { checkLimiterKind } from './limiters/limiter-kind-check.js';
export { loadLocalLimiters, type LocalLimiterSpec } from './local-limiters/local-limiters-config.js';
export { applyLocalLimiters, type LocalLimitersOptions } from './local-limiters/apply-local-limiters.js';
export { FluxMeterComponent, type FluxMeterOptions } from './flux-meters/flux-meter.js';
export { FluxMeterHistogram } from './flux-meters/flux-meter-metrics.js';

// wire/ and checkhttp/: answers in the callers' protocols; the CheckHTTP decision the in-process tap runs.
export { toCheckResponse } from './wire/check-response.js';
export { deniedHttpResponse } from './wire/denied-response.js';
export { durationOf } from './wire/proto-time.js';
export { checkAnswer, encodeCheckAnswer, type CheckHTTPAnswer, type CheckAnswer } from './wire/check-response-wire.js';
export { decideCheckHttpAs, okResponseHeaders, type CheckHttpDeps, type CheckHttpShape } from './checkhttp/checkhttp-decide.js';
export { toCheckHTTPResponse } from './checkhttp/checkhttp-service.js';
export type { CheckHttpStreamOptions } from './checkhttp/checkhttp-stream.js';

// services/ and envoy/: registering the services on the agent's server.
export { registerFlowControlServices } from './services/register-services.js';
export type { ServiceDiscovery } from './services/check-service.js';
export { registerEnvoyAuthorizationService } from './envoy/envoy-authz-service.js';
export { ENVOY_CONTROL_POINT_KEY } from './envoy/envoy-authz-request.js';

// flow-ends/: flows measured from their check to their end, and the OTLP intake of ends.
export { FlowEnds, type FlowEndsOptions } from './flow-ends/flow-ends.js';
export { registerOtlpTraceService, type SpanConsumer } from './flow-ends/otlp-trace-service.js';
export { registerOtlpTracesHttpRoute } from './flow-ends/otlp-trace-http.js';
export { registerOtlpLogsService, type LogRecordConsumer } from './flow-ends/otlp-logs-service.js';
export { readEnvoyLog } from './flow-ends/envoy-access-log.js';

// telemetry/: decisions counted.
export { MeteredEngine } from './telemetry/metered-engine.js';
export { decisionMetrics } from './telemetry/flowcontrol-metrics.js';
export {
  decisionCounter, LIMITER_DECISIONS_METRIC, LIMITER_DECISIONS_HELP, type DecisionSeriesCounter,
} from './telemetry/decision-series.js';
