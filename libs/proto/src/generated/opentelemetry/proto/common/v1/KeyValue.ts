// Original file: proto/opentelemetry/proto/common/v1/common.proto

import type { AnyValue as _opentelemetry_proto_common_v1_AnyValue, AnyValue__Output as _opentelemetry_proto_common_v1_AnyValue__Output } from '../../../../opentelemetry/proto/common/v1/AnyValue.js';

/**
 * Represents a key-value pair that is used to store Span attributes, Link
 * attributes, etc.
 */
export interface KeyValue {
  /**
   * The key name of the pair.
   * key_strindex MUST NOT be set if key is used.
   */
  'key'?: (string);
  /**
   * The value of the pair.
   */
  'value'?: (_opentelemetry_proto_common_v1_AnyValue | null);
  /**
   * Reference to the string key in ProfilesDictionary.string_table.
   * key MUST NOT be set if key_strindex is used.
   * 
   * Note: This is currently used exclusively in the Profiling signal.
   * Implementers of OTLP receivers for signals other than Profiling should
   * treat the presence of this key as a non-fatal issue.
   * Log an error or warning indicating an unexpected field intended for the
   * Profiling signal and process the data as if this value were absent or
   * empty, ignoring its semantic content for the non-Profiling signal.
   * 
   * Status: [Alpha]
   */
  'key_strindex'?: (number);
}

/**
 * Represents a key-value pair that is used to store Span attributes, Link
 * attributes, etc.
 */
export interface KeyValue__Output {
  /**
   * The key name of the pair.
   * key_strindex MUST NOT be set if key is used.
   */
  'key': (string);
  /**
   * The value of the pair.
   */
  'value': (_opentelemetry_proto_common_v1_AnyValue__Output | null);
  /**
   * Reference to the string key in ProfilesDictionary.string_table.
   * key MUST NOT be set if key_strindex is used.
   * 
   * Note: This is currently used exclusively in the Profiling signal.
   * Implementers of OTLP receivers for signals other than Profiling should
   * treat the presence of this key as a non-fatal issue.
   * Log an error or warning indicating an unexpected field intended for the
   * Profiling signal and process the data as if this value were absent or
   * empty, ignoring its semantic content for the non-Profiling signal.
   * 
   * Status: [Alpha]
   */
  'key_strindex': (number);
}
