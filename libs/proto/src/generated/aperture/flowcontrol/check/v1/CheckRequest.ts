// Original file: proto/aperture/flowcontrol/check/v1/check.proto

import type { CacheLookupRequest as _aperture_flowcontrol_check_v1_CacheLookupRequest, CacheLookupRequest__Output as _aperture_flowcontrol_check_v1_CacheLookupRequest__Output } from '../../../../aperture/flowcontrol/check/v1/CacheLookupRequest.js';

export interface CheckRequest {
  'control_point'?: (string);
  'labels'?: ({[key: string]: string});
  'ramp_mode'?: (boolean);
  'cache_lookup_request'?: (_aperture_flowcontrol_check_v1_CacheLookupRequest | null);
  'expect_end'?: (boolean);
}

export interface CheckRequest__Output {
  'control_point': (string);
  'labels': ({[key: string]: string});
  'ramp_mode': (boolean);
  'cache_lookup_request': (_aperture_flowcontrol_check_v1_CacheLookupRequest__Output | null);
  'expect_end': (boolean);
}
