import type * as grpc from '@grpc/grpc-js';
import type { EnumTypeDefinition, MessageTypeDefinition } from '@grpc/proto-loader';

import type { ExportTracePartialSuccess as _opentelemetry_proto_collector_trace_v1_ExportTracePartialSuccess, ExportTracePartialSuccess__Output as _opentelemetry_proto_collector_trace_v1_ExportTracePartialSuccess__Output } from './opentelemetry/proto/collector/trace/v1/ExportTracePartialSuccess.js';
import type { ExportTraceServiceRequest as _opentelemetry_proto_collector_trace_v1_ExportTraceServiceRequest, ExportTraceServiceRequest__Output as _opentelemetry_proto_collector_trace_v1_ExportTraceServiceRequest__Output } from './opentelemetry/proto/collector/trace/v1/ExportTraceServiceRequest.js';
import type { ExportTraceServiceResponse as _opentelemetry_proto_collector_trace_v1_ExportTraceServiceResponse, ExportTraceServiceResponse__Output as _opentelemetry_proto_collector_trace_v1_ExportTraceServiceResponse__Output } from './opentelemetry/proto/collector/trace/v1/ExportTraceServiceResponse.js';
import type { TraceServiceClient as _opentelemetry_proto_collector_trace_v1_TraceServiceClient, TraceServiceDefinition as _opentelemetry_proto_collector_trace_v1_TraceServiceDefinition } from './opentelemetry/proto/collector/trace/v1/TraceService.js';
import type { AnyValue as _opentelemetry_proto_common_v1_AnyValue, AnyValue__Output as _opentelemetry_proto_common_v1_AnyValue__Output } from './opentelemetry/proto/common/v1/AnyValue.js';
import type { ArrayValue as _opentelemetry_proto_common_v1_ArrayValue, ArrayValue__Output as _opentelemetry_proto_common_v1_ArrayValue__Output } from './opentelemetry/proto/common/v1/ArrayValue.js';
import type { EntityRef as _opentelemetry_proto_common_v1_EntityRef, EntityRef__Output as _opentelemetry_proto_common_v1_EntityRef__Output } from './opentelemetry/proto/common/v1/EntityRef.js';
import type { InstrumentationScope as _opentelemetry_proto_common_v1_InstrumentationScope, InstrumentationScope__Output as _opentelemetry_proto_common_v1_InstrumentationScope__Output } from './opentelemetry/proto/common/v1/InstrumentationScope.js';
import type { KeyValue as _opentelemetry_proto_common_v1_KeyValue, KeyValue__Output as _opentelemetry_proto_common_v1_KeyValue__Output } from './opentelemetry/proto/common/v1/KeyValue.js';
import type { KeyValueList as _opentelemetry_proto_common_v1_KeyValueList, KeyValueList__Output as _opentelemetry_proto_common_v1_KeyValueList__Output } from './opentelemetry/proto/common/v1/KeyValueList.js';
import type { Resource as _opentelemetry_proto_resource_v1_Resource, Resource__Output as _opentelemetry_proto_resource_v1_Resource__Output } from './opentelemetry/proto/resource/v1/Resource.js';
import type { ResourceSpans as _opentelemetry_proto_trace_v1_ResourceSpans, ResourceSpans__Output as _opentelemetry_proto_trace_v1_ResourceSpans__Output } from './opentelemetry/proto/trace/v1/ResourceSpans.js';
import type { ScopeSpans as _opentelemetry_proto_trace_v1_ScopeSpans, ScopeSpans__Output as _opentelemetry_proto_trace_v1_ScopeSpans__Output } from './opentelemetry/proto/trace/v1/ScopeSpans.js';
import type { Span as _opentelemetry_proto_trace_v1_Span, Span__Output as _opentelemetry_proto_trace_v1_Span__Output } from './opentelemetry/proto/trace/v1/Span.js';
import type { Status as _opentelemetry_proto_trace_v1_Status, Status__Output as _opentelemetry_proto_trace_v1_Status__Output } from './opentelemetry/proto/trace/v1/Status.js';
import type { TracesData as _opentelemetry_proto_trace_v1_TracesData, TracesData__Output as _opentelemetry_proto_trace_v1_TracesData__Output } from './opentelemetry/proto/trace/v1/TracesData.js';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  opentelemetry: {
    proto: {
      collector: {
        trace: {
          v1: {
            ExportTracePartialSuccess: MessageTypeDefinition<_opentelemetry_proto_collector_trace_v1_ExportTracePartialSuccess, _opentelemetry_proto_collector_trace_v1_ExportTracePartialSuccess__Output>
            ExportTraceServiceRequest: MessageTypeDefinition<_opentelemetry_proto_collector_trace_v1_ExportTraceServiceRequest, _opentelemetry_proto_collector_trace_v1_ExportTraceServiceRequest__Output>
            ExportTraceServiceResponse: MessageTypeDefinition<_opentelemetry_proto_collector_trace_v1_ExportTraceServiceResponse, _opentelemetry_proto_collector_trace_v1_ExportTraceServiceResponse__Output>
            /**
             * Service that can be used to push spans between one Application instrumented with
             * OpenTelemetry and a collector, or between a collector and a central collector (in this
             * case spans are sent/received to/from multiple Applications).
             */
            TraceService: SubtypeConstructor<typeof grpc.Client, _opentelemetry_proto_collector_trace_v1_TraceServiceClient> & { service: _opentelemetry_proto_collector_trace_v1_TraceServiceDefinition }
          }
        }
      }
      common: {
        v1: {
          AnyValue: MessageTypeDefinition<_opentelemetry_proto_common_v1_AnyValue, _opentelemetry_proto_common_v1_AnyValue__Output>
          ArrayValue: MessageTypeDefinition<_opentelemetry_proto_common_v1_ArrayValue, _opentelemetry_proto_common_v1_ArrayValue__Output>
          EntityRef: MessageTypeDefinition<_opentelemetry_proto_common_v1_EntityRef, _opentelemetry_proto_common_v1_EntityRef__Output>
          InstrumentationScope: MessageTypeDefinition<_opentelemetry_proto_common_v1_InstrumentationScope, _opentelemetry_proto_common_v1_InstrumentationScope__Output>
          KeyValue: MessageTypeDefinition<_opentelemetry_proto_common_v1_KeyValue, _opentelemetry_proto_common_v1_KeyValue__Output>
          KeyValueList: MessageTypeDefinition<_opentelemetry_proto_common_v1_KeyValueList, _opentelemetry_proto_common_v1_KeyValueList__Output>
        }
      }
      resource: {
        v1: {
          Resource: MessageTypeDefinition<_opentelemetry_proto_resource_v1_Resource, _opentelemetry_proto_resource_v1_Resource__Output>
        }
      }
      trace: {
        v1: {
          ResourceSpans: MessageTypeDefinition<_opentelemetry_proto_trace_v1_ResourceSpans, _opentelemetry_proto_trace_v1_ResourceSpans__Output>
          ScopeSpans: MessageTypeDefinition<_opentelemetry_proto_trace_v1_ScopeSpans, _opentelemetry_proto_trace_v1_ScopeSpans__Output>
          Span: MessageTypeDefinition<_opentelemetry_proto_trace_v1_Span, _opentelemetry_proto_trace_v1_Span__Output>
          SpanFlags: EnumTypeDefinition
          Status: MessageTypeDefinition<_opentelemetry_proto_trace_v1_Status, _opentelemetry_proto_trace_v1_Status__Output>
          TracesData: MessageTypeDefinition<_opentelemetry_proto_trace_v1_TracesData, _opentelemetry_proto_trace_v1_TracesData__Output>
        }
      }
    }
  }
}

