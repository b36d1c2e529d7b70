// Original file: proto/sluice/policies/v1/policies.proto

import type { Struct as _google_protobuf_Struct, Struct__Output as _google_protobuf_Struct__Output } from '../../../google/protobuf/Struct.js';

export interface DynamicConfigRequest {
  /**
   * The policy's name.
   */
  'name'?: (string);
  'dynamic_config'?: (_google_protobuf_Struct | null);
}

export interface DynamicConfigRequest__Output {
  /**
   * The policy's name.
   */
  'name': (string);
  'dynamic_config': (_google_protobuf_Struct__Output | null);
}
