// Original file: proto/aperture/flowcontrol/check/v1/check.proto

import type { CacheEntry as _aperture_flowcontrol_check_v1_CacheEntry, CacheEntry__Output as _aperture_flowcontrol_check_v1_CacheEntry__Output } from '../../../../aperture/flowcontrol/check/v1/CacheEntry.js';

export interface CacheUpsertRequest {
  'control_point'?: (string);
  'result_cache_entry'?: (_aperture_flowcontrol_check_v1_CacheEntry | null);
  'global_cache_entries'?: ({[key: string]: _aperture_flowcontrol_check_v1_CacheEntry});
}

export interface CacheUpsertRequest__Output {
  'control_point': (string);
  'result_cache_entry': (_aperture_flowcontrol_check_v1_CacheEntry__Output | null);
  'global_cache_entries': ({[key: string]: _aperture_flowcontrol_check_v1_CacheEntry__Output});
}
