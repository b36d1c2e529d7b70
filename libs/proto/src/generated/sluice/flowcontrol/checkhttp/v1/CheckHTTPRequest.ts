// Original file: proto/sluice/flowcontrol/checkhttp/v1/checkhttp.proto

import type { SocketAddress as _sluice_flowcontrol_checkhttp_v1_SocketAddress, SocketAddress__Output as _sluice_flowcontrol_checkhttp_v1_SocketAddress__Output } from '../../../../sluice/flowcontrol/checkhttp/v1/SocketAddress.js';
import type { HttpRequest as _sluice_flowcontrol_checkhttp_v1_HttpRequest, HttpRequest__Output as _sluice_flowcontrol_checkhttp_v1_HttpRequest__Output } from '../../../../sluice/flowcontrol/checkhttp/v1/HttpRequest.js';

export interface CheckHTTPRequest {
  'source'?: (_sluice_flowcontrol_checkhttp_v1_SocketAddress | null);
  'destination'?: (_sluice_flowcontrol_checkhttp_v1_SocketAddress | null);
  'control_point'?: (string);
  'request'?: (_sluice_flowcontrol_checkhttp_v1_HttpRequest | null);
  'ramp_mode'?: (boolean);
}

export interface CheckHTTPRequest__Output {
  'source': (_sluice_flowcontrol_checkhttp_v1_SocketAddress__Output | null);
  'destination': (_sluice_flowcontrol_checkhttp_v1_SocketAddress__Output | null);
  'control_point': (string);
  'request': (_sluice_flowcontrol_checkhttp_v1_HttpRequest__Output | null);
  'ramp_mode': (boolean);
}
