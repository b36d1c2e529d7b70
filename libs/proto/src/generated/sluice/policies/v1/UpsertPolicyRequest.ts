// Original file: proto/sluice/policies/v1/policies.proto

import type { Struct as _google_protobuf_Struct, Struct__Output as _google_protobuf_Struct__Output } from '../../../google/protobuf/Struct.js';

export interface UpsertPolicyRequest {
  /**
   * A DNS-1123 subdomain: lower-case letters, digits, '-' and '.', at most 253 characters.
   */
  'name'?: (string);
  /**
   * What a Policy custom resource's `spec` holds (for PatchPolicy: the merge patch).
   */
  'policy'?: (_google_protobuf_Struct | null);
}

export interface UpsertPolicyRequest__Output {
  /**
   * A DNS-1123 subdomain: lower-case letters, digits, '-' and '.', at most 253 characters.
   */
  'name': (string);
  /**
   * What a Policy custom resource's `spec` holds (for PatchPolicy: the merge patch).
   */
  'policy': (_google_protobuf_Struct__Output | null);
}
