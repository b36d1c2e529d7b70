// Original file: proto/sluice/policies/v1/policies.proto

import type { Struct as _google_protobuf_Struct, Struct__Output as _google_protobuf_Struct__Output } from '../../../google/protobuf/Struct.js';

export interface DynamicConfigResponse {
  'policy_name'?: (string);
  'dynamic_config'?: (_google_protobuf_Struct | null);
}

export interface DynamicConfigResponse__Output {
  'policy_name': (string);
  'dynamic_config': (_google_protobuf_Struct__Output | null);
}
