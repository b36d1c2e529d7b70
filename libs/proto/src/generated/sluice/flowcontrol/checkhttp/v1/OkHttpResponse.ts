// Original file: proto/sluice/flowcontrol/checkhttp/v1/checkhttp.proto

import type { HeaderValue as _sluice_flowcontrol_checkhttp_v1_HeaderValue, HeaderValue__Output as _sluice_flowcontrol_checkhttp_v1_HeaderValue__Output } from '../../../../sluice/flowcontrol/checkhttp/v1/HeaderValue.js';

export interface OkHttpResponse {
  /**
   * Headers to add to the request before it goes to the workload (baggage, for one).
   */
  'headers'?: (_sluice_flowcontrol_checkhttp_v1_HeaderValue)[];
}

export interface OkHttpResponse__Output {
  /**
   * Headers to add to the request before it goes to the workload (baggage, for one).
   */
  'headers': (_sluice_flowcontrol_checkhttp_v1_HeaderValue__Output)[];
}
