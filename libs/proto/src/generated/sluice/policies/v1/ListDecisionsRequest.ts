// Original file: proto/sluice/policies/v1/policies.proto


export interface ListDecisionsRequest {
  /**
   * A published kind that takes decisions: rate_limiter, sampler, load_scheduler, pod_scaler or quota_scheduler.
   */
  'type'?: (string);
}

export interface ListDecisionsRequest__Output {
  /**
   * A published kind that takes decisions: rate_limiter, sampler, load_scheduler, pod_scaler or quota_scheduler.
   */
  'type': (string);
}
