// Original file: proto/sluice/cloudext/v1/heartbeat.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { ReportRequest as _sluice_cloudext_v1_ReportRequest, ReportRequest__Output as _sluice_cloudext_v1_ReportRequest__Output } from '../../../sluice/cloudext/v1/ReportRequest.js';
import type { ReportResponse as _sluice_cloudext_v1_ReportResponse, ReportResponse__Output as _sluice_cloudext_v1_ReportResponse__Output } from '../../../sluice/cloudext/v1/ReportResponse.js';

export interface CloudExtensionServiceClient extends grpc.Client {
  Report(argument: _sluice_cloudext_v1_ReportRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sluice_cloudext_v1_ReportResponse__Output>): grpc.ClientUnaryCall;
  Report(argument: _sluice_cloudext_v1_ReportRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sluice_cloudext_v1_ReportResponse__Output>): grpc.ClientUnaryCall;
  Report(argument: _sluice_cloudext_v1_ReportRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sluice_cloudext_v1_ReportResponse__Output>): grpc.ClientUnaryCall;
  Report(argument: _sluice_cloudext_v1_ReportRequest, callback: grpc.requestCallback<_sluice_cloudext_v1_ReportResponse__Output>): grpc.ClientUnaryCall;
  report(argument: _sluice_cloudext_v1_ReportRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sluice_cloudext_v1_ReportResponse__Output>): grpc.ClientUnaryCall;
  report(argument: _sluice_cloudext_v1_ReportRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sluice_cloudext_v1_ReportResponse__Output>): grpc.ClientUnaryCall;
  report(argument: _sluice_cloudext_v1_ReportRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sluice_cloudext_v1_ReportResponse__Output>): grpc.ClientUnaryCall;
  report(argument: _sluice_cloudext_v1_ReportRequest, callback: grpc.requestCallback<_sluice_cloudext_v1_ReportResponse__Output>): grpc.ClientUnaryCall;
  
}

export interface CloudExtensionServiceHandlers extends grpc.UntypedServiceImplementation {
  Report: grpc.handleUnaryCall<_sluice_cloudext_v1_ReportRequest__Output, _sluice_cloudext_v1_ReportResponse>;
  
}

export interface CloudExtensionServiceDefinition extends grpc.ServiceDefinition {
  Report: MethodDefinition<_sluice_cloudext_v1_ReportRequest, _sluice_cloudext_v1_ReportResponse, _sluice_cloudext_v1_ReportRequest__Output, _sluice_cloudext_v1_ReportResponse__Output>
}
