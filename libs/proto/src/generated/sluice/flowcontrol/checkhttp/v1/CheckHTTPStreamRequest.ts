// Original file: proto/sluice/flowcontrol/checkhttp/v1/checkhttp.proto

import type { CheckHTTPRequest as _sluice_flowcontrol_checkhttp_v1_CheckHTTPRequest, CheckHTTPRequest__Output as _sluice_flowcontrol_checkhttp_v1_CheckHTTPRequest__Output } from '../../../../sluice/flowcontrol/checkhttp/v1/CheckHTTPRequest.js';
import type { Long } from '@grpc/proto-loader';

export interface CheckHTTPStreamRequest {
  /**
   * Chosen by the caller, unique among its requests in flight on the stream.
   */
  'id'?: (number | string | Long);
  'request'?: (_sluice_flowcontrol_checkhttp_v1_CheckHTTPRequest | null);
}

export interface CheckHTTPStreamRequest__Output {
  /**
   * Chosen by the caller, unique among its requests in flight on the stream.
   */
  'id': (number);
  'request': (_sluice_flowcontrol_checkhttp_v1_CheckHTTPRequest__Output | null);
}
