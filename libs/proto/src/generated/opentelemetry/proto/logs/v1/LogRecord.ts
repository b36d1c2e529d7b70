// Original file: proto/opentelemetry/proto/logs/v1/logs.proto

import type { SeverityNumber as _opentelemetry_proto_logs_v1_SeverityNumber, SeverityNumber__Output as _opentelemetry_proto_logs_v1_SeverityNumber__Output } from '../../../../opentelemetry/proto/logs/v1/SeverityNumber.js';
import type { AnyValue as _opentelemetry_proto_common_v1_AnyValue, AnyValue__Output as _opentelemetry_proto_common_v1_AnyValue__Output } from '../../../../opentelemetry/proto/common/v1/AnyValue.js';
import type { KeyValue as _opentelemetry_proto_common_v1_KeyValue, KeyValue__Output as _opentelemetry_proto_common_v1_KeyValue__Output } from '../../../../opentelemetry/proto/common/v1/KeyValue.js';
import type { Long } from '@grpc/proto-loader';

/**
 * A log record according to OpenTelemetry Log Data Model:
 * https://github.com/open-telemetry/oteps/blob/main/text/logs/0097-log-data-model.md
 */
export interface LogRecord {
  /**
   * time_unix_nano is the time when the event occurred.
   * Value is UNIX Epoch time in nanoseconds since 00:00:00 UTC on 1 January 1970.
   * Value of 0 indicates unknown or missing timestamp.
   */
  'time_unix_nano'?: (number | string | Long);
  /**
   * Numerical value of the severity, normalized to values described in Log Data Model.
   * [Optional].
   */
  'severity_number'?: (_opentelemetry_proto_logs_v1_SeverityNumber);
  /**
   * The severity text (also known as log level). The original string representation as
   * it is known at the source. [Optional].
   */
  'severity_text'?: (string);
  /**
   * A value containing the body of the log record. Can be for example a human-readable
   * string message (including multi-line) describing the event in a free form or it can
   * be a structured data composed of arrays and maps of other values. [Optional].
   */
  'body'?: (_opentelemetry_proto_common_v1_AnyValue | null);
  /**
   * Additional attributes that describe the specific event occurrence. [Optional].
   * Attribute keys MUST be unique (it is not allowed to have more than one
   * attribute with the same key).
   * The behavior of software that receives duplicated keys can be unpredictable.
   */
  'attributes'?: (_opentelemetry_proto_common_v1_KeyValue)[];
  'dropped_attributes_count'?: (number);
  /**
   * Flags, a bit field. 8 least significant bits are the trace flags as
   * defined in W3C Trace Context specification. 24 most significant bits are reserved
   * and must be set to 0. Readers must not assume that 24 most significant bits
   * will be zero and must correctly mask the bits when reading 8-bit trace flag (use
   * flags & LOG_RECORD_FLAGS_TRACE_FLAGS_MASK). [Optional].
   */
  'flags'?: (number);
  /**
   * A unique identifier for a trace. All logs from the same trace share
   * the same `trace_id`. The ID is a 16-byte array. An ID with all zeroes OR
   * of length other than 16 bytes is considered invalid (empty string in OTLP/JSON
   * is zero-length and thus is also invalid).
   * 
   * This field is optional.
   * 
   * The receivers SHOULD assume that the log record is not associated with a
   * trace if any of the following is true:
   * - the field is not present,
   * - the field contains an invalid value.
   */
  'trace_id'?: (Buffer | Uint8Array | string);
  /**
   * A unique identifier for a span within a trace, assigned when the span
   * is created. The ID is an 8-byte array. An ID with all zeroes OR of length
   * other than 8 bytes is considered invalid (empty string in OTLP/JSON
   * is zero-length and thus is also invalid).
   * 
   * This field is optional. If the sender specifies a valid span_id then it SHOULD also
   * specify a valid trace_id.
   * 
   * The receivers SHOULD assume that the log record is not associated with a
   * span if any of the following is true:
   * - the field is not present,
   * - the field contains an invalid value.
   */
  'span_id'?: (Buffer | Uint8Array | string);
  /**
   * Time when the event was observed by the collection system.
   * For events that originate in OpenTelemetry (e.g. using OpenTelemetry Logging SDK)
   * this timestamp is typically set at the generation time and is equal to Timestamp.
   * For events originating externally and collected by OpenTelemetry (e.g. using
   * Collector) this is the time when OpenTelemetry's code observed the event measured
   * by the clock of the OpenTelemetry code. This field MUST be set once the event is
   * observed by OpenTelemetry.
   * 
   * For converting OpenTelemetry log data to formats that support only one timestamp or
   * when receiving OpenTelemetry log data by recipients that support only one timestamp
   * internally the following logic is recommended:
   * - Use time_unix_nano if it is present, otherwise use observed_time_unix_nano.
   * 
   * Value is UNIX Epoch time in nanoseconds since 00:00:00 UTC on 1 January 1970.
   * Value of 0 indicates unknown or missing timestamp.
   */
  'observed_time_unix_nano'?: (number | string | Long);
  /**
   * A unique identifier of event category/type.
   * All events with the same event_name are expected to conform to the same
   * schema for both their attributes and their body.
   * 
   * Recommended to be fully qualified and short (no longer than 256 characters).
   * 
   * Presence of event_name on the log record identifies this record
   * as an event.
   * 
   * [Optional].
   */
  'event_name'?: (string);
}

/**
 * A log record according to OpenTelemetry Log Data Model:
 * https://github.com/open-telemetry/oteps/blob/main/text/logs/0097-log-data-model.md
 */
export interface LogRecord__Output {
  /**
   * time_unix_nano is the time when the event occurred.
   * Value is UNIX Epoch time in nanoseconds since 00:00:00 UTC on 1 January 1970.
   * Value of 0 indicates unknown or missing timestamp.
   */
  'time_unix_nano': (number);
  /**
   * Numerical value of the severity, normalized to values described in Log Data Model.
   * [Optional].
   */
  'severity_number': (_opentelemetry_proto_logs_v1_SeverityNumber__Output);
  /**
   * The severity text (also known as log level). The original string representation as
   * it is known at the source. [Optional].
   */
  'severity_text': (string);
  /**
   * A value containing the body of the log record. Can be for example a human-readable
   * string message (including multi-line) describing the event in a free form or it can
   * be a structured data composed of arrays and maps of other values. [Optional].
   */
  'body': (_opentelemetry_proto_common_v1_AnyValue__Output | null);
  /**
   * Additional attributes that describe the specific event occurrence. [Optional].
   * Attribute keys MUST be unique (it is not allowed to have more than one
   * attribute with the same key).
   * The behavior of software that receives duplicated keys can be unpredictable.
   */
  'attributes': (_opentelemetry_proto_common_v1_KeyValue__Output)[];
  'dropped_attributes_count': (number);
  /**
   * Flags, a bit field. 8 least significant bits are the trace flags as
   * defined in W3C Trace Context specification. 24 most significant bits are reserved
   * and must be set to 0. Readers must not assume that 24 most significant bits
   * will be zero and must correctly mask the bits when reading 8-bit trace flag (use
   * flags & LOG_RECORD_FLAGS_TRACE_FLAGS_MASK). [Optional].
   */
  'flags': (number);
  /**
   * A unique identifier for a trace. All logs from the same trace share
   * the same `trace_id`. The ID is a 16-byte array. An ID with all zeroes OR
   * of length other than 16 bytes is considered invalid (empty string in OTLP/JSON
   * is zero-length and thus is also invalid).
   * 
   * This field is optional.
   * 
   * The receivers SHOULD assume that the log record is not associated with a
   * trace if any of the following is true:
   * - the field is not present,
   * - the field contains an invalid value.
   */
  'trace_id': (string);
  /**
   * A unique identifier for a span within a trace, assigned when the span
   * is created. The ID is an 8-byte array. An ID with all zeroes OR of length
   * other than 8 bytes is considered invalid (empty string in OTLP/JSON
   * is zero-length and thus is also invalid).
   * 
   * This field is optional. If the sender specifies a valid span_id then it SHOULD also
   * specify a valid trace_id.
   * 
   * The receivers SHOULD assume that the log record is not associated with a
   * span if any of the following is true:
   * - the field is not present,
   * - the field contains an invalid value.
   */
  'span_id': (string);
  /**
   * Time when the event was observed by the collection system.
   * For events that originate in OpenTelemetry (e.g. using OpenTelemetry Logging SDK)
   * this timestamp is typically set at the generation time and is equal to Timestamp.
   * For events originating externally and collected by OpenTelemetry (e.g. using
   * Collector) this is the time when OpenTelemetry's code observed the event measured
   * by the clock of the OpenTelemetry code. This field MUST be set once the event is
   * observed by OpenTelemetry.
   * 
   * For converting OpenTelemetry log data to formats that support only one timestamp or
   * when receiving OpenTelemetry log data by recipients that support only one timestamp
   * internally the following logic is recommended:
   * - Use time_unix_nano if it is present, otherwise use observed_time_unix_nano.
   * 
   * Value is UNIX Epoch time in nanoseconds since 00:00:00 UTC on 1 January 1970.
   * Value of 0 indicates unknown or missing timestamp.
   */
  'observed_time_unix_nano': (number);
  /**
   * A unique identifier of event category/type.
   * All events with the same event_name are expected to conform to the same
   * schema for both their attributes and their body.
   * 
   * Recommended to be fully qualified and short (no longer than 256 characters).
   * 
   * Presence of event_name on the log record identifies this record
   * as an event.
   * 
   * [Optional].
   */
  'event_name': (string);
}
