// Original file: proto/sluice/flowcontrol/controlpoints/v1/controlpoints.proto

import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from '../../../../google/protobuf/Timestamp.js';
import type { Long } from '@grpc/proto-loader';

export interface ControlPoint {
  'control_point'?: (string);
  'service'?: (string);
  'type'?: (string);
  'last_seen'?: (_google_protobuf_Timestamp | null);
  'flows'?: (number | string | Long);
}

export interface ControlPoint__Output {
  'control_point': (string);
  'service': (string);
  'type': (string);
  'last_seen': (_google_protobuf_Timestamp__Output | null);
  'flows': (number);
}
