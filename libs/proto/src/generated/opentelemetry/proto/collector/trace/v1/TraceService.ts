// Original file: proto/opentelemetry/proto/collector/trace/v1/trace_service.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { ExportTraceServiceRequest as _opentelemetry_proto_collector_trace_v1_ExportTraceServiceRequest, ExportTraceServiceRequest__Output as _opentelemetry_proto_collector_trace_v1_ExportTraceServiceRequest__Output } from '../../../../../opentelemetry/proto/collector/trace/v1/ExportTraceServiceRequest.js';
import type { ExportTraceServiceResponse as _opentelemetry_proto_collector_trace_v1_ExportTraceServiceResponse, ExportTraceServiceResponse__Output as _opentelemetry_proto_collector_trace_v1_ExportTraceServiceResponse__Output } from '../../../../../opentelemetry/proto/collector/trace/v1/ExportTraceServiceResponse.js';

/**
 * Service that can be used to push spans between one Application instrumented with
 * OpenTelemetry and a collector, or between a collector and a central collector (in this
 * case spans are sent/received to/from multiple Applications).
 */
export interface TraceServiceClient extends grpc.Client {
  Export(argument: _opentelemetry_proto_collector_trace_v1_ExportTraceServiceRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_opentelemetry_proto_collector_trace_v1_ExportTraceServiceResponse__Output>): grpc.ClientUnaryCall;
  Export(argument: _opentelemetry_proto_collector_trace_v1_ExportTraceServiceRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_opentelemetry_proto_collector_trace_v1_ExportTraceServiceResponse__Output>): grpc.ClientUnaryCall;
  Export(argument: _opentelemetry_proto_collector_trace_v1_ExportTraceServiceRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_opentelemetry_proto_collector_trace_v1_ExportTraceServiceResponse__Output>): grpc.ClientUnaryCall;
  Export(argument: _opentelemetry_proto_collector_trace_v1_ExportTraceServiceRequest, callback: grpc.requestCallback<_opentelemetry_proto_collector_trace_v1_ExportTraceServiceResponse__Output>): grpc.ClientUnaryCall;
  export(argument: _opentelemetry_proto_collector_trace_v1_ExportTraceServiceRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_opentelemetry_proto_collector_trace_v1_ExportTraceServiceResponse__Output>): grpc.ClientUnaryCall;
  export(argument: _opentelemetry_proto_collector_trace_v1_ExportTraceServiceRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_opentelemetry_proto_collector_trace_v1_ExportTraceServiceResponse__Output>): grpc.ClientUnaryCall;
  export(argument: _opentelemetry_proto_collector_trace_v1_ExportTraceServiceRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_opentelemetry_proto_collector_trace_v1_ExportTraceServiceResponse__Output>): grpc.ClientUnaryCall;
  export(argument: _opentelemetry_proto_collector_trace_v1_ExportTraceServiceRequest, callback: grpc.requestCallback<_opentelemetry_proto_collector_trace_v1_ExportTraceServiceResponse__Output>): grpc.ClientUnaryCall;
  
}

/**
 * Service that can be used to push spans between one Application instrumented with
 * OpenTelemetry and a collector, or between a collector and a central collector (in this
 * case spans are sent/received to/from multiple Applications).
 */
export interface TraceServiceHandlers extends grpc.UntypedServiceImplementation {
  Export: grpc.handleUnaryCall<_opentelemetry_proto_collector_trace_v1_ExportTraceServiceRequest__Output, _opentelemetry_proto_collector_trace_v1_ExportTraceServiceResponse>;
  
}

export interface TraceServiceDefinition extends grpc.ServiceDefinition {
  Export: MethodDefinition<_opentelemetry_proto_collector_trace_v1_ExportTraceServiceRequest, _opentelemetry_proto_collector_trace_v1_ExportTraceServiceResponse, _opentelemetry_proto_collector_trace_v1_ExportTraceServiceRequest__Output, _opentelemetry_proto_collector_trace_v1_ExportTraceServiceResponse__Output>
}
