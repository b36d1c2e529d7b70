// Original file: proto/opentelemetry/proto/common/v1/common.proto

import type { AnyValue as _opentelemetry_proto_common_v1_AnyValue, AnyValue__Output as _opentelemetry_proto_common_v1_AnyValue__Output } from '../../../../opentelemetry/proto/common/v1/AnyValue.js';

/**
 * ArrayValue is a list of AnyValue messages. We need ArrayValue as a message
 * since oneof in AnyValue does not allow repeated fields.
 */
export interface ArrayValue {
  /**
   * Array of values. The array may be empty (contain 0 elements).
   */
  'values'?: (_opentelemetry_proto_common_v1_AnyValue)[];
}

/**
 * ArrayValue is a list of AnyValue messages. We need ArrayValue as a message
 * since oneof in AnyValue does not allow repeated fields.
 */
export interface ArrayValue__Output {
  /**
   * Array of values. The array may be empty (contain 0 elements).
   */
  'values': (_opentelemetry_proto_common_v1_AnyValue__Output)[];
}
