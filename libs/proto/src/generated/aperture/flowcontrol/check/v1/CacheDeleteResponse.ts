// Original file: proto/aperture/flowcontrol/check/v1/check.proto

import type { KeyDeleteResponse as _aperture_flowcontrol_check_v1_KeyDeleteResponse, KeyDeleteResponse__Output as _aperture_flowcontrol_check_v1_KeyDeleteResponse__Output } from '../../../../aperture/flowcontrol/check/v1/KeyDeleteResponse.js';

export interface CacheDeleteResponse {
  'result_cache_response'?: (_aperture_flowcontrol_check_v1_KeyDeleteResponse | null);
  'global_cache_responses'?: ({[key: string]: _aperture_flowcontrol_check_v1_KeyDeleteResponse});
}

export interface CacheDeleteResponse__Output {
  'result_cache_response': (_aperture_flowcontrol_check_v1_KeyDeleteResponse__Output | null);
  'global_cache_responses': ({[key: string]: _aperture_flowcontrol_check_v1_KeyDeleteResponse__Output});
}
