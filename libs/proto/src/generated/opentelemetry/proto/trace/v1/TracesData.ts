// Original file: proto/opentelemetry/proto/trace/v1/trace.proto

import type { ResourceSpans as _opentelemetry_proto_trace_v1_ResourceSpans, ResourceSpans__Output as _opentelemetry_proto_trace_v1_ResourceSpans__Output } from '../../../../opentelemetry/proto/trace/v1/ResourceSpans.js';

/**
 * TracesData represents the traces data that can be stored in a persistent storage,
 * OR can be embedded by other protocols that transfer OTLP traces data but do
 * not implement the OTLP protocol.
 * 
 * The main difference between this message and collector protocol is that
 * in this message there will not be any "control" or "metadata" specific to
 * OTLP protocol.
 * 
 * When new fields are added into this message, the OTLP request MUST be updated
 * as well.
 */
export interface TracesData {
  /**
   * An array of ResourceSpans.
   * For data coming from a single resource this array will typically contain
   * one element. Intermediary nodes that receive data from multiple origins
   * typically batch the data before forwarding further and in that case this
   * array will contain multiple elements.
   */
  'resource_spans'?: (_opentelemetry_proto_trace_v1_ResourceSpans)[];
}

/**
 * TracesData represents the traces data that can be stored in a persistent storage,
 * OR can be embedded by other protocols that transfer OTLP traces data but do
 * not implement the OTLP protocol.
 * 
 * The main difference between this message and collector protocol is that
 * in this message there will not be any "control" or "metadata" specific to
 * OTLP protocol.
 * 
 * When new fields are added into this message, the OTLP request MUST be updated
 * as well.
 */
export interface TracesData__Output {
  /**
   * An array of ResourceSpans.
   * For data coming from a single resource this array will typically contain
   * one element. Intermediary nodes that receive data from multiple origins
   * typically batch the data before forwarding further and in that case this
   * array will contain multiple elements.
   */
  'resource_spans': (_opentelemetry_proto_trace_v1_ResourceSpans__Output)[];
}
