// Original file: proto/aperture/flowcontrol/check/v1/check.proto


export interface CacheDeleteRequest {
  'control_point'?: (string);
  'result_cache_key'?: (string);
  'global_cache_keys'?: (string)[];
}

export interface CacheDeleteRequest__Output {
  'control_point': (string);
  'result_cache_key': (string);
  'global_cache_keys': (string)[];
}
