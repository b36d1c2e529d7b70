// Original file: proto/sluice/flowcontrol/controlpoints/v1/controlpoints.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { GetControlPointsRequest as _sluice_flowcontrol_controlpoints_v1_GetControlPointsRequest, GetControlPointsRequest__Output as _sluice_flowcontrol_controlpoints_v1_GetControlPointsRequest__Output } from '../../../../sluice/flowcontrol/controlpoints/v1/GetControlPointsRequest.js';
import type { GetControlPointsResponse as _sluice_flowcontrol_controlpoints_v1_GetControlPointsResponse, GetControlPointsResponse__Output as _sluice_flowcontrol_controlpoints_v1_GetControlPointsResponse__Output } from '../../../../sluice/flowcontrol/controlpoints/v1/GetControlPointsResponse.js';

export interface ControlPointsServiceClient extends grpc.Client {
  GetControlPoints(argument: _sluice_flowcontrol_controlpoints_v1_GetControlPointsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sluice_flowcontrol_controlpoints_v1_GetControlPointsResponse__Output>): grpc.ClientUnaryCall;
  GetControlPoints(argument: _sluice_flowcontrol_controlpoints_v1_GetControlPointsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sluice_flowcontrol_controlpoints_v1_GetControlPointsResponse__Output>): grpc.ClientUnaryCall;
  GetControlPoints(argument: _sluice_flowcontrol_controlpoints_v1_GetControlPointsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sluice_flowcontrol_controlpoints_v1_GetControlPointsResponse__Output>): grpc.ClientUnaryCall;
  GetControlPoints(argument: _sluice_flowcontrol_controlpoints_v1_GetControlPointsRequest, callback: grpc.requestCallback<_sluice_flowcontrol_controlpoints_v1_GetControlPointsResponse__Output>): grpc.ClientUnaryCall;
  getControlPoints(argument: _sluice_flowcontrol_controlpoints_v1_GetControlPointsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sluice_flowcontrol_controlpoints_v1_GetControlPointsResponse__Output>): grpc.ClientUnaryCall;
  getControlPoints(argument: _sluice_flowcontrol_controlpoints_v1_GetControlPointsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sluice_flowcontrol_controlpoints_v1_GetControlPointsResponse__Output>): grpc.ClientUnaryCall;
  getControlPoints(argument: _sluice_flowcontrol_controlpoints_v1_GetControlPointsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sluice_flowcontrol_controlpoints_v1_GetControlPointsResponse__Output>): grpc.ClientUnaryCall;
  getControlPoints(argument: _sluice_flowcontrol_controlpoints_v1_GetControlPointsRequest, callback: grpc.requestCallback<_sluice_flowcontrol_controlpoints_v1_GetControlPointsResponse__Output>): grpc.ClientUnaryCall;
  
}

export interface ControlPointsServiceHandlers extends grpc.UntypedServiceImplementation {
  GetControlPoints: grpc.handleUnaryCall<_sluice_flowcontrol_controlpoints_v1_GetControlPointsRequest__Output, _sluice_flowcontrol_controlpoints_v1_GetControlPointsResponse>;
  
}

export interface ControlPointsServiceDefinition extends grpc.ServiceDefinition {
  GetControlPoints: MethodDefinition<_sluice_flowcontrol_controlpoints_v1_GetControlPointsRequest, _sluice_flowcontrol_controlpoints_v1_GetControlPointsResponse, _sluice_flowcontrol_controlpoints_v1_GetControlPointsRequest__Output, _sluice_flowcontrol_controlpoints_v1_GetControlPointsResponse__Output>
}
