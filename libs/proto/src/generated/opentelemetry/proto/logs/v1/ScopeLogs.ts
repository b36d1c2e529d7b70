// Original file: proto/opentelemetry/proto/logs/v1/logs.proto

import type { InstrumentationScope as _opentelemetry_proto_common_v1_InstrumentationScope, InstrumentationScope__Output as _opentelemetry_proto_common_v1_InstrumentationScope__Output } from '../../../../opentelemetry/proto/common/v1/InstrumentationScope.js';
import type { LogRecord as _opentelemetry_proto_logs_v1_LogRecord, LogRecord__Output as _opentelemetry_proto_logs_v1_LogRecord__Output } from '../../../../opentelemetry/proto/logs/v1/LogRecord.js';

/**
 * A collection of Logs produced by a Scope.
 */
export interface ScopeLogs {
  /**
   * The instrumentation scope information for the logs in this message.
   * Semantically when InstrumentationScope isn't set, it is equivalent with
   * an empty instrumentation scope name (unknown).
   */
  'scope'?: (_opentelemetry_proto_common_v1_InstrumentationScope | null);
  /**
   * A list of log records.
   */
  'log_records'?: (_opentelemetry_proto_logs_v1_LogRecord)[];
  /**
   * The Schema URL, if known. This is the identifier of the Schema that the log data
   * is recorded in. Notably, the last part of the URL path is the version number of the
   * schema: http[s]://server[:port]/path/<version>. To learn more about Schema URL see
   * https://opentelemetry.io/docs/specs/otel/schemas/#schema-url
   * This schema_url applies to the data in the "scope" field and all logs in the
   * "log_records" field.
   */
  'schema_url'?: (string);
}

/**
 * A collection of Logs produced by a Scope.
 */
export interface ScopeLogs__Output {
  /**
   * The instrumentation scope information for the logs in this message.
   * Semantically when InstrumentationScope isn't set, it is equivalent with
   * an empty instrumentation scope name (unknown).
   */
  'scope': (_opentelemetry_proto_common_v1_InstrumentationScope__Output | null);
  /**
   * A list of log records.
   */
  'log_records': (_opentelemetry_proto_logs_v1_LogRecord__Output)[];
  /**
   * The Schema URL, if known. This is the identifier of the Schema that the log data
   * is recorded in. Notably, the last part of the URL path is the version number of the
   * schema: http[s]://server[:port]/path/<version>. To learn more about Schema URL see
   * https://opentelemetry.io/docs/specs/otel/schemas/#schema-url
   * This schema_url applies to the data in the "scope" field and all logs in the
   * "log_records" field.
   */
  'schema_url': (string);
}
