import type * as grpc from '@grpc/grpc-js';
import type { EnumTypeDefinition, MessageTypeDefinition } from '@grpc/proto-loader';

import type { ListValue as _google_protobuf_ListValue, ListValue__Output as _google_protobuf_ListValue__Output } from './google/protobuf/ListValue.js';
import type { Struct as _google_protobuf_Struct, Struct__Output as _google_protobuf_Struct__Output } from './google/protobuf/Struct.js';
import type { Value as _google_protobuf_Value, Value__Output as _google_protobuf_Value__Output } from './google/protobuf/Value.js';
import type { AgentAnswer as _sluice_agentfunctions_v1_AgentAnswer, AgentAnswer__Output as _sluice_agentfunctions_v1_AgentAnswer__Output } from './sluice/agentfunctions/v1/AgentAnswer.js';
import type { AgentFunctionsServiceClient as _sluice_agentfunctions_v1_AgentFunctionsServiceClient, AgentFunctionsServiceDefinition as _sluice_agentfunctions_v1_AgentFunctionsServiceDefinition } from './sluice/agentfunctions/v1/AgentFunctionsService.js';
import type { AgentHello as _sluice_agentfunctions_v1_AgentHello, AgentHello__Output as _sluice_agentfunctions_v1_AgentHello__Output } from './sluice/agentfunctions/v1/AgentHello.js';
import type { AgentMessage as _sluice_agentfunctions_v1_AgentMessage, AgentMessage__Output as _sluice_agentfunctions_v1_AgentMessage__Output } from './sluice/agentfunctions/v1/AgentMessage.js';
import type { AgentsServiceClient as _sluice_agentfunctions_v1_AgentsServiceClient, AgentsServiceDefinition as _sluice_agentfunctions_v1_AgentsServiceDefinition } from './sluice/agentfunctions/v1/AgentsService.js';
import type { CallAgentsRequest as _sluice_agentfunctions_v1_CallAgentsRequest, CallAgentsRequest__Output as _sluice_agentfunctions_v1_CallAgentsRequest__Output } from './sluice/agentfunctions/v1/CallAgentsRequest.js';
import type { CallAgentsResponse as _sluice_agentfunctions_v1_CallAgentsResponse, CallAgentsResponse__Output as _sluice_agentfunctions_v1_CallAgentsResponse__Output } from './sluice/agentfunctions/v1/CallAgentsResponse.js';
import type { ConnectedAgent as _sluice_agentfunctions_v1_ConnectedAgent, ConnectedAgent__Output as _sluice_agentfunctions_v1_ConnectedAgent__Output } from './sluice/agentfunctions/v1/ConnectedAgent.js';
import type { ControllerMessage as _sluice_agentfunctions_v1_ControllerMessage, ControllerMessage__Output as _sluice_agentfunctions_v1_ControllerMessage__Output } from './sluice/agentfunctions/v1/ControllerMessage.js';
import type { FunctionCall as _sluice_agentfunctions_v1_FunctionCall, FunctionCall__Output as _sluice_agentfunctions_v1_FunctionCall__Output } from './sluice/agentfunctions/v1/FunctionCall.js';
import type { FunctionError as _sluice_agentfunctions_v1_FunctionError, FunctionError__Output as _sluice_agentfunctions_v1_FunctionError__Output } from './sluice/agentfunctions/v1/FunctionError.js';
import type { FunctionResult as _sluice_agentfunctions_v1_FunctionResult, FunctionResult__Output as _sluice_agentfunctions_v1_FunctionResult__Output } from './sluice/agentfunctions/v1/FunctionResult.js';
import type { ListAgentsRequest as _sluice_agentfunctions_v1_ListAgentsRequest, ListAgentsRequest__Output as _sluice_agentfunctions_v1_ListAgentsRequest__Output } from './sluice/agentfunctions/v1/ListAgentsRequest.js';
import type { ListAgentsResponse as _sluice_agentfunctions_v1_ListAgentsResponse, ListAgentsResponse__Output as _sluice_agentfunctions_v1_ListAgentsResponse__Output } from './sluice/agentfunctions/v1/ListAgentsResponse.js';
import type { MissingAgent as _sluice_agentfunctions_v1_MissingAgent, MissingAgent__Output as _sluice_agentfunctions_v1_MissingAgent__Output } from './sluice/agentfunctions/v1/MissingAgent.js';

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
        AgentAnswer: MessageTypeDefinition<_sluice_agentfunctions_v1_AgentAnswer, _sluice_agentfunctions_v1_AgentAnswer__Output>
        AgentFunctionsService: SubtypeConstructor<typeof grpc.Client, _sluice_agentfunctions_v1_AgentFunctionsServiceClient> & { service: _sluice_agentfunctions_v1_AgentFunctionsServiceDefinition }
        AgentHello: MessageTypeDefinition<_sluice_agentfunctions_v1_AgentHello, _sluice_agentfunctions_v1_AgentHello__Output>
        AgentMessage: MessageTypeDefinition<_sluice_agentfunctions_v1_AgentMessage, _sluice_agentfunctions_v1_AgentMessage__Output>
        /**
         * The controller's fan-out over gRPC (the same as GET /v1/agents and /v1/agents/{group}[/{agent}]/v1/...).
         */
        AgentsService: SubtypeConstructor<typeof grpc.Client, _sluice_agentfunctions_v1_AgentsServiceClient> & { service: _sluice_agentfunctions_v1_AgentsServiceDefinition }
        CallAgentsRequest: MessageTypeDefinition<_sluice_agentfunctions_v1_CallAgentsRequest, _sluice_agentfunctions_v1_CallAgentsRequest__Output>
        CallAgentsResponse: MessageTypeDefinition<_sluice_agentfunctions_v1_CallAgentsResponse, _sluice_agentfunctions_v1_CallAgentsResponse__Output>
        ConnectedAgent: MessageTypeDefinition<_sluice_agentfunctions_v1_ConnectedAgent, _sluice_agentfunctions_v1_ConnectedAgent__Output>
        ControllerMessage: MessageTypeDefinition<_sluice_agentfunctions_v1_ControllerMessage, _sluice_agentfunctions_v1_ControllerMessage__Output>
        FunctionCall: MessageTypeDefinition<_sluice_agentfunctions_v1_FunctionCall, _sluice_agentfunctions_v1_FunctionCall__Output>
        FunctionError: MessageTypeDefinition<_sluice_agentfunctions_v1_FunctionError, _sluice_agentfunctions_v1_FunctionError__Output>
        FunctionResult: MessageTypeDefinition<_sluice_agentfunctions_v1_FunctionResult, _sluice_agentfunctions_v1_FunctionResult__Output>
        ListAgentsRequest: MessageTypeDefinition<_sluice_agentfunctions_v1_ListAgentsRequest, _sluice_agentfunctions_v1_ListAgentsRequest__Output>
        ListAgentsResponse: MessageTypeDefinition<_sluice_agentfunctions_v1_ListAgentsResponse, _sluice_agentfunctions_v1_ListAgentsResponse__Output>
        MissingAgent: MessageTypeDefinition<_sluice_agentfunctions_v1_MissingAgent, _sluice_agentfunctions_v1_MissingAgent__Output>
      }
    }
  }
}

