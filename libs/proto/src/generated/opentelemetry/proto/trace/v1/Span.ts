// Original file: proto/opentelemetry/proto/trace/v1/trace.proto

import type { KeyValue as _opentelemetry_proto_common_v1_KeyValue, KeyValue__Output as _opentelemetry_proto_common_v1_KeyValue__Output } from '../../../../opentelemetry/proto/common/v1/KeyValue.js';
import type { Status as _opentelemetry_proto_trace_v1_Status, Status__Output as _opentelemetry_proto_trace_v1_Status__Output } from '../../../../opentelemetry/proto/trace/v1/Status.js';
import type { Long } from '@grpc/proto-loader';

/**
 * Event is a time-stamped annotation of the span, consisting of user-supplied
 * text description and key-value pairs.
 */
export interface _opentelemetry_proto_trace_v1_Span_Event {
  /**
   * The time the event occurred.
   */
  'time_unix_nano'?: (number | string | Long);
  /**
   * The name of the event.
   * This field is semantically required to be set to non-empty string.
   */
  'name'?: (string);
  /**
   * A collection of attribute key/value pairs on the event.
   * Attribute keys MUST be unique (it is not allowed to have more than one
   * attribute with the same key).
   * The behavior of software that receives duplicated keys can be unpredictable.
   */
  'attributes'?: (_opentelemetry_proto_common_v1_KeyValue)[];
  /**
   * The number of dropped attributes. If the value is 0,
   * then no attributes were dropped.
   */
  'dropped_attributes_count'?: (number);
}

/**
 * Event is a time-stamped annotation of the span, consisting of user-supplied
 * text description and key-value pairs.
 */
export interface _opentelemetry_proto_trace_v1_Span_Event__Output {
  /**
   * The time the event occurred.
   */
  'time_unix_nano': (number);
  /**
   * The name of the event.
   * This field is semantically required to be set to non-empty string.
   */
  'name': (string);
  /**
   * A collection of attribute key/value pairs on the event.
   * Attribute keys MUST be unique (it is not allowed to have more than one
   * attribute with the same key).
   * The behavior of software that receives duplicated keys can be unpredictable.
   */
  'attributes': (_opentelemetry_proto_common_v1_KeyValue__Output)[];
  /**
   * The number of dropped attributes. If the value is 0,
   * then no attributes were dropped.
   */
  'dropped_attributes_count': (number);
}

/**
 * A pointer from the current span to another span in the same trace or in a
 * different trace. For example, this can be used in batching operations,
 * where a single batch handler processes multiple requests from different
 * traces or when the handler receives a request from a different project.
 */
export interface _opentelemetry_proto_trace_v1_Span_Link {
  /**
   * A unique identifier of a trace that this linked span is part of. The ID is a
   * 16-byte array.
   */
  'trace_id'?: (Buffer | Uint8Array | string);
  /**
   * A unique identifier for the linked span. The ID is an 8-byte array.
   */
  'span_id'?: (Buffer | Uint8Array | string);
  /**
   * The trace_state associated with the link.
   */
  'trace_state'?: (string);
  /**
   * A collection of attribute key/value pairs on the link.
   * Attribute keys MUST be unique (it is not allowed to have more than one
   * attribute with the same key).
   * The behavior of software that receives duplicated keys can be unpredictable.
   */
  'attributes'?: (_opentelemetry_proto_common_v1_KeyValue)[];
  /**
   * The number of dropped attributes. If the value is 0,
   * then no attributes were dropped.
   */
  'dropped_attributes_count'?: (number);
  /**
   * Flags, a bit field.
   * 
   * Bits 0-7 (8 least significant bits) are the trace flags as defined in W3C Trace
   * Context specification. To read the 8-bit W3C trace flag, use
   * `flags & SPAN_FLAGS_TRACE_FLAGS_MASK`.
   * 
   * See https://www.w3.org/TR/trace-context-2/#trace-flags for the flag definitions.
   * 
   * Bits 8 and 9 represent the 3 states of whether the link is remote.
   * The states are (unknown, is not remote, is remote).
   * To read whether the value is known, use `(flags & SPAN_FLAGS_CONTEXT_HAS_IS_REMOTE_MASK) != 0`.
   * To read whether the link is remote, use `(flags & SPAN_FLAGS_CONTEXT_IS_REMOTE_MASK) != 0`.
   * 
   * Readers MUST NOT assume that bits 10-31 (22 most significant bits) will be zero.
   * When creating new spans, bits 10-31 (most-significant 22-bits) MUST be zero.
   * 
   * [Optional].
   */
  'flags'?: (number);
}

/**
 * A pointer from the current span to another span in the same trace or in a
 * different trace. For example, this can be used in batching operations,
 * where a single batch handler processes multiple requests from different
 * traces or when the handler receives a request from a different project.
 */
export interface _opentelemetry_proto_trace_v1_Span_Link__Output {
  /**
   * A unique identifier of a trace that this linked span is part of. The ID is a
   * 16-byte array.
   */
  'trace_id': (string);
  /**
   * A unique identifier for the linked span. The ID is an 8-byte array.
   */
  'span_id': (string);
  /**
   * The trace_state associated with the link.
   */
  'trace_state': (string);
  /**
   * A collection of attribute key/value pairs on the link.
   * Attribute keys MUST be unique (it is not allowed to have more than one
   * attribute with the same key).
   * The behavior of software that receives duplicated keys can be unpredictable.
   */
  'attributes': (_opentelemetry_proto_common_v1_KeyValue__Output)[];
  /**
   * The number of dropped attributes. If the value is 0,
   * then no attributes were dropped.
   */
  'dropped_attributes_count': (number);
  /**
   * Flags, a bit field.
   * 
   * Bits 0-7 (8 least significant bits) are the trace flags as defined in W3C Trace
   * Context specification. To read the 8-bit W3C trace flag, use
   * `flags & SPAN_FLAGS_TRACE_FLAGS_MASK`.
   * 
   * See https://www.w3.org/TR/trace-context-2/#trace-flags for the flag definitions.
   * 
   * Bits 8 and 9 represent the 3 states of whether the link is remote.
   * The states are (unknown, is not remote, is remote).
   * To read whether the value is known, use `(flags & SPAN_FLAGS_CONTEXT_HAS_IS_REMOTE_MASK) != 0`.
   * To read whether the link is remote, use `(flags & SPAN_FLAGS_CONTEXT_IS_REMOTE_MASK) != 0`.
   * 
   * Readers MUST NOT assume that bits 10-31 (22 most significant bits) will be zero.
   * When creating new spans, bits 10-31 (most-significant 22-bits) MUST be zero.
   * 
   * [Optional].
   */
  'flags': (number);
}

// Original file: proto/opentelemetry/proto/trace/v1/trace.proto

/**
 * SpanKind is the type of span. Can be used to specify additional relationships between spans
 * in addition to a parent/child relationship.
 */
export const _opentelemetry_proto_trace_v1_Span_SpanKind = {
  /**
   * Unspecified. Do NOT use as default.
   * Implementations MAY assume SpanKind to be INTERNAL when receiving UNSPECIFIED.
   */
  SPAN_KIND_UNSPECIFIED: 'SPAN_KIND_UNSPECIFIED',
  /**
   * Indicates that the span represents an internal operation within an application,
   * as opposed to an operation happening at the boundaries. Default value.
   */
  SPAN_KIND_INTERNAL: 'SPAN_KIND_INTERNAL',
  /**
   * Indicates that the span covers server-side handling of an RPC or other
   * remote network request.
   */
  SPAN_KIND_SERVER: 'SPAN_KIND_SERVER',
  /**
   * Indicates that the span describes a request to some remote service.
   */
  SPAN_KIND_CLIENT: 'SPAN_KIND_CLIENT',
  /**
   * Indicates that the span describes a producer sending a message to a broker.
   * Unlike CLIENT and SERVER, there is often no direct critical path latency relationship
   * between producer and consumer spans. A PRODUCER span ends when the message was accepted
   * by the broker while the logical processing of the message might span a much longer time.
   */
  SPAN_KIND_PRODUCER: 'SPAN_KIND_PRODUCER',
  /**
   * Indicates that the span describes consumer receiving a message from a broker.
   * Like the PRODUCER kind, there is often no direct critical path latency relationship
   * between producer and consumer spans.
   */
  SPAN_KIND_CONSUMER: 'SPAN_KIND_CONSUMER',
} as const;

/**
 * SpanKind is the type of span. Can be used to specify additional relationships between spans
 * in addition to a parent/child relationship.
 */
export type _opentelemetry_proto_trace_v1_Span_SpanKind =
  /**
   * Unspecified. Do NOT use as default.
   * Implementations MAY assume SpanKind to be INTERNAL when receiving UNSPECIFIED.
   */
  | 'SPAN_KIND_UNSPECIFIED'
  | 0
  /**
   * Indicates that the span represents an internal operation within an application,
   * as opposed to an operation happening at the boundaries. Default value.
   */
  | 'SPAN_KIND_INTERNAL'
  | 1
  /**
   * Indicates that the span covers server-side handling of an RPC or other
   * remote network request.
   */
  | 'SPAN_KIND_SERVER'
  | 2
  /**
   * Indicates that the span describes a request to some remote service.
   */
  | 'SPAN_KIND_CLIENT'
  | 3
  /**
   * Indicates that the span describes a producer sending a message to a broker.
   * Unlike CLIENT and SERVER, there is often no direct critical path latency relationship
   * between producer and consumer spans. A PRODUCER span ends when the message was accepted
   * by the broker while the logical processing of the message might span a much longer time.
   */
  | 'SPAN_KIND_PRODUCER'
  | 4
  /**
   * Indicates that the span describes consumer receiving a message from a broker.
   * Like the PRODUCER kind, there is often no direct critical path latency relationship
   * between producer and consumer spans.
   */
  | 'SPAN_KIND_CONSUMER'
  | 5

/**
 * SpanKind is the type of span. Can be used to specify additional relationships between spans
 * in addition to a parent/child relationship.
 */
export type _opentelemetry_proto_trace_v1_Span_SpanKind__Output = typeof _opentelemetry_proto_trace_v1_Span_SpanKind[keyof typeof _opentelemetry_proto_trace_v1_Span_SpanKind]

/**
 * A Span represents a single operation performed by a single component of the system.
 * 
 * The next available field id is 17.
 */
export interface Span {
  /**
   * A unique identifier for a trace. All spans from the same trace share
   * the same `trace_id`. The ID is a 16-byte array. An ID with all zeroes OR
   * of length other than 16 bytes is considered invalid (empty string in OTLP/JSON
   * is zero-length and thus is also invalid).
   * 
   * This field is required.
   */
  'trace_id'?: (Buffer | Uint8Array | string);
  /**
   * A unique identifier for a span within a trace, assigned when the span
   * is created. The ID is an 8-byte array. An ID with all zeroes OR of length
   * other than 8 bytes is considered invalid (empty string in OTLP/JSON
   * is zero-length and thus is also invalid).
   * 
   * This field is required.
   */
  'span_id'?: (Buffer | Uint8Array | string);
  /**
   * trace_state conveys information about request position in multiple distributed tracing graphs.
   * It is a trace_state in w3c-trace-context format: https://www.w3.org/TR/trace-context/#tracestate-header
   * See also https://github.com/w3c/distributed-tracing for more details about this field.
   */
  'trace_state'?: (string);
  /**
   * The `span_id` of this span's parent span. If this is a root span, then this
   * field must be empty. The ID is an 8-byte array.
   */
  'parent_span_id'?: (Buffer | Uint8Array | string);
  /**
   * A description of the span's operation.
   * 
   * For example, the name can be a qualified method name or a file name
   * and a line number where the operation is called. A best practice is to use
   * the same display name at the same call point in an application.
   * This makes it easier to correlate spans in different traces.
   * 
   * This field is semantically required to be set to non-empty string.
   * Empty value is equivalent to an unknown span name.
   * 
   * This field is required.
   */
  'name'?: (string);
  /**
   * Distinguishes between spans generated in a particular context. For example,
   * two spans with the same name may be distinguished using `CLIENT` (caller)
   * and `SERVER` (callee) to identify queueing latency associated with the span.
   */
  'kind'?: (_opentelemetry_proto_trace_v1_Span_SpanKind);
  /**
   * The start time of the span. On the client side, this is the time
   * kept by the local machine where the span execution starts. On the server side, this
   * is the time when the server's application handler starts running.
   * Value is UNIX Epoch time in nanoseconds since 00:00:00 UTC on 1 January 1970.
   * 
   * This field is semantically required and it is expected that end_time >= start_time.
   */
  'start_time_unix_nano'?: (number | string | Long);
  /**
   * The end time of the span. On the client side, this is the time
   * kept by the local machine where the span execution ends. On the server side, this
   * is the time when the server application handler stops running.
   * Value is UNIX Epoch time in nanoseconds since 00:00:00 UTC on 1 January 1970.
   * 
   * This field is semantically required and it is expected that end_time >= start_time.
   */
  'end_time_unix_nano'?: (number | string | Long);
  /**
   * A collection of key/value pairs. Note, global attributes
   * like server name can be set using the resource API. Examples of attributes:
   * 
   * "/http/user_agent": "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_14_2) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/71.0.3578.98 Safari/537.36"
   * "/http/server_latency": 300
   * "example.com/myattribute": true
   * "example.com/score": 10.239
   * 
   * Attribute keys MUST be unique (it is not allowed to have more than one
   * attribute with the same key).
   * The behavior of software that receives duplicated keys can be unpredictable.
   */
  'attributes'?: (_opentelemetry_proto_common_v1_KeyValue)[];
  /**
   * The number of attributes that were discarded. Attributes
   * can be discarded because their keys are too long or because there are too many
   * attributes. If this value is 0, then no attributes were dropped.
   */
  'dropped_attributes_count'?: (number);
  /**
   * A collection of Event items.
   */
  'events'?: (_opentelemetry_proto_trace_v1_Span_Event)[];
  /**
   * The number of dropped events. If the value is 0, then no
   * events were dropped.
   */
  'dropped_events_count'?: (number);
  /**
   * A collection of Links, which are references from this span to a span
   * in the same or different trace.
   */
  'links'?: (_opentelemetry_proto_trace_v1_Span_Link)[];
  /**
   * The number of dropped links after the maximum size was
   * enforced. If this value is 0, then no links were dropped.
   */
  'dropped_links_count'?: (number);
  /**
   * An optional final status for this span. Semantically when Status isn't set, it means
   * span's status code is unset, i.e. assume STATUS_CODE_UNSET (code = 0).
   */
  'status'?: (_opentelemetry_proto_trace_v1_Status | null);
  /**
   * Flags, a bit field.
   * 
   * Bits 0-7 (8 least significant bits) are the trace flags as defined in W3C Trace
   * Context specification. To read the 8-bit W3C trace flag, use
   * `flags & SPAN_FLAGS_TRACE_FLAGS_MASK`.
   * 
   * See https://www.w3.org/TR/trace-context-2/#trace-flags for the flag definitions.
   * 
   * Bits 8 and 9 represent the 3 states of whether a span's parent
   * is remote. The states are (unknown, is not remote, is remote).
   * To read whether the value is known, use `(flags & SPAN_FLAGS_CONTEXT_HAS_IS_REMOTE_MASK) != 0`.
   * To read whether the span is remote, use `(flags & SPAN_FLAGS_CONTEXT_IS_REMOTE_MASK) != 0`.
   * 
   * When creating span messages, if the message is logically forwarded from another source
   * with an equivalent flags fields (i.e., usually another OTLP span message), the field SHOULD
   * be copied as-is. If creating from a source that does not have an equivalent flags field
   * (such as a runtime representation of an OpenTelemetry span), the high 22 bits MUST
   * be set to zero.
   * Readers MUST NOT assume that bits 10-31 (22 most significant bits) will be zero.
   * 
   * [Optional].
   */
  'flags'?: (number);
}

/**
 * A Span represents a single operation performed by a single component of the system.
 * 
 * The next available field id is 17.
 */
export interface Span__Output {
  /**
   * A unique identifier for a trace. All spans from the same trace share
   * the same `trace_id`. The ID is a 16-byte array. An ID with all zeroes OR
   * of length other than 16 bytes is considered invalid (empty string in OTLP/JSON
   * is zero-length and thus is also invalid).
   * 
   * This field is required.
   */
  'trace_id': (string);
  /**
   * A unique identifier for a span within a trace, assigned when the span
   * is created. The ID is an 8-byte array. An ID with all zeroes OR of length
   * other than 8 bytes is considered invalid (empty string in OTLP/JSON
   * is zero-length and thus is also invalid).
   * 
   * This field is required.
   */
  'span_id': (string);
  /**
   * trace_state conveys information about request position in multiple distributed tracing graphs.
   * It is a trace_state in w3c-trace-context format: https://www.w3.org/TR/trace-context/#tracestate-header
   * See also https://github.com/w3c/distributed-tracing for more details about this field.
   */
  'trace_state': (string);
  /**
   * The `span_id` of this span's parent span. If this is a root span, then this
   * field must be empty. The ID is an 8-byte array.
   */
  'parent_span_id': (string);
  /**
   * A description of the span's operation.
   * 
   * For example, the name can be a qualified method name or a file name
   * and a line number where the operation is called. A best practice is to use
   * the same display name at the same call point in an application.
   * This makes it easier to correlate spans in different traces.
   * 
   * This field is semantically required to be set to non-empty string.
   * Empty value is equivalent to an unknown span name.
   * 
   * This field is required.
   */
  'name': (string);
  /**
   * Distinguishes between spans generated in a particular context. For example,
   * two spans with the same name may be distinguished using `CLIENT` (caller)
   * and `SERVER` (callee) to identify queueing latency associated with the span.
   */
  'kind': (_opentelemetry_proto_trace_v1_Span_SpanKind__Output);
  /**
   * The start time of the span. On the client side, this is the time
   * kept by the local machine where the span execution starts. On the server side, this
   * is the time when the server's application handler starts running.
   * Value is UNIX Epoch time in nanoseconds since 00:00:00 UTC on 1 January 1970.
   * 
   * This field is semantically required and it is expected that end_time >= start_time.
   */
  'start_time_unix_nano': (number);
  /**
   * The end time of the span. On the client side, this is the time
   * kept by the local machine where the span execution ends. On the server side, this
   * is the time when the server application handler stops running.
   * Value is UNIX Epoch time in nanoseconds since 00:00:00 UTC on 1 January 1970.
   * 
   * This field is semantically required and it is expected that end_time >= start_time.
   */
  'end_time_unix_nano': (number);
  /**
   * A collection of key/value pairs. Note, global attributes
   * like server name can be set using the resource API. Examples of attributes:
   * 
   * "/http/user_agent": "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_14_2) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/71.0.3578.98 Safari/537.36"
   * "/http/server_latency": 300
   * "example.com/myattribute": true
   * "example.com/score": 10.239
   * 
   * Attribute keys MUST be unique (it is not allowed to have more than one
   * attribute with the same key).
   * The behavior of software that receives duplicated keys can be unpredictable.
   */
  'attributes': (_opentelemetry_proto_common_v1_KeyValue__Output)[];
  /**
   * The number of attributes that were discarded. Attributes
   * can be discarded because their keys are too long or because there are too many
   * attributes. If this value is 0, then no attributes were dropped.
   */
  'dropped_attributes_count': (number);
  /**
   * A collection of Event items.
   */
  'events': (_opentelemetry_proto_trace_v1_Span_Event__Output)[];
  /**
   * The number of dropped events. If the value is 0, then no
   * events were dropped.
   */
  'dropped_events_count': (number);
  /**
   * A collection of Links, which are references from this span to a span
   * in the same or different trace.
   */
  'links': (_opentelemetry_proto_trace_v1_Span_Link__Output)[];
  /**
   * The number of dropped links after the maximum size was
   * enforced. If this value is 0, then no links were dropped.
   */
  'dropped_links_count': (number);
  /**
   * An optional final status for this span. Semantically when Status isn't set, it means
   * span's status code is unset, i.e. assume STATUS_CODE_UNSET (code = 0).
   */
  'status': (_opentelemetry_proto_trace_v1_Status__Output | null);
  /**
   * Flags, a bit field.
   * 
   * Bits 0-7 (8 least significant bits) are the trace flags as defined in W3C Trace
   * Context specification. To read the 8-bit W3C trace flag, use
   * `flags & SPAN_FLAGS_TRACE_FLAGS_MASK`.
   * 
   * See https://www.w3.org/TR/trace-context-2/#trace-flags for the flag definitions.
   * 
   * Bits 8 and 9 represent the 3 states of whether a span's parent
   * is remote. The states are (unknown, is not remote, is remote).
   * To read whether the value is known, use `(flags & SPAN_FLAGS_CONTEXT_HAS_IS_REMOTE_MASK) != 0`.
   * To read whether the span is remote, use `(flags & SPAN_FLAGS_CONTEXT_IS_REMOTE_MASK) != 0`.
   * 
   * When creating span messages, if the message is logically forwarded from another source
   * with an equivalent flags fields (i.e., usually another OTLP span message), the field SHOULD
   * be copied as-is. If creating from a source that does not have an equivalent flags field
   * (such as a runtime representation of an OpenTelemetry span), the high 22 bits MUST
   * be set to zero.
   * Readers MUST NOT assume that bits 10-31 (22 most significant bits) will be zero.
   * 
   * [Optional].
   */
  'flags': (number);
}
