// Original file: proto/aperture/flowcontrol/check/v1/check.proto

import type { StatusCode as _aperture_flowcontrol_check_v1_StatusCode, StatusCode__Output as _aperture_flowcontrol_check_v1_StatusCode__Output } from '../../../../aperture/flowcontrol/check/v1/StatusCode.js';
import type { Duration as _google_protobuf_Duration, Duration__Output as _google_protobuf_Duration__Output } from '../../../../google/protobuf/Duration.js';

// Original file: proto/aperture/flowcontrol/check/v1/check.proto

export const _aperture_flowcontrol_check_v1_LimiterDecision_LimiterReason = {
  LIMITER_REASON_UNSPECIFIED: 'LIMITER_REASON_UNSPECIFIED',
  LIMITER_REASON_KEY_NOT_FOUND: 'LIMITER_REASON_KEY_NOT_FOUND',
} as const;

export type _aperture_flowcontrol_check_v1_LimiterDecision_LimiterReason =
  | 'LIMITER_REASON_UNSPECIFIED'
  | 0
  | 'LIMITER_REASON_KEY_NOT_FOUND'
  | 1

export type _aperture_flowcontrol_check_v1_LimiterDecision_LimiterReason__Output = typeof _aperture_flowcontrol_check_v1_LimiterDecision_LimiterReason[keyof typeof _aperture_flowcontrol_check_v1_LimiterDecision_LimiterReason]

export interface _aperture_flowcontrol_check_v1_LimiterDecision_QuotaSchedulerInfo {
  'label'?: (string);
  'workload_index'?: (string);
  'tokens_info'?: (_aperture_flowcontrol_check_v1_LimiterDecision_TokensInfo | null);
  'priority'?: (number | string);
}

export interface _aperture_flowcontrol_check_v1_LimiterDecision_QuotaSchedulerInfo__Output {
  'label': (string);
  'workload_index': (string);
  'tokens_info': (_aperture_flowcontrol_check_v1_LimiterDecision_TokensInfo__Output | null);
  'priority': (number);
}

export interface _aperture_flowcontrol_check_v1_LimiterDecision_RateLimiterInfo {
  'label'?: (string);
  'tokens_info'?: (_aperture_flowcontrol_check_v1_LimiterDecision_TokensInfo | null);
}

export interface _aperture_flowcontrol_check_v1_LimiterDecision_RateLimiterInfo__Output {
  'label': (string);
  'tokens_info': (_aperture_flowcontrol_check_v1_LimiterDecision_TokensInfo__Output | null);
}

export interface _aperture_flowcontrol_check_v1_LimiterDecision_SamplerInfo {
  'label'?: (string);
}

export interface _aperture_flowcontrol_check_v1_LimiterDecision_SamplerInfo__Output {
  'label': (string);
}

export interface _aperture_flowcontrol_check_v1_LimiterDecision_SchedulerInfo {
  'workload_index'?: (string);
  'tokens_info'?: (_aperture_flowcontrol_check_v1_LimiterDecision_TokensInfo | null);
  'priority'?: (number | string);
}

export interface _aperture_flowcontrol_check_v1_LimiterDecision_SchedulerInfo__Output {
  'workload_index': (string);
  'tokens_info': (_aperture_flowcontrol_check_v1_LimiterDecision_TokensInfo__Output | null);
  'priority': (number);
}

export interface _aperture_flowcontrol_check_v1_LimiterDecision_TokensInfo {
  'remaining'?: (number | string);
  'current'?: (number | string);
  'consumed'?: (number | string);
}

export interface _aperture_flowcontrol_check_v1_LimiterDecision_TokensInfo__Output {
  'remaining': (number);
  'current': (number);
  'consumed': (number);
}

export interface LimiterDecision {
  'policy_name'?: (string);
  'policy_hash'?: (string);
  'component_id'?: (string);
  'dropped'?: (boolean);
  'reason'?: (_aperture_flowcontrol_check_v1_LimiterDecision_LimiterReason);
  'denied_response_status_code'?: (_aperture_flowcontrol_check_v1_StatusCode);
  'wait_time'?: (_google_protobuf_Duration | null);
  'rate_limiter_info'?: (_aperture_flowcontrol_check_v1_LimiterDecision_RateLimiterInfo | null);
  'load_scheduler_info'?: (_aperture_flowcontrol_check_v1_LimiterDecision_SchedulerInfo | null);
  'sampler_info'?: (_aperture_flowcontrol_check_v1_LimiterDecision_SamplerInfo | null);
  'quota_scheduler_info'?: (_aperture_flowcontrol_check_v1_LimiterDecision_QuotaSchedulerInfo | null);
  'details'?: "rate_limiter_info"|"load_scheduler_info"|"sampler_info"|"quota_scheduler_info";
}

export interface LimiterDecision__Output {
  'policy_name': (string);
  'policy_hash': (string);
  'component_id': (string);
  'dropped': (boolean);
  'reason': (_aperture_flowcontrol_check_v1_LimiterDecision_LimiterReason__Output);
  'denied_response_status_code': (_aperture_flowcontrol_check_v1_StatusCode__Output);
  'wait_time': (_google_protobuf_Duration__Output | null);
  'rate_limiter_info'?: (_aperture_flowcontrol_check_v1_LimiterDecision_RateLimiterInfo__Output | null);
  'load_scheduler_info'?: (_aperture_flowcontrol_check_v1_LimiterDecision_SchedulerInfo__Output | null);
  'sampler_info'?: (_aperture_flowcontrol_check_v1_LimiterDecision_SamplerInfo__Output | null);
  'quota_scheduler_info'?: (_aperture_flowcontrol_check_v1_LimiterDecision_QuotaSchedulerInfo__Output | null);
  'details'?: "rate_limiter_info"|"load_scheduler_info"|"sampler_info"|"quota_scheduler_info";
}
