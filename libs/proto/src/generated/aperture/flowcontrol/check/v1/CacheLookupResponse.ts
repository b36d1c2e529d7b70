// Original file: proto/aperture/flowcontrol/check/v1/check.proto

import type { KeyLookupResponse as _aperture_flowcontrol_check_v1_KeyLookupResponse, KeyLookupResponse__Output as _aperture_flowcontrol_check_v1_KeyLookupResponse__Output } from '../../../../aperture/flowcontrol/check/v1/KeyLookupResponse.js';

export interface CacheLookupResponse {
  'result_cache_response'?: (_aperture_flowcontrol_check_v1_KeyLookupResponse | null);
  'global_cache_responses'?: ({[key: string]: _aperture_flowcontrol_check_v1_KeyLookupResponse});
}

export interface CacheLookupResponse__Output {
  'result_cache_response': (_aperture_flowcontrol_check_v1_KeyLookupResponse__Output | null);
  'global_cache_responses': ({[key: string]: _aperture_flowcontrol_check_v1_KeyLookupResponse__Output});
}
