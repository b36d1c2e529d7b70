// Original file: proto/sluice/flowcontrol/checkhttp/v1/checkhttp.proto

import type { CheckHTTPResponse as _sluice_flowcontrol_checkhttp_v1_CheckHTTPResponse, CheckHTTPResponse__Output as _sluice_flowcontrol_checkhttp_v1_CheckHTTPResponse__Output } from '../../../../sluice/flowcontrol/checkhttp/v1/CheckHTTPResponse.js';
import type { Long } from '@grpc/proto-loader';

export interface CheckHTTPStreamResponse {
  'id'?: (number | string | Long);
  /**
   * Unset when code is not 0.
   */
  'response'?: (_sluice_flowcontrol_checkhttp_v1_CheckHTTPResponse | null);
  /**
   * A google.rpc.Code: 0 (OK) when response is set, else why there is no
   * answer (INVALID_ARGUMENT, RESOURCE_EXHAUSTED, INTERNAL).
   */
  'code'?: (number);
  'message'?: (string);
}

export interface CheckHTTPStreamResponse__Output {
  'id': (number);
  /**
   * Unset when code is not 0.
   */
  'response': (_sluice_flowcontrol_checkhttp_v1_CheckHTTPResponse__Output | null);
  /**
   * A google.rpc.Code: 0 (OK) when response is set, else why there is no
   * answer (INVALID_ARGUMENT, RESOURCE_EXHAUSTED, INTERNAL).
   */
  'code': (number);
  'message': (string);
}
