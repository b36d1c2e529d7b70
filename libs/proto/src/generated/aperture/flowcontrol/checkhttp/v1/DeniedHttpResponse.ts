// Original file: proto/aperture/flowcontrol/checkhttp/v1/checkhttp.proto


export interface DeniedHttpResponse {
  /**
   * 403 (sampler), 429 (rate limiter), 503 (scheduler), 400 (a malformed request target).
   */
  'status'?: (number);
  'headers'?: ({[key: string]: string});
  'body'?: (string);
}

export interface DeniedHttpResponse__Output {
  /**
   * 403 (sampler), 429 (rate limiter), 503 (scheduler), 400 (a malformed request target).
   */
  'status': (number);
  'headers': ({[key: string]: string});
  'body': (string);
}
