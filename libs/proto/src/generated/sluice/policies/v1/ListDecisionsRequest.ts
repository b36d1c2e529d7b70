// Original file: proto/sluice/policies/v1/policies.proto


export interface ListDecisionsRequest {
  /**
   * rate_limiter, sampler or load_scheduler.
   */
  'type'?: (string);
}

export interface ListDecisionsRequest__Output {
  /**
   * rate_limiter, sampler or load_scheduler.
   */
  'type': (string);
}
