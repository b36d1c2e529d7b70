// Original file: proto/opentelemetry/proto/resource/v1/resource.proto

import type { KeyValue as _opentelemetry_proto_common_v1_KeyValue, KeyValue__Output as _opentelemetry_proto_common_v1_KeyValue__Output } from '../../../../opentelemetry/proto/common/v1/KeyValue.js';
import type { EntityRef as _opentelemetry_proto_common_v1_EntityRef, EntityRef__Output as _opentelemetry_proto_common_v1_EntityRef__Output } from '../../../../opentelemetry/proto/common/v1/EntityRef.js';

/**
 * Resource information.
 */
export interface Resource {
  /**
   * Set of attributes that describe the resource.
   * Attribute keys MUST be unique (it is not allowed to have more than one
   * attribute with the same key).
   * The behavior of software that receives duplicated keys can be unpredictable.
   */
  'attributes'?: (_opentelemetry_proto_common_v1_KeyValue)[];
  /**
   * The number of dropped attributes. If the value is 0, then
   * no attributes were dropped.
   */
  'dropped_attributes_count'?: (number);
  /**
   * Set of entities that participate in this Resource.
   * 
   * Note: keys in the references MUST exist in attributes of this message.
   * 
   * Status: [Development]
   */
  'entity_refs'?: (_opentelemetry_proto_common_v1_EntityRef)[];
}

/**
 * Resource information.
 */
export interface Resource__Output {
  /**
   * Set of attributes that describe the resource.
   * Attribute keys MUST be unique (it is not allowed to have more than one
   * attribute with the same key).
   * The behavior of software that receives duplicated keys can be unpredictable.
   */
  'attributes': (_opentelemetry_proto_common_v1_KeyValue__Output)[];
  /**
   * The number of dropped attributes. If the value is 0, then
   * no attributes were dropped.
   */
  'dropped_attributes_count': (number);
  /**
   * Set of entities that participate in this Resource.
   * 
   * Note: keys in the references MUST exist in attributes of this message.
   * 
   * Status: [Development]
   */
  'entity_refs': (_opentelemetry_proto_common_v1_EntityRef__Output)[];
}
