// Original file: proto/aperture/flowcontrol/check/v1/check.proto

import type { CacheLookupStatus as _aperture_flowcontrol_check_v1_CacheLookupStatus, CacheLookupStatus__Output as _aperture_flowcontrol_check_v1_CacheLookupStatus__Output } from '../../../../aperture/flowcontrol/check/v1/CacheLookupStatus.js';
import type { CacheOperationStatus as _aperture_flowcontrol_check_v1_CacheOperationStatus, CacheOperationStatus__Output as _aperture_flowcontrol_check_v1_CacheOperationStatus__Output } from '../../../../aperture/flowcontrol/check/v1/CacheOperationStatus.js';

export interface KeyLookupResponse {
  'value'?: (Buffer | Uint8Array | string);
  'lookup_status'?: (_aperture_flowcontrol_check_v1_CacheLookupStatus);
  'operation_status'?: (_aperture_flowcontrol_check_v1_CacheOperationStatus);
  'error'?: (string);
}

export interface KeyLookupResponse__Output {
  'value': (string);
  'lookup_status': (_aperture_flowcontrol_check_v1_CacheLookupStatus__Output);
  'operation_status': (_aperture_flowcontrol_check_v1_CacheOperationStatus__Output);
  'error': (string);
}
