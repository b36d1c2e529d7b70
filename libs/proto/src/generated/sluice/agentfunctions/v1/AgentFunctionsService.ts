// Original file: proto/sluice/agentfunctions/v1/agentfunctions.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { AgentMessage as _sluice_agentfunctions_v1_AgentMessage, AgentMessage__Output as _sluice_agentfunctions_v1_AgentMessage__Output } from '../../../sluice/agentfunctions/v1/AgentMessage.js';
import type { ControllerMessage as _sluice_agentfunctions_v1_ControllerMessage, ControllerMessage__Output as _sluice_agentfunctions_v1_ControllerMessage__Output } from '../../../sluice/agentfunctions/v1/ControllerMessage.js';

export interface AgentFunctionsServiceClient extends grpc.Client {
  /**
   * The agent sends its hello first, then a result per call; the controller sends calls.
   */
  Connect(metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientDuplexStream<_sluice_agentfunctions_v1_AgentMessage, _sluice_agentfunctions_v1_ControllerMessage__Output>;
  Connect(options?: grpc.CallOptions): grpc.ClientDuplexStream<_sluice_agentfunctions_v1_AgentMessage, _sluice_agentfunctions_v1_ControllerMessage__Output>;
  /**
   * The agent sends its hello first, then a result per call; the controller sends calls.
   */
  connect(metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientDuplexStream<_sluice_agentfunctions_v1_AgentMessage, _sluice_agentfunctions_v1_ControllerMessage__Output>;
  connect(options?: grpc.CallOptions): grpc.ClientDuplexStream<_sluice_agentfunctions_v1_AgentMessage, _sluice_agentfunctions_v1_ControllerMessage__Output>;
  
}

export interface AgentFunctionsServiceHandlers extends grpc.UntypedServiceImplementation {
  /**
   * The agent sends its hello first, then a result per call; the controller sends calls.
   */
  Connect: grpc.handleBidiStreamingCall<_sluice_agentfunctions_v1_AgentMessage__Output, _sluice_agentfunctions_v1_ControllerMessage>;
  
}

export interface AgentFunctionsServiceDefinition extends grpc.ServiceDefinition {
  Connect: MethodDefinition<_sluice_agentfunctions_v1_AgentMessage, _sluice_agentfunctions_v1_ControllerMessage, _sluice_agentfunctions_v1_AgentMessage__Output, _sluice_agentfunctions_v1_ControllerMessage__Output>
}
