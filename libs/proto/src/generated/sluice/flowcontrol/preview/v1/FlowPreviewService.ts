// Original file: proto/sluice/flowcontrol/preview/v1/preview.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { PreviewFlowLabelsResponse as _sluice_flowcontrol_preview_v1_PreviewFlowLabelsResponse, PreviewFlowLabelsResponse__Output as _sluice_flowcontrol_preview_v1_PreviewFlowLabelsResponse__Output } from '../../../../sluice/flowcontrol/preview/v1/PreviewFlowLabelsResponse.js';
import type { PreviewHTTPRequestsResponse as _sluice_flowcontrol_preview_v1_PreviewHTTPRequestsResponse, PreviewHTTPRequestsResponse__Output as _sluice_flowcontrol_preview_v1_PreviewHTTPRequestsResponse__Output } from '../../../../sluice/flowcontrol/preview/v1/PreviewHTTPRequestsResponse.js';
import type { PreviewRequest as _sluice_flowcontrol_preview_v1_PreviewRequest, PreviewRequest__Output as _sluice_flowcontrol_preview_v1_PreviewRequest__Output } from '../../../../sluice/flowcontrol/preview/v1/PreviewRequest.js';

export interface FlowPreviewServiceClient extends grpc.Client {
  /**
   * PreviewFlowLabels samples the flow labels of flows at a control point.
   */
  PreviewFlowLabels(argument: _sluice_flowcontrol_preview_v1_PreviewRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sluice_flowcontrol_preview_v1_PreviewFlowLabelsResponse__Output>): grpc.ClientUnaryCall;
  PreviewFlowLabels(argument: _sluice_flowcontrol_preview_v1_PreviewRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sluice_flowcontrol_preview_v1_PreviewFlowLabelsResponse__Output>): grpc.ClientUnaryCall;
  PreviewFlowLabels(argument: _sluice_flowcontrol_preview_v1_PreviewRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sluice_flowcontrol_preview_v1_PreviewFlowLabelsResponse__Output>): grpc.ClientUnaryCall;
  PreviewFlowLabels(argument: _sluice_flowcontrol_preview_v1_PreviewRequest, callback: grpc.requestCallback<_sluice_flowcontrol_preview_v1_PreviewFlowLabelsResponse__Output>): grpc.ClientUnaryCall;
  /**
   * PreviewFlowLabels samples the flow labels of flows at a control point.
   */
  previewFlowLabels(argument: _sluice_flowcontrol_preview_v1_PreviewRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sluice_flowcontrol_preview_v1_PreviewFlowLabelsResponse__Output>): grpc.ClientUnaryCall;
  previewFlowLabels(argument: _sluice_flowcontrol_preview_v1_PreviewRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sluice_flowcontrol_preview_v1_PreviewFlowLabelsResponse__Output>): grpc.ClientUnaryCall;
  previewFlowLabels(argument: _sluice_flowcontrol_preview_v1_PreviewRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sluice_flowcontrol_preview_v1_PreviewFlowLabelsResponse__Output>): grpc.ClientUnaryCall;
  previewFlowLabels(argument: _sluice_flowcontrol_preview_v1_PreviewRequest, callback: grpc.requestCallback<_sluice_flowcontrol_preview_v1_PreviewFlowLabelsResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * PreviewHTTPRequests samples the HTTP requests seen at a control point.
   */
  PreviewHTTPRequests(argument: _sluice_flowcontrol_preview_v1_PreviewRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sluice_flowcontrol_preview_v1_PreviewHTTPRequestsResponse__Output>): grpc.ClientUnaryCall;
  PreviewHTTPRequests(argument: _sluice_flowcontrol_preview_v1_PreviewRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sluice_flowcontrol_preview_v1_PreviewHTTPRequestsResponse__Output>): grpc.ClientUnaryCall;
  PreviewHTTPRequests(argument: _sluice_flowcontrol_preview_v1_PreviewRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sluice_flowcontrol_preview_v1_PreviewHTTPRequestsResponse__Output>): grpc.ClientUnaryCall;
  PreviewHTTPRequests(argument: _sluice_flowcontrol_preview_v1_PreviewRequest, callback: grpc.requestCallback<_sluice_flowcontrol_preview_v1_PreviewHTTPRequestsResponse__Output>): grpc.ClientUnaryCall;
  /**
   * PreviewHTTPRequests samples the HTTP requests seen at a control point.
   */
  previewHttpRequests(argument: _sluice_flowcontrol_preview_v1_PreviewRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sluice_flowcontrol_preview_v1_PreviewHTTPRequestsResponse__Output>): grpc.ClientUnaryCall;
  previewHttpRequests(argument: _sluice_flowcontrol_preview_v1_PreviewRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sluice_flowcontrol_preview_v1_PreviewHTTPRequestsResponse__Output>): grpc.ClientUnaryCall;
  previewHttpRequests(argument: _sluice_flowcontrol_preview_v1_PreviewRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sluice_flowcontrol_preview_v1_PreviewHTTPRequestsResponse__Output>): grpc.ClientUnaryCall;
  previewHttpRequests(argument: _sluice_flowcontrol_preview_v1_PreviewRequest, callback: grpc.requestCallback<_sluice_flowcontrol_preview_v1_PreviewHTTPRequestsResponse__Output>): grpc.ClientUnaryCall;
  
}

export interface FlowPreviewServiceHandlers extends grpc.UntypedServiceImplementation {
  /**
   * PreviewFlowLabels samples the flow labels of flows at a control point.
   */
  PreviewFlowLabels: grpc.handleUnaryCall<_sluice_flowcontrol_preview_v1_PreviewRequest__Output, _sluice_flowcontrol_preview_v1_PreviewFlowLabelsResponse>;
  
  /**
   * PreviewHTTPRequests samples the HTTP requests seen at a control point.
   */
  PreviewHTTPRequests: grpc.handleUnaryCall<_sluice_flowcontrol_preview_v1_PreviewRequest__Output, _sluice_flowcontrol_preview_v1_PreviewHTTPRequestsResponse>;
  
}

export interface FlowPreviewServiceDefinition extends grpc.ServiceDefinition {
  PreviewFlowLabels: MethodDefinition<_sluice_flowcontrol_preview_v1_PreviewRequest, _sluice_flowcontrol_preview_v1_PreviewFlowLabelsResponse, _sluice_flowcontrol_preview_v1_PreviewRequest__Output, _sluice_flowcontrol_preview_v1_PreviewFlowLabelsResponse__Output>
  PreviewHTTPRequests: MethodDefinition<_sluice_flowcontrol_preview_v1_PreviewRequest, _sluice_flowcontrol_preview_v1_PreviewHTTPRequestsResponse, _sluice_flowcontrol_preview_v1_PreviewRequest__Output, _sluice_flowcontrol_preview_v1_PreviewHTTPRequestsResponse__Output>
}
