// Original file: proto/aperture/flowcontrol/checkhttp/v1/checkhttp.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { CheckHTTPRequest as _aperture_flowcontrol_checkhttp_v1_CheckHTTPRequest, CheckHTTPRequest__Output as _aperture_flowcontrol_checkhttp_v1_CheckHTTPRequest__Output } from '../../../../aperture/flowcontrol/checkhttp/v1/CheckHTTPRequest.js';
import type { CheckHTTPResponse as _aperture_flowcontrol_checkhttp_v1_CheckHTTPResponse, CheckHTTPResponse__Output as _aperture_flowcontrol_checkhttp_v1_CheckHTTPResponse__Output } from '../../../../aperture/flowcontrol/checkhttp/v1/CheckHTTPResponse.js';

export interface FlowControlServiceHTTPClient extends grpc.Client {
  CheckHTTP(argument: _aperture_flowcontrol_checkhttp_v1_CheckHTTPRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_aperture_flowcontrol_checkhttp_v1_CheckHTTPResponse__Output>): grpc.ClientUnaryCall;
  CheckHTTP(argument: _aperture_flowcontrol_checkhttp_v1_CheckHTTPRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_aperture_flowcontrol_checkhttp_v1_CheckHTTPResponse__Output>): grpc.ClientUnaryCall;
  CheckHTTP(argument: _aperture_flowcontrol_checkhttp_v1_CheckHTTPRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_aperture_flowcontrol_checkhttp_v1_CheckHTTPResponse__Output>): grpc.ClientUnaryCall;
  CheckHTTP(argument: _aperture_flowcontrol_checkhttp_v1_CheckHTTPRequest, callback: grpc.requestCallback<_aperture_flowcontrol_checkhttp_v1_CheckHTTPResponse__Output>): grpc.ClientUnaryCall;
  checkHttp(argument: _aperture_flowcontrol_checkhttp_v1_CheckHTTPRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_aperture_flowcontrol_checkhttp_v1_CheckHTTPResponse__Output>): grpc.ClientUnaryCall;
  checkHttp(argument: _aperture_flowcontrol_checkhttp_v1_CheckHTTPRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_aperture_flowcontrol_checkhttp_v1_CheckHTTPResponse__Output>): grpc.ClientUnaryCall;
  checkHttp(argument: _aperture_flowcontrol_checkhttp_v1_CheckHTTPRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_aperture_flowcontrol_checkhttp_v1_CheckHTTPResponse__Output>): grpc.ClientUnaryCall;
  checkHttp(argument: _aperture_flowcontrol_checkhttp_v1_CheckHTTPRequest, callback: grpc.requestCallback<_aperture_flowcontrol_checkhttp_v1_CheckHTTPResponse__Output>): grpc.ClientUnaryCall;
  
}

export interface FlowControlServiceHTTPHandlers extends grpc.UntypedServiceImplementation {
  CheckHTTP: grpc.handleUnaryCall<_aperture_flowcontrol_checkhttp_v1_CheckHTTPRequest__Output, _aperture_flowcontrol_checkhttp_v1_CheckHTTPResponse>;
  
}

export interface FlowControlServiceHTTPDefinition extends grpc.ServiceDefinition {
  CheckHTTP: MethodDefinition<_aperture_flowcontrol_checkhttp_v1_CheckHTTPRequest, _aperture_flowcontrol_checkhttp_v1_CheckHTTPResponse, _aperture_flowcontrol_checkhttp_v1_CheckHTTPRequest__Output, _aperture_flowcontrol_checkhttp_v1_CheckHTTPResponse__Output>
}
