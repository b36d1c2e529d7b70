// Original file: proto/sluice/flowcontrol/preview/v1/preview.proto

import type { Struct as _google_protobuf_Struct, Struct__Output as _google_protobuf_Struct__Output } from '../../../../google/protobuf/Struct.js';

export interface PreviewHTTPRequestsResponse {
  'samples'?: (_google_protobuf_Struct)[];
}

export interface PreviewHTTPRequestsResponse__Output {
  'samples': (_google_protobuf_Struct__Output)[];
}
