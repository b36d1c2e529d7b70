import type * as grpc from '@grpc/grpc-js';
import type { EnumTypeDefinition, MessageTypeDefinition } from '@grpc/proto-loader';

import type { ListValue as _google_protobuf_ListValue, ListValue__Output as _google_protobuf_ListValue__Output } from './google/protobuf/ListValue.js';
import type { Struct as _google_protobuf_Struct, Struct__Output as _google_protobuf_Struct__Output } from './google/protobuf/Struct.js';
import type { Value as _google_protobuf_Value, Value__Output as _google_protobuf_Value__Output } from './google/protobuf/Value.js';
import type { FlowLabels as _sluice_flowcontrol_preview_v1_FlowLabels, FlowLabels__Output as _sluice_flowcontrol_preview_v1_FlowLabels__Output } from './sluice/flowcontrol/preview/v1/FlowLabels.js';
import type { FlowPreviewServiceClient as _sluice_flowcontrol_preview_v1_FlowPreviewServiceClient, FlowPreviewServiceDefinition as _sluice_flowcontrol_preview_v1_FlowPreviewServiceDefinition } from './sluice/flowcontrol/preview/v1/FlowPreviewService.js';
import type { PreviewFlowLabelsResponse as _sluice_flowcontrol_preview_v1_PreviewFlowLabelsResponse, PreviewFlowLabelsResponse__Output as _sluice_flowcontrol_preview_v1_PreviewFlowLabelsResponse__Output } from './sluice/flowcontrol/preview/v1/PreviewFlowLabelsResponse.js';
import type { PreviewHTTPRequestsResponse as _sluice_flowcontrol_preview_v1_PreviewHTTPRequestsResponse, PreviewHTTPRequestsResponse__Output as _sluice_flowcontrol_preview_v1_PreviewHTTPRequestsResponse__Output } from './sluice/flowcontrol/preview/v1/PreviewHTTPRequestsResponse.js';
import type { PreviewRequest as _sluice_flowcontrol_preview_v1_PreviewRequest, PreviewRequest__Output as _sluice_flowcontrol_preview_v1_PreviewRequest__Output } from './sluice/flowcontrol/preview/v1/PreviewRequest.js';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  google: {
    protobuf: {
      ListValue: MessageTypeDefinition<_google_protobuf_ListValue, _google_protobuf_ListValue__Output>
      NullValue: EnumTypeDefinition
      Struct: MessageTypeDefinition<_google_protobuf_Struct, _google_protobuf_Struct__Output>
      Value: MessageTypeDefinition<_google_protobuf_Value, _google_protobuf_Value__Output>
    }
  }
  sluice: {
    flowcontrol: {
      preview: {
        v1: {
          FlowLabels: MessageTypeDefinition<_sluice_flowcontrol_preview_v1_FlowLabels, _sluice_flowcontrol_preview_v1_FlowLabels__Output>
          FlowPreviewService: SubtypeConstructor<typeof grpc.Client, _sluice_flowcontrol_preview_v1_FlowPreviewServiceClient> & { service: _sluice_flowcontrol_preview_v1_FlowPreviewServiceDefinition }
          PreviewFlowLabelsResponse: MessageTypeDefinition<_sluice_flowcontrol_preview_v1_PreviewFlowLabelsResponse, _sluice_flowcontrol_preview_v1_PreviewFlowLabelsResponse__Output>
          PreviewHTTPRequestsResponse: MessageTypeDefinition<_sluice_flowcontrol_preview_v1_PreviewHTTPRequestsResponse, _sluice_flowcontrol_preview_v1_PreviewHTTPRequestsResponse__Output>
          PreviewRequest: MessageTypeDefinition<_sluice_flowcontrol_preview_v1_PreviewRequest, _sluice_flowcontrol_preview_v1_PreviewRequest__Output>
        }
      }
    }
  }
}

