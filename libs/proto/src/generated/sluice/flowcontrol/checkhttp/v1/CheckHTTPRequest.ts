// Original file: proto/sluice/flowcontrol/checkhttp/v1/checkhttp.proto

import type { SocketAddress as _sluice_flowcontrol_checkhttp_v1_SocketAddress, SocketAddress__Output as _sluice_flowcontrol_checkhttp_v1_SocketAddress__Output } from '../../../../sluice/flowcontrol/checkhttp/v1/SocketAddress.js';
import type { HttpRequest as _sluice_flowcontrol_checkhttp_v1_HttpRequest, HttpRequest__Output as _sluice_flowcontrol_checkhttp_v1_HttpRequest__Output } from '../../../../sluice/flowcontrol/checkhttp/v1/HttpRequest.js';
import type { Long } from '@grpc/proto-loader';

export interface CheckHTTPRequest {
  'source'?: (_sluice_flowcontrol_checkhttp_v1_SocketAddress | null);
  'destination'?: (_sluice_flowcontrol_checkhttp_v1_SocketAddress | null);
  'control_point'?: (string);
  'request'?: (_sluice_flowcontrol_checkhttp_v1_HttpRequest | null);
  'ramp_mode'?: (boolean);
  /**
   * The generation of the HeaderInterest the caller filtered request.headers
   * and request.body by; 0 when it sent them all. A request filtered by a
   * generation that is no longer the control point's is not decided: the
   * answer says resend_unfiltered.
   */
  'interest_generation'?: (number | string | Long);
  '_interest_generation'?: "interest_generation";
}

export interface CheckHTTPRequest__Output {
  'source': (_sluice_flowcontrol_checkhttp_v1_SocketAddress__Output | null);
  'destination': (_sluice_flowcontrol_checkhttp_v1_SocketAddress__Output | null);
  'control_point': (string);
  'request': (_sluice_flowcontrol_checkhttp_v1_HttpRequest__Output | null);
  'ramp_mode': (boolean);
  /**
   * The generation of the HeaderInterest the caller filtered request.headers
   * and request.body by; 0 when it sent them all. A request filtered by a
   * generation that is no longer the control point's is not decided: the
   * answer says resend_unfiltered.
   */
  'interest_generation'?: (number);
  '_interest_generation'?: "interest_generation";
}
