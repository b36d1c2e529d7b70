// Original file: proto/opentelemetry/proto/trace/v1/trace.proto

import type { InstrumentationScope as _opentelemetry_proto_common_v1_InstrumentationScope, InstrumentationScope__Output as _opentelemetry_proto_common_v1_InstrumentationScope__Output } from '../../../../opentelemetry/proto/common/v1/InstrumentationScope.js';
import type { Span as _opentelemetry_proto_trace_v1_Span, Span__Output as _opentelemetry_proto_trace_v1_Span__Output } from '../../../../opentelemetry/proto/trace/v1/Span.js';

/**
 * A collection of Spans produced by an InstrumentationScope.
 */
export interface ScopeSpans {
  /**
   * The instrumentation scope information for the spans in this message.
   * Semantically when InstrumentationScope isn't set, it is equivalent with
   * an empty instrumentation scope name (unknown).
   */
  'scope'?: (_opentelemetry_proto_common_v1_InstrumentationScope | null);
  /**
   * A list of Spans that originate from an instrumentation scope.
   */
  'spans'?: (_opentelemetry_proto_trace_v1_Span)[];
  /**
   * The Schema URL, if known. This is the identifier of the Schema that the span data
   * is recorded in. Notably, the last part of the URL path is the version number of the
   * schema: http[s]://server[:port]/path/<version>. To learn more about Schema URL see
   * https://opentelemetry.io/docs/specs/otel/schemas/#schema-url
   * This schema_url applies to the data in the "scope" field and all spans and span
   * events in the "spans" field.
   */
  'schema_url'?: (string);
}

/**
 * A collection of Spans produced by an InstrumentationScope.
 */
export interface ScopeSpans__Output {
  /**
   * The instrumentation scope information for the spans in this message.
   * Semantically when InstrumentationScope isn't set, it is equivalent with
   * an empty instrumentation scope name (unknown).
   */
  'scope': (_opentelemetry_proto_common_v1_InstrumentationScope__Output | null);
  /**
   * A list of Spans that originate from an instrumentation scope.
   */
  'spans': (_opentelemetry_proto_trace_v1_Span__Output)[];
  /**
   * The Schema URL, if known. This is the identifier of the Schema that the span data
   * is recorded in. Notably, the last part of the URL path is the version number of the
   * schema: http[s]://server[:port]/path/<version>. To learn more about Schema URL see
   * https://opentelemetry.io/docs/specs/otel/schemas/#schema-url
   * This schema_url applies to the data in the "scope" field and all spans and span
   * events in the "spans" field.
   */
  'schema_url': (string);
}
