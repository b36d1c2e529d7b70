import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from './google/protobuf/Timestamp.js';
import type { ControlPoint as _sluice_flowcontrol_controlpoints_v1_ControlPoint, ControlPoint__Output as _sluice_flowcontrol_controlpoints_v1_ControlPoint__Output } from './sluice/flowcontrol/controlpoints/v1/ControlPoint.js';
import type { ControlPointsServiceClient as _sluice_flowcontrol_controlpoints_v1_ControlPointsServiceClient, ControlPointsServiceDefinition as _sluice_flowcontrol_controlpoints_v1_ControlPointsServiceDefinition } from './sluice/flowcontrol/controlpoints/v1/ControlPointsService.js';
import type { GetControlPointsRequest as _sluice_flowcontrol_controlpoints_v1_GetControlPointsRequest, GetControlPointsRequest__Output as _sluice_flowcontrol_controlpoints_v1_GetControlPointsRequest__Output } from './sluice/flowcontrol/controlpoints/v1/GetControlPointsRequest.js';
import type { GetControlPointsResponse as _sluice_flowcontrol_controlpoints_v1_GetControlPointsResponse, GetControlPointsResponse__Output as _sluice_flowcontrol_controlpoints_v1_GetControlPointsResponse__Output } from './sluice/flowcontrol/controlpoints/v1/GetControlPointsResponse.js';

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
    flowcontrol: {
      controlpoints: {
        v1: {
          ControlPoint: MessageTypeDefinition<_sluice_flowcontrol_controlpoints_v1_ControlPoint, _sluice_flowcontrol_controlpoints_v1_ControlPoint__Output>
          ControlPointsService: SubtypeConstructor<typeof grpc.Client, _sluice_flowcontrol_controlpoints_v1_ControlPointsServiceClient> & { service: _sluice_flowcontrol_controlpoints_v1_ControlPointsServiceDefinition }
          GetControlPointsRequest: MessageTypeDefinition<_sluice_flowcontrol_controlpoints_v1_GetControlPointsRequest, _sluice_flowcontrol_controlpoints_v1_GetControlPointsRequest__Output>
          GetControlPointsResponse: MessageTypeDefinition<_sluice_flowcontrol_controlpoints_v1_GetControlPointsResponse, _sluice_flowcontrol_controlpoints_v1_GetControlPointsResponse__Output>
        }
      }
    }
  }
}

