// Original file: proto/sluice/flowcontrol/controlpoints/v1/controlpoints.proto

import type { ControlPoint as _sluice_flowcontrol_controlpoints_v1_ControlPoint, ControlPoint__Output as _sluice_flowcontrol_controlpoints_v1_ControlPoint__Output } from '../../../../sluice/flowcontrol/controlpoints/v1/ControlPoint.js';

export interface GetControlPointsResponse {
  'control_points'?: (_sluice_flowcontrol_controlpoints_v1_ControlPoint)[];
}

export interface GetControlPointsResponse__Output {
  'control_points': (_sluice_flowcontrol_controlpoints_v1_ControlPoint__Output)[];
}
