// Original file: proto/opentelemetry/proto/common/v1/common.proto

import type { KeyValue as _opentelemetry_proto_common_v1_KeyValue, KeyValue__Output as _opentelemetry_proto_common_v1_KeyValue__Output } from '../../../../opentelemetry/proto/common/v1/KeyValue.js';

/**
 * InstrumentationScope is a message representing the instrumentation scope information
 * such as the fully qualified name and version.
 */
export interface InstrumentationScope {
  /**
   * A name denoting the Instrumentation scope.
   * An empty instrumentation scope name means the name is unknown.
   */
  'name'?: (string);
  /**
   * Defines the version of the instrumentation scope.
   * An empty instrumentation scope version means the version is unknown.
   */
  'version'?: (string);
  /**
   * Additional attributes that describe the scope. [Optional].
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
}

/**
 * InstrumentationScope is a message representing the instrumentation scope information
 * such as the fully qualified name and version.
 */
export interface InstrumentationScope__Output {
  /**
   * A name denoting the Instrumentation scope.
   * An empty instrumentation scope name means the name is unknown.
   */
  'name': (string);
  /**
   * Defines the version of the instrumentation scope.
   * An empty instrumentation scope version means the version is unknown.
   */
  'version': (string);
  /**
   * Additional attributes that describe the scope. [Optional].
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
}
