// Original file: proto/opentelemetry/proto/collector/logs/v1/logs_service.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { ExportLogsServiceRequest as _opentelemetry_proto_collector_logs_v1_ExportLogsServiceRequest, ExportLogsServiceRequest__Output as _opentelemetry_proto_collector_logs_v1_ExportLogsServiceRequest__Output } from '../../../../../opentelemetry/proto/collector/logs/v1/ExportLogsServiceRequest.js';
import type { ExportLogsServiceResponse as _opentelemetry_proto_collector_logs_v1_ExportLogsServiceResponse, ExportLogsServiceResponse__Output as _opentelemetry_proto_collector_logs_v1_ExportLogsServiceResponse__Output } from '../../../../../opentelemetry/proto/collector/logs/v1/ExportLogsServiceResponse.js';

/**
 * Service that can be used to push logs between one Application instrumented with
 * OpenTelemetry and an collector, or between an collector and a central collector (in this
 * case logs are sent/received to/from multiple Applications).
 */
export interface LogsServiceClient extends grpc.Client {
  Export(argument: _opentelemetry_proto_collector_logs_v1_ExportLogsServiceRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_opentelemetry_proto_collector_logs_v1_ExportLogsServiceResponse__Output>): grpc.ClientUnaryCall;
  Export(argument: _opentelemetry_proto_collector_logs_v1_ExportLogsServiceRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_opentelemetry_proto_collector_logs_v1_ExportLogsServiceResponse__Output>): grpc.ClientUnaryCall;
  Export(argument: _opentelemetry_proto_collector_logs_v1_ExportLogsServiceRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_opentelemetry_proto_collector_logs_v1_ExportLogsServiceResponse__Output>): grpc.ClientUnaryCall;
  Export(argument: _opentelemetry_proto_collector_logs_v1_ExportLogsServiceRequest, callback: grpc.requestCallback<_opentelemetry_proto_collector_logs_v1_ExportLogsServiceResponse__Output>): grpc.ClientUnaryCall;
  export(argument: _opentelemetry_proto_collector_logs_v1_ExportLogsServiceRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_opentelemetry_proto_collector_logs_v1_ExportLogsServiceResponse__Output>): grpc.ClientUnaryCall;
  export(argument: _opentelemetry_proto_collector_logs_v1_ExportLogsServiceRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_opentelemetry_proto_collector_logs_v1_ExportLogsServiceResponse__Output>): grpc.ClientUnaryCall;
  export(argument: _opentelemetry_proto_collector_logs_v1_ExportLogsServiceRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_opentelemetry_proto_collector_logs_v1_ExportLogsServiceResponse__Output>): grpc.ClientUnaryCall;
  export(argument: _opentelemetry_proto_collector_logs_v1_ExportLogsServiceRequest, callback: grpc.requestCallback<_opentelemetry_proto_collector_logs_v1_ExportLogsServiceResponse__Output>): grpc.ClientUnaryCall;
  
}

/**
 * Service that can be used to push logs between one Application instrumented with
 * OpenTelemetry and an collector, or between an collector and a central collector (in this
 * case logs are sent/received to/from multiple Applications).
 */
export interface LogsServiceHandlers extends grpc.UntypedServiceImplementation {
  Export: grpc.handleUnaryCall<_opentelemetry_proto_collector_logs_v1_ExportLogsServiceRequest__Output, _opentelemetry_proto_collector_logs_v1_ExportLogsServiceResponse>;
  
}

export interface LogsServiceDefinition extends grpc.ServiceDefinition {
  Export: MethodDefinition<_opentelemetry_proto_collector_logs_v1_ExportLogsServiceRequest, _opentelemetry_proto_collector_logs_v1_ExportLogsServiceResponse, _opentelemetry_proto_collector_logs_v1_ExportLogsServiceRequest__Output, _opentelemetry_proto_collector_logs_v1_ExportLogsServiceResponse__Output>
}
