// Original file: proto/aperture/flowcontrol/check/v1/check.proto

import type { InflightRequestRef as _aperture_flowcontrol_check_v1_InflightRequestRef, InflightRequestRef__Output as _aperture_flowcontrol_check_v1_InflightRequestRef__Output } from '../../../../aperture/flowcontrol/check/v1/InflightRequestRef.js';
import type { Duration as _google_protobuf_Duration, Duration__Output as _google_protobuf_Duration__Output } from '../../../../google/protobuf/Duration.js';

export interface FlowEndRequest {
  'control_point'?: (string);
  'flow_id'?: (string);
  'labels'?: ({[key: string]: string});
  'inflight_requests'?: (_aperture_flowcontrol_check_v1_InflightRequestRef)[];
  'duration'?: (_google_protobuf_Duration | null);
  'status_code'?: (number);
}

export interface FlowEndRequest__Output {
  'control_point': (string);
  'flow_id': (string);
  'labels': ({[key: string]: string});
  'inflight_requests': (_aperture_flowcontrol_check_v1_InflightRequestRef__Output)[];
  'duration': (_google_protobuf_Duration__Output | null);
  'status_code': (number);
}
