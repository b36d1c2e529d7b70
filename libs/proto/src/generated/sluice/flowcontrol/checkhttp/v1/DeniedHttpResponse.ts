// Original file: proto/sluice/flowcontrol/checkhttp/v1/checkhttp.proto

import type { HeaderValue as _sluice_flowcontrol_checkhttp_v1_HeaderValue, HeaderValue__Output as _sluice_flowcontrol_checkhttp_v1_HeaderValue__Output } from '../../../../sluice/flowcontrol/checkhttp/v1/HeaderValue.js';

export interface DeniedHttpResponse {
  /**
   * 403 (sampler), 429 (rate limiter), 503 (scheduler).
   */
  'status'?: (number);
  'headers'?: (_sluice_flowcontrol_checkhttp_v1_HeaderValue)[];
  'body'?: (string);
}

export interface DeniedHttpResponse__Output {
  /**
   * 403 (sampler), 429 (rate limiter), 503 (scheduler).
   */
  'status': (number);
  'headers': (_sluice_flowcontrol_checkhttp_v1_HeaderValue__Output)[];
  'body': (string);
}
