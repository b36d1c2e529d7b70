// Original file: proto/aperture/flowcontrol/checkhttp/v1/checkhttp.proto

import type { Struct as _google_protobuf_Struct, Struct__Output as _google_protobuf_Struct__Output } from '../../../../google/protobuf/Struct.js';

export interface OkHttpResponse {
  /**
   * Headers to add to the request before it goes on (baggage of labels a classifier added).
   */
  'headers'?: ({[key: string]: string});
  'dynamic_metadata'?: (_google_protobuf_Struct | null);
}

export interface OkHttpResponse__Output {
  /**
   * Headers to add to the request before it goes on (baggage of labels a classifier added).
   */
  'headers': ({[key: string]: string});
  'dynamic_metadata': (_google_protobuf_Struct__Output | null);
}
