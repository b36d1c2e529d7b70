import type * as grpc from '@grpc/grpc-js';
import type { EnumTypeDefinition, MessageTypeDefinition } from '@grpc/proto-loader';

import type { ListValue as _google_protobuf_ListValue, ListValue__Output as _google_protobuf_ListValue__Output } from './google/protobuf/ListValue.js';
import type { Struct as _google_protobuf_Struct, Struct__Output as _google_protobuf_Struct__Output } from './google/protobuf/Struct.js';
import type { Value as _google_protobuf_Value, Value__Output as _google_protobuf_Value__Output } from './google/protobuf/Value.js';
import type { AgentFunctionsServiceClient as _sluice_agentfunctions_v1_AgentFunctionsServiceClient, AgentFunctionsServiceDefinition as _sluice_agentfunctions_v1_AgentFunctionsServiceDefinition } from './sluice/agentfunctions/v1/AgentFunctionsService.js';
import type { AgentHello as _sluice_agentfunctions_v1_AgentHello, AgentHello__Output as _sluice_agentfunctions_v1_AgentHello__Output } from './sluice/agentfunctions/v1/AgentHello.js';
import type { AgentMessage as _sluice_agentfunctions_v1_AgentMessage, AgentMessage__Output as _sluice_agentfunctions_v1_AgentMessage__Output } from './sluice/agentfunctions/v1/AgentMessage.js';
import type { ControllerMessage as _sluice_agentfunctions_v1_ControllerMessage, ControllerMessage__Output as _sluice_agentfunctions_v1_ControllerMessage__Output } from './sluice/agentfunctions/v1/ControllerMessage.js';
import type { FunctionCall as _sluice_agentfunctions_v1_FunctionCall, FunctionCall__Output as _sluice_agentfunctions_v1_FunctionCall__Output } from './sluice/agentfunctions/v1/FunctionCall.js';
import type { FunctionError as _sluice_agentfunctions_v1_FunctionError, FunctionError__Output as _sluice_agentfunctions_v1_FunctionError__Output } from './sluice/agentfunctions/v1/FunctionError.js';
import type { FunctionResult as _sluice_agentfunctions_v1_FunctionResult, FunctionResult__Output as _sluice_agentfunctions_v1_FunctionResult__Output } from './sluice/agentfunctions/v1/FunctionResult.js';

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
    agentfunctions: {
      v1: {
        AgentFunctionsService: SubtypeConstructor<typeof grpc.Client, _sluice_agentfunctions_v1_AgentFunctionsServiceClient> & { service: _sluice_agentfunctions_v1_AgentFunctionsServiceDefinition }
        AgentHello: MessageTypeDefinition<_sluice_agentfunctions_v1_AgentHello, _sluice_agentfunctions_v1_AgentHello__Output>
        AgentMessage: MessageTypeDefinition<_sluice_agentfunctions_v1_AgentMessage, _sluice_agentfunctions_v1_AgentMessage__Output>
        ControllerMessage: MessageTypeDefinition<_sluice_agentfunctions_v1_ControllerMessage, _sluice_agentfunctions_v1_ControllerMessage__Output>
        FunctionCall: MessageTypeDefinition<_sluice_agentfunctions_v1_FunctionCall, _sluice_agentfunctions_v1_FunctionCall__Output>
        FunctionError: MessageTypeDefinition<_sluice_agentfunctions_v1_FunctionError, _sluice_agentfunctions_v1_FunctionError__Output>
        FunctionResult: MessageTypeDefinition<_sluice_agentfunctions_v1_FunctionResult, _sluice_agentfunctions_v1_FunctionResult__Output>
      }
    }
  }
}

