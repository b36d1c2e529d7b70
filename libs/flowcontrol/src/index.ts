export { Engine, type EngineOptions } from './check/engine.js';
export type {
  ComponentIdentity, ComponentSelector, Classifier, DecideContext, FlowComponent, FluxMeter, Limiter, LimiterKind, LimiterResult,
} from './check/component.js';
export type { FlowRequest, ControlPointType } from './check/flow-request.js';
export type { FlowObserver, FlowSink } from './check/flow-observer.js';
export type { CheckDecision, LimiterRecord, ClassifierRecord } from './check/decision.js';
export { ControlPointRegistry, type ControlPointEntry, type ControlPointRegistryOptions } from './check/control-point-registry.js';
export { toCheckResponse } from './wire/check-response.js';
export { httpFlowLabels, headerLabelKey, HEADER_LABEL_PREFIX, GRPC_SERVICE_LABEL, GRPC_METHOD_LABEL, isGrpcContentType, grpcServiceMethod } from './labels/http-labels.js';
export {
  normalizeRequestTarget, isNormalTarget, type RequestTarget, type RequestTargetOptions, type NormalTarget, type RefusedTarget,
} from './labels/http-path.js';
export { parseBaggage, BAGGAGE_MAX_ENTRIES, BAGGAGE_MAX_LENGTH } from './labels/baggage.js';
export { httpFlavor } from './labels/http-flavor.js';
export { RateLimiter, RATE_LIMITER_KIND, tokensOf, type RateLimiterOptions } from './limiters/rate-limiter.js';
export { RATE_LIMITER_INFO, SCHEDULER_INFO, SAMPLER_INFO, tokensWire, tokensOutput, type LimiterDetails } from './limiters/limiter-details.js';
export { noReads, readLabel, readLabelMatcher, headerInterestName, type FlowReads } from './labels/flow-reads.js';
export { rateLimiterMetrics, BUCKET_EVICTIONS_METRIC, type RateLimiterMetrics } from './limiters/rate-limiter-metrics.js';
export { loadLocalLimiters, validateLocalLimiters, LocalLimitersError, type LocalLimiterSpec } from './local-limiters/local-limiters-config.js';
export { applyLocalLimiters, createLocalRateLimiter, type LocalLimitersOptions } from './local-limiters/apply-local-limiters.js';
export { timestampOf, durationOf, millisOf } from './wire/proto-time.js';
export { registerFlowControlServices } from './services/register-services.js';
export { flowControlServiceImpl, type ServiceDiscovery } from './services/check-service.js';
export { CallCancellation, type CancelSource, type CancellableCall } from './check/call-cancellation.js';
export { checkHttpServiceImpl, toCheckHTTPResponse } from './checkhttp/checkhttp-service.js';
export { apertureCheckHttpServiceImpl, fromApertureRequest, toApertureResponse, CHECK_RESPONSE_METADATA_KEY } from './checkhttp/aperture-checkhttp.js';
export { decideCheckHttp, decideCheckHttpAs, okResponseHeaders, type CheckHttpDeps, type CheckHttpShape } from './checkhttp/checkhttp-decide.js';
export type { HeaderInterest } from './labels/header-interest.js';
export type { CheckHTTPAnswer } from './wire/check-response-wire.js';
export {
  checkHttpStreamHandler, CHECKHTTP_STREAM_MAX_IN_FLIGHT,
  type CheckHttpStreamOptions, type CheckHttpStreamStats,
} from './checkhttp/checkhttp-stream.js';
export { controlPointsServiceImpl } from './services/control-points-service.js';
export { deniedHttpResponse, retryAfterSeconds } from './wire/denied-response.js';
export { peerIp } from './services/peer-address.js';
export { checkControlPoint, deadlineMsOf, MAX_CONTROL_POINT_LENGTH } from './check/request-checks.js';
export { Sampler, SAMPLER_KIND, stickyPoint, type SamplerOptions, type SamplerDecision } from './limiters/sampler.js';
export { PolicyClassifier, DEFAULT_MAX_JSON_LENGTH, type PolicyClassifierOptions, type ClassifierRule } from './classifiers/classifier.js';
export { attributeReader, CLASSIFIER_ATTRIBUTE_PATHS, type AttributeReader } from './classifiers/flow-attribute.js';
export { parseJsonPointer, resolveJsonPointer } from './classifiers/json-pointer.js';
export {
  FluxMeterComponent, DEFAULT_FLUX_METER_BUCKETS, checkBuckets, isMeasuringFluxMeter, type FluxMeterOptions, type MeasuringFluxMeter,
} from './flux-meters/flux-meter.js';
export { FluxMeterHistogram, FLUX_METER_METRIC, MAX_SERIES_PER_FLUX_METER, type FlowOutcome, type FluxMeterLabel } from './flux-meters/flux-meter-metrics.js';
export { InflightFlows, type InflightFlow, type InflightFlowsOptions, type InflightFlowsStats, type FlowEndLookup } from './flow-ends/inflight-flows.js';
export { FlowEnds, FLOW_ENDS_METRIC, MAX_FLOW_DURATION_MS, type FlowEndsOptions, type FlowEndReport, type FlowEndResult, type FlowEndSource } from './flow-ends/flow-ends.js';
export { readSdkSpan, type ReceivedSpan, type SpanAttributeValue, type SdkFlowEnd, type SdkSpanReading } from './flow-ends/sdk-flow-span.js';
export {
  registerOtlpTraceService, otlpTraceServiceDefinition, otlpTraceServiceImpl, consumeExport, OTLP_TRACE_SERVICE, MAX_SPANS_PER_EXPORT,
  type SpanConsumer,
} from './flow-ends/otlp-trace-service.js';
export { registerOtlpTracesHttpRoute, otlpTracesHttpHandler, decodeOtlpHttpExport, OTLP_TRACES_PATH, OTLP_HTTP_MAX_BODY_BYTES } from './flow-ends/otlp-trace-http.js';
export { registerEnvoyAuthorizationService, envoyAuthorizationServiceImpl } from './envoy/envoy-authz-service.js';
export {
  envoyControlPoint, envoyToCheckHttp, ENVOY_DEFAULT_CONTROL_POINT, ENVOY_CONTROL_POINT_KEY, ENVOY_MAX_HEADERS, ENVOY_MAX_HEADER_BYTES,
} from './envoy/envoy-authz-request.js';
export { toEnvoyCheckResponse, ENVOY_CHECK_RESPONSE_METADATA } from './envoy/envoy-authz-response.js';
export { readEnvoyLog, type EnvoyLogReading, type LogAttributes } from './flow-ends/envoy-access-log.js';
export {
  registerOtlpLogsService, otlpLogsServiceDefinition, otlpLogsServiceImpl, consumeLogsExport, OTLP_LOGS_SERVICE, MAX_LOG_RECORDS_PER_EXPORT,
  type LogRecordConsumer,
} from './flow-ends/otlp-logs-service.js';
export { decisionMetrics, FLOWCONTROL_METRICS, type DecisionMetrics } from './telemetry/flowcontrol-metrics.js';
export { MeteredEngine } from './telemetry/metered-engine.js';
export { decisionSeries, decisionCounter, type DecisionSeriesCounter, LIMITER_DECISIONS_METRIC, LIMITER_DECISIONS_HELP } from './telemetry/decision-series.js';
export { checkLimiterKind } from './limiters/limiter-kind-check.js';
