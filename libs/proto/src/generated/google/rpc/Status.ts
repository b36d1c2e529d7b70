// Original file: proto/google/rpc/status.proto

import type { Any as _google_protobuf_Any, Any__Output as _google_protobuf_Any__Output } from '../../google/protobuf/Any.js';

export interface Status {
  /**
   * A google.rpc.Code: 0 OK, 14 UNAVAILABLE, ...
   */
  'code'?: (number);
  'message'?: (string);
  'details'?: (_google_protobuf_Any)[];
}

export interface Status__Output {
  /**
   * A google.rpc.Code: 0 OK, 14 UNAVAILABLE, ...
   */
  'code': (number);
  'message': (string);
  'details': (_google_protobuf_Any__Output)[];
}
