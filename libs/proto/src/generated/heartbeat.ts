import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from './google/protobuf/Timestamp.js';
import type { CloudExtensionServiceClient as _sluice_cloudext_v1_CloudExtensionServiceClient, CloudExtensionServiceDefinition as _sluice_cloudext_v1_CloudExtensionServiceDefinition } from './sluice/cloudext/v1/CloudExtensionService.js';
import type { PolicyInfo as _sluice_cloudext_v1_PolicyInfo, PolicyInfo__Output as _sluice_cloudext_v1_PolicyInfo__Output } from './sluice/cloudext/v1/PolicyInfo.js';
import type { ReportRequest as _sluice_cloudext_v1_ReportRequest, ReportRequest__Output as _sluice_cloudext_v1_ReportRequest__Output } from './sluice/cloudext/v1/ReportRequest.js';
import type { ReportResponse as _sluice_cloudext_v1_ReportResponse, ReportResponse__Output as _sluice_cloudext_v1_ReportResponse__Output } from './sluice/cloudext/v1/ReportResponse.js';
import type { ServiceInfo as _sluice_cloudext_v1_ServiceInfo, ServiceInfo__Output as _sluice_cloudext_v1_ServiceInfo__Output } from './sluice/cloudext/v1/ServiceInfo.js';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  google: {
    protobuf: {
      Timestamp: MessageTypeDefinition<_google_protobuf_Timestamp, _google_protobuf_Timestamp__Output>
    }
  }
  sluice: {
    cloudext: {
      v1: {
        CloudExtensionService: SubtypeConstructor<typeof grpc.Client, _sluice_cloudext_v1_CloudExtensionServiceClient> & { service: _sluice_cloudext_v1_CloudExtensionServiceDefinition }
        PolicyInfo: MessageTypeDefinition<_sluice_cloudext_v1_PolicyInfo, _sluice_cloudext_v1_PolicyInfo__Output>
        ReportRequest: MessageTypeDefinition<_sluice_cloudext_v1_ReportRequest, _sluice_cloudext_v1_ReportRequest__Output>
        ReportResponse: MessageTypeDefinition<_sluice_cloudext_v1_ReportResponse, _sluice_cloudext_v1_ReportResponse__Output>
        ServiceInfo: MessageTypeDefinition<_sluice_cloudext_v1_ServiceInfo, _sluice_cloudext_v1_ServiceInfo__Output>
      }
    }
  }
}

