// Original file: proto/envoy/service/auth/v3/external_auth.proto

import type { Status as _google_rpc_Status, Status__Output as _google_rpc_Status__Output } from '../../../../google/rpc/Status.js';
import type { DeniedHttpResponse as _envoy_service_auth_v3_DeniedHttpResponse, DeniedHttpResponse__Output as _envoy_service_auth_v3_DeniedHttpResponse__Output } from '../../../../envoy/service/auth/v3/DeniedHttpResponse.js';
import type { OkHttpResponse as _envoy_service_auth_v3_OkHttpResponse, OkHttpResponse__Output as _envoy_service_auth_v3_OkHttpResponse__Output } from '../../../../envoy/service/auth/v3/OkHttpResponse.js';
import type { Struct as _google_protobuf_Struct, Struct__Output as _google_protobuf_Struct__Output } from '../../../../google/protobuf/Struct.js';

export interface CheckResponse {
  /**
   * OK: the request goes on; any other code: denied.
   */
  'status'?: (_google_rpc_Status | null);
  'denied_response'?: (_envoy_service_auth_v3_DeniedHttpResponse | null);
  'ok_response'?: (_envoy_service_auth_v3_OkHttpResponse | null);
  /**
   * Emitted as the ext_authz filter's dynamic metadata (access logs read it).
   */
  'dynamic_metadata'?: (_google_protobuf_Struct | null);
  'error_response'?: (_envoy_service_auth_v3_DeniedHttpResponse | null);
  'http_response'?: "denied_response"|"ok_response"|"error_response";
}

export interface CheckResponse__Output {
  /**
   * OK: the request goes on; any other code: denied.
   */
  'status': (_google_rpc_Status__Output | null);
  'denied_response'?: (_envoy_service_auth_v3_DeniedHttpResponse__Output | null);
  'ok_response'?: (_envoy_service_auth_v3_OkHttpResponse__Output | null);
  /**
   * Emitted as the ext_authz filter's dynamic metadata (access logs read it).
   */
  'dynamic_metadata': (_google_protobuf_Struct__Output | null);
  'error_response'?: (_envoy_service_auth_v3_DeniedHttpResponse__Output | null);
  'http_response'?: "denied_response"|"ok_response"|"error_response";
}
