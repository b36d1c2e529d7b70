// Original file: proto/aperture/flowcontrol/check/v1/check.proto

import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from '../../../../google/protobuf/Timestamp.js';
import type { ClassifierInfo as _aperture_flowcontrol_check_v1_ClassifierInfo, ClassifierInfo__Output as _aperture_flowcontrol_check_v1_ClassifierInfo__Output } from '../../../../aperture/flowcontrol/check/v1/ClassifierInfo.js';
import type { FluxMeterInfo as _aperture_flowcontrol_check_v1_FluxMeterInfo, FluxMeterInfo__Output as _aperture_flowcontrol_check_v1_FluxMeterInfo__Output } from '../../../../aperture/flowcontrol/check/v1/FluxMeterInfo.js';
import type { LimiterDecision as _aperture_flowcontrol_check_v1_LimiterDecision, LimiterDecision__Output as _aperture_flowcontrol_check_v1_LimiterDecision__Output } from '../../../../aperture/flowcontrol/check/v1/LimiterDecision.js';
import type { Duration as _google_protobuf_Duration, Duration__Output as _google_protobuf_Duration__Output } from '../../../../google/protobuf/Duration.js';
import type { StatusCode as _aperture_flowcontrol_check_v1_StatusCode, StatusCode__Output as _aperture_flowcontrol_check_v1_StatusCode__Output } from '../../../../aperture/flowcontrol/check/v1/StatusCode.js';
import type { CacheLookupResponse as _aperture_flowcontrol_check_v1_CacheLookupResponse, CacheLookupResponse__Output as _aperture_flowcontrol_check_v1_CacheLookupResponse__Output } from '../../../../aperture/flowcontrol/check/v1/CacheLookupResponse.js';

// Original file: proto/aperture/flowcontrol/check/v1/check.proto

export const _aperture_flowcontrol_check_v1_CheckResponse_DecisionType = {
  DECISION_TYPE_ACCEPTED: 'DECISION_TYPE_ACCEPTED',
  DECISION_TYPE_REJECTED: 'DECISION_TYPE_REJECTED',
} as const;

export type _aperture_flowcontrol_check_v1_CheckResponse_DecisionType =
  | 'DECISION_TYPE_ACCEPTED'
  | 0
  | 'DECISION_TYPE_REJECTED'
  | 1

export type _aperture_flowcontrol_check_v1_CheckResponse_DecisionType__Output = typeof _aperture_flowcontrol_check_v1_CheckResponse_DecisionType[keyof typeof _aperture_flowcontrol_check_v1_CheckResponse_DecisionType]

// Original file: proto/aperture/flowcontrol/check/v1/check.proto

export const _aperture_flowcontrol_check_v1_CheckResponse_RejectReason = {
  REJECT_REASON_NONE: 'REJECT_REASON_NONE',
  REJECT_REASON_RATE_LIMITED: 'REJECT_REASON_RATE_LIMITED',
  REJECT_REASON_NO_TOKENS: 'REJECT_REASON_NO_TOKENS',
  /**
   * A sampler rejected the flow. The value the published Aperture SDKs read as a
   * sampler's rejection (REGULATED, NOT_SAMPLED in older SDK protos).
   */
  REJECT_REASON_REGULATED: 'REJECT_REASON_REGULATED',
} as const;

export type _aperture_flowcontrol_check_v1_CheckResponse_RejectReason =
  | 'REJECT_REASON_NONE'
  | 0
  | 'REJECT_REASON_RATE_LIMITED'
  | 1
  | 'REJECT_REASON_NO_TOKENS'
  | 2
  /**
   * A sampler rejected the flow. The value the published Aperture SDKs read as a
   * sampler's rejection (REGULATED, NOT_SAMPLED in older SDK protos).
   */
  | 'REJECT_REASON_REGULATED'
  | 3

export type _aperture_flowcontrol_check_v1_CheckResponse_RejectReason__Output = typeof _aperture_flowcontrol_check_v1_CheckResponse_RejectReason[keyof typeof _aperture_flowcontrol_check_v1_CheckResponse_RejectReason]

export interface CheckResponse {
  'start'?: (_google_protobuf_Timestamp | null);
  'end'?: (_google_protobuf_Timestamp | null);
  'services'?: (string)[];
  'control_point'?: (string);
  'flow_label_keys'?: (string)[];
  'telemetry_flow_labels'?: ({[key: string]: string});
  'decision_type'?: (_aperture_flowcontrol_check_v1_CheckResponse_DecisionType);
  'reject_reason'?: (_aperture_flowcontrol_check_v1_CheckResponse_RejectReason);
  'classifier_infos'?: (_aperture_flowcontrol_check_v1_ClassifierInfo)[];
  'flux_meter_infos'?: (_aperture_flowcontrol_check_v1_FluxMeterInfo)[];
  'limiter_decisions'?: (_aperture_flowcontrol_check_v1_LimiterDecision)[];
  'wait_time'?: (_google_protobuf_Duration | null);
  'denied_response_status_code'?: (_aperture_flowcontrol_check_v1_StatusCode);
  'cache_lookup_response'?: (_aperture_flowcontrol_check_v1_CacheLookupResponse | null);
  'expect_end'?: (boolean);
}

export interface CheckResponse__Output {
  'start': (_google_protobuf_Timestamp__Output | null);
  'end': (_google_protobuf_Timestamp__Output | null);
  'services': (string)[];
  'control_point': (string);
  'flow_label_keys': (string)[];
  'telemetry_flow_labels': ({[key: string]: string});
  'decision_type': (_aperture_flowcontrol_check_v1_CheckResponse_DecisionType__Output);
  'reject_reason': (_aperture_flowcontrol_check_v1_CheckResponse_RejectReason__Output);
  'classifier_infos': (_aperture_flowcontrol_check_v1_ClassifierInfo__Output)[];
  'flux_meter_infos': (_aperture_flowcontrol_check_v1_FluxMeterInfo__Output)[];
  'limiter_decisions': (_aperture_flowcontrol_check_v1_LimiterDecision__Output)[];
  'wait_time': (_google_protobuf_Duration__Output | null);
  'denied_response_status_code': (_aperture_flowcontrol_check_v1_StatusCode__Output);
  'cache_lookup_response': (_aperture_flowcontrol_check_v1_CacheLookupResponse__Output | null);
  'expect_end': (boolean);
}
