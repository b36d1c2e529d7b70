// Original file: proto/opentelemetry/proto/collector/trace/v1/trace_service.proto

import type { ResourceSpans as _opentelemetry_proto_trace_v1_ResourceSpans, ResourceSpans__Output as _opentelemetry_proto_trace_v1_ResourceSpans__Output } from '../../../../../opentelemetry/proto/trace/v1/ResourceSpans.js';

export interface ExportTraceServiceRequest {
  /**
   * An array of ResourceSpans.
   * For data coming from a single resource this array will typically contain one
   * element. Intermediary nodes (such as OpenTelemetry Collector) that receive
   * data from multiple origins typically batch the data before forwarding further and
   * in that case this array will contain multiple elements.
   */
  'resource_spans'?: (_opentelemetry_proto_trace_v1_ResourceSpans)[];
}

export interface ExportTraceServiceRequest__Output {
  /**
   * An array of ResourceSpans.
   * For data coming from a single resource this array will typically contain one
   * element. Intermediary nodes (such as OpenTelemetry Collector) that receive
   * data from multiple origins typically batch the data before forwarding further and
   * in that case this array will contain multiple elements.
   */
  'resource_spans': (_opentelemetry_proto_trace_v1_ResourceSpans__Output)[];
}
