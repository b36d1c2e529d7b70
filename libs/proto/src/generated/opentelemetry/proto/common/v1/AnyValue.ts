// Original file: proto/opentelemetry/proto/common/v1/common.proto

import type { ArrayValue as _opentelemetry_proto_common_v1_ArrayValue, ArrayValue__Output as _opentelemetry_proto_common_v1_ArrayValue__Output } from '../../../../opentelemetry/proto/common/v1/ArrayValue.js';
import type { KeyValueList as _opentelemetry_proto_common_v1_KeyValueList, KeyValueList__Output as _opentelemetry_proto_common_v1_KeyValueList__Output } from '../../../../opentelemetry/proto/common/v1/KeyValueList.js';
import type { Long } from '@grpc/proto-loader';

/**
 * Represents any type of attribute value. AnyValue may contain a
 * primitive value such as a string or integer or it may contain an arbitrary nested
 * object containing arrays, key-value lists and primitives.
 */
export interface AnyValue {
  'string_value'?: (string);
  'bool_value'?: (boolean);
  'int_value'?: (number | string | Long);
  'double_value'?: (number | string);
  'array_value'?: (_opentelemetry_proto_common_v1_ArrayValue | null);
  'kvlist_value'?: (_opentelemetry_proto_common_v1_KeyValueList | null);
  'bytes_value'?: (Buffer | Uint8Array | string);
  /**
   * Reference to the string value in ProfilesDictionary.string_table.
   * 
   * Note: This is currently used exclusively in the Profiling signal.
   * Implementers of OTLP receivers for signals other than Profiling should
   * treat the presence of this value as a non-fatal issue.
   * Log an error or warning indicating an unexpected field intended for the
   * Profiling signal and process the data as if this value were absent or
   * empty, ignoring its semantic content for the non-Profiling signal.
   * 
   * Status: [Alpha]
   */
  'string_value_strindex'?: (number);
  /**
   * The value is one of the listed fields. It is valid for all values to be unspecified
   * in which case this AnyValue is considered to be "empty".
   */
  'value'?: "string_value"|"bool_value"|"int_value"|"double_value"|"array_value"|"kvlist_value"|"bytes_value"|"string_value_strindex";
}

/**
 * Represents any type of attribute value. AnyValue may contain a
 * primitive value such as a string or integer or it may contain an arbitrary nested
 * object containing arrays, key-value lists and primitives.
 */
export interface AnyValue__Output {
  'string_value'?: (string);
  'bool_value'?: (boolean);
  'int_value'?: (number);
  'double_value'?: (number);
  'array_value'?: (_opentelemetry_proto_common_v1_ArrayValue__Output | null);
  'kvlist_value'?: (_opentelemetry_proto_common_v1_KeyValueList__Output | null);
  'bytes_value'?: (string);
  /**
   * Reference to the string value in ProfilesDictionary.string_table.
   * 
   * Note: This is currently used exclusively in the Profiling signal.
   * Implementers of OTLP receivers for signals other than Profiling should
   * treat the presence of this value as a non-fatal issue.
   * Log an error or warning indicating an unexpected field intended for the
   * Profiling signal and process the data as if this value were absent or
   * empty, ignoring its semantic content for the non-Profiling signal.
   * 
   * Status: [Alpha]
   */
  'string_value_strindex'?: (number);
  /**
   * The value is one of the listed fields. It is valid for all values to be unspecified
   * in which case this AnyValue is considered to be "empty".
   */
  'value'?: "string_value"|"bool_value"|"int_value"|"double_value"|"array_value"|"kvlist_value"|"bytes_value"|"string_value_strindex";
}
