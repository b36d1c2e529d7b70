export { Engine, type EngineOptions } from './engine.js';
export type {
  ComponentIdentity, ComponentSelector, Classifier, DecideContext, FlowComponent, FluxMeter, Limiter, LimiterKind, LimiterResult,
} from './component.js';
export type { FlowRequest, ControlPointType } from './flow-request.js';
export type { FlowObserver, FlowSink } from './flow-observer.js';
export type { CheckDecision, LimiterRecord, ClassifierRecord } from './decision.js';
export { ControlPointRegistry, type ControlPointEntry, type ControlPointRegistryOptions } from './control-point-registry.js';
export { toCheckResponse } from './check-response.js';
export { httpFlowLabels, headerLabelKey, HEADER_LABEL_PREFIX, GRPC_SERVICE_LABEL, GRPC_METHOD_LABEL, isGrpcContentType, grpcServiceMethod } from './http-labels.js';
export {
  normalizeRequestTarget, isNormalTarget, type RequestTarget, type RequestTargetOptions, type NormalTarget, type RefusedTarget,
} from './http-path.js';
export { parseBaggage, BAGGAGE_MAX_ENTRIES, BAGGAGE_MAX_LENGTH } from './baggage.js';
export { httpFlavor } from './http-flavor.js';
export { RateLimiter, RATE_LIMITER_KIND, tokensOf, type RateLimiterOptions } from './rate-limiter.js';
export { RATE_LIMITER_INFO, SCHEDULER_INFO, QUOTA_SCHEDULER_INFO, SAMPLER_INFO, tokensWire, tokensOutput, type LimiterDetails } from './limiter-details.js';
export { noReads, readLabel, readLabelMatcher, headerInterestName, type FlowReads } from './flow-reads.js';
export { rateLimiterMetrics, BUCKET_EVICTIONS_METRIC, type RateLimiterMetrics } from './rate-limiter-metrics.js';
export { loadLocalLimiters, validateLocalLimiters, LocalLimitersError, type LocalLimiterSpec } from './local-limiters-config.js';
export { applyLocalLimiters, createLocalRateLimiter, type LocalLimitersOptions } from './apply-local-limiters.js';
export { timestampOf, durationOf, millisOf } from './proto-time.js';
export { registerFlowControlServices } from './register-services.js';
export { flowControlServiceImpl, type ServiceDiscovery } from './check-service.js';
export { CallCancellation, type CancelSource, type CancellableCall } from './call-cancellation.js';
export { checkHttpServiceImpl, toCheckHTTPResponse } from './checkhttp-service.js';
export { apertureCheckHttpServiceImpl, fromApertureRequest, toApertureResponse, CHECK_RESPONSE_METADATA_KEY } from './aperture-checkhttp.js';
export { decideCheckHttp, decideCheckHttpAs, okResponseHeaders, type CheckHttpDeps, type CheckHttpShape } from './checkhttp-decide.js';
export type { HeaderInterest } from './header-interest.js';
export { checkAnswer, encodeCheckAnswer, type CheckHTTPAnswer, type CheckAnswer } from './check-response-wire.js';
export {
  checkHttpStreamHandler, CHECKHTTP_STREAM_MAX_IN_FLIGHT,
  type CheckHttpStreamOptions, type CheckHttpStreamStats,
} from './checkhttp-stream.js';
export { controlPointsServiceImpl } from './control-points-service.js';
export { deniedHttpResponse, retryAfterSeconds } from './denied-response.js';
export { peerIp } from './peer-address.js';
export { checkControlPoint, deadlineMsOf, MAX_CONTROL_POINT_LENGTH } from './request-checks.js';
export { Sampler, SAMPLER_KIND, stickyPoint, type SamplerOptions, type SamplerDecision } from './sampler.js';
export { PolicyClassifier, DEFAULT_MAX_JSON_LENGTH, type PolicyClassifierOptions, type ClassifierRule } from './classifier.js';
export { attributeReader, CLASSIFIER_ATTRIBUTE_PATHS, type AttributeReader } from './flow-attribute.js';
export { parseJsonPointer, resolveJsonPointer } from './json-pointer.js';
export {
  FluxMeterComponent, DEFAULT_FLUX_METER_BUCKETS, checkBuckets, isMeasuringFluxMeter, type FluxMeterOptions, type MeasuringFluxMeter,
} from './flux-meter.js';
export { FluxMeterHistogram, FLUX_METER_METRIC, MAX_SERIES_PER_FLUX_METER, type FlowOutcome, type FluxMeterLabel } from './flux-meter-metrics.js';
export { InflightFlows, type InflightFlow, type InflightFlowsOptions, type InflightFlowsStats, type FlowEndLookup } from './inflight-flows.js';
export { FlowEnds, FLOW_ENDS_METRIC, MAX_FLOW_DURATION_MS, type FlowEndsOptions, type FlowEndReport, type FlowEndResult, type FlowEndSource } from './flow-ends.js';
export { readSdkSpan, type ReceivedSpan, type SpanAttributeValue, type SdkFlowEnd, type SdkSpanReading } from './sdk-flow-span.js';
export {
  registerOtlpTraceService, otlpTraceServiceDefinition, otlpTraceServiceImpl, consumeExport, OTLP_TRACE_SERVICE, MAX_SPANS_PER_EXPORT,
  type SpanConsumer,
} from './otlp-trace-service.js';
export { registerOtlpTracesHttpRoute, otlpTracesHttpHandler, decodeOtlpHttpExport, OTLP_TRACES_PATH, OTLP_HTTP_MAX_BODY_BYTES } from './otlp-trace-http.js';
export { registerEnvoyAuthorizationService, envoyAuthorizationServiceImpl } from './envoy-authz-service.js';
export {
  envoyControlPoint, envoyToCheckHttp, ENVOY_DEFAULT_CONTROL_POINT, ENVOY_CONTROL_POINT_KEY, ENVOY_MAX_HEADERS, ENVOY_MAX_HEADER_BYTES,
} from './envoy-authz-request.js';
export { toEnvoyCheckResponse, ENVOY_CHECK_RESPONSE_METADATA } from './envoy-authz-response.js';
export { readEnvoyLog, type EnvoyLogReading, type LogAttributes } from './envoy-access-log.js';
export {
  registerOtlpLogsService, otlpLogsServiceDefinition, otlpLogsServiceImpl, consumeLogsExport, OTLP_LOGS_SERVICE, MAX_LOG_RECORDS_PER_EXPORT,
  type LogRecordConsumer,
} from './otlp-logs-service.js';
export { decisionMetrics, FLOWCONTROL_METRICS, type DecisionMetrics } from './flowcontrol-metrics.js';
export { MeteredEngine } from './metered-engine.js';
export { decisionSeries, decisionCounter, type DecisionSeriesCounter, LIMITER_DECISIONS_METRIC, LIMITER_DECISIONS_HELP } from './decision-series.js';
export { checkLimiterKind } from './limiter-kind-check.js';
