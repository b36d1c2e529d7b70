// Original file: proto/aperture/flowcontrol/checkhttp/v1/checkhttp.proto

import type { Status as _google_rpc_Status, Status__Output as _google_rpc_Status__Output } from '../../../../google/rpc/Status.js';
import type { DeniedHttpResponse as _aperture_flowcontrol_checkhttp_v1_DeniedHttpResponse, DeniedHttpResponse__Output as _aperture_flowcontrol_checkhttp_v1_DeniedHttpResponse__Output } from '../../../../aperture/flowcontrol/checkhttp/v1/DeniedHttpResponse.js';
import type { OkHttpResponse as _aperture_flowcontrol_checkhttp_v1_OkHttpResponse, OkHttpResponse__Output as _aperture_flowcontrol_checkhttp_v1_OkHttpResponse__Output } from '../../../../aperture/flowcontrol/checkhttp/v1/OkHttpResponse.js';
import type { Struct as _google_protobuf_Struct, Struct__Output as _google_protobuf_Struct__Output } from '../../../../google/protobuf/Struct.js';

export interface CheckHTTPResponse {
  /**
   * Code 0 (OK) admits the request; any other code denies it.
   */
  'status'?: (_google_rpc_Status | null);
  'denied_response'?: (_aperture_flowcontrol_checkhttp_v1_DeniedHttpResponse | null);
  'ok_response'?: (_aperture_flowcontrol_checkhttp_v1_OkHttpResponse | null);
  /**
   * `aperture.check_response`: the base64 of the flow's
   * aperture.flowcontrol.check.v1.CheckResponse protobuf, which a gateway
   * puts on the span it exports when the flow ends.
   */
  'dynamic_metadata'?: (_google_protobuf_Struct | null);
  'http_response'?: "denied_response"|"ok_response";
}

export interface CheckHTTPResponse__Output {
  /**
   * Code 0 (OK) admits the request; any other code denies it.
   */
  'status': (_google_rpc_Status__Output | null);
  'denied_response'?: (_aperture_flowcontrol_checkhttp_v1_DeniedHttpResponse__Output | null);
  'ok_response'?: (_aperture_flowcontrol_checkhttp_v1_OkHttpResponse__Output | null);
  /**
   * `aperture.check_response`: the base64 of the flow's
   * aperture.flowcontrol.check.v1.CheckResponse protobuf, which a gateway
   * puts on the span it exports when the flow ends.
   */
  'dynamic_metadata': (_google_protobuf_Struct__Output | null);
  'http_response'?: "denied_response"|"ok_response";
}
