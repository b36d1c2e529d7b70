// Original file: proto/aperture/flowcontrol/check/v1/check.proto

import type { CacheOperationStatus as _aperture_flowcontrol_check_v1_CacheOperationStatus, CacheOperationStatus__Output as _aperture_flowcontrol_check_v1_CacheOperationStatus__Output } from '../../../../aperture/flowcontrol/check/v1/CacheOperationStatus.js';

export interface KeyUpsertResponse {
  'operation_status'?: (_aperture_flowcontrol_check_v1_CacheOperationStatus);
  'error'?: (string);
}

export interface KeyUpsertResponse__Output {
  'operation_status': (_aperture_flowcontrol_check_v1_CacheOperationStatus__Output);
  'error': (string);
}
