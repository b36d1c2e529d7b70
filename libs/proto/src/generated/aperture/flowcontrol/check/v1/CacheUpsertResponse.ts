// Original file: proto/aperture/flowcontrol/check/v1/check.proto

import type { KeyUpsertResponse as _aperture_flowcontrol_check_v1_KeyUpsertResponse, KeyUpsertResponse__Output as _aperture_flowcontrol_check_v1_KeyUpsertResponse__Output } from '../../../../aperture/flowcontrol/check/v1/KeyUpsertResponse.js';

export interface CacheUpsertResponse {
  'result_cache_response'?: (_aperture_flowcontrol_check_v1_KeyUpsertResponse | null);
  'global_cache_responses'?: ({[key: string]: _aperture_flowcontrol_check_v1_KeyUpsertResponse});
}

export interface CacheUpsertResponse__Output {
  'result_cache_response': (_aperture_flowcontrol_check_v1_KeyUpsertResponse__Output | null);
  'global_cache_responses': ({[key: string]: _aperture_flowcontrol_check_v1_KeyUpsertResponse__Output});
}
