// Original file: proto/sluice/agentfunctions/v1/agentfunctions.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { CallAgentsRequest as _sluice_agentfunctions_v1_CallAgentsRequest, CallAgentsRequest__Output as _sluice_agentfunctions_v1_CallAgentsRequest__Output } from '../../../sluice/agentfunctions/v1/CallAgentsRequest.js';
import type { CallAgentsResponse as _sluice_agentfunctions_v1_CallAgentsResponse, CallAgentsResponse__Output as _sluice_agentfunctions_v1_CallAgentsResponse__Output } from '../../../sluice/agentfunctions/v1/CallAgentsResponse.js';
import type { ListAgentsRequest as _sluice_agentfunctions_v1_ListAgentsRequest, ListAgentsRequest__Output as _sluice_agentfunctions_v1_ListAgentsRequest__Output } from '../../../sluice/agentfunctions/v1/ListAgentsRequest.js';
import type { ListAgentsResponse as _sluice_agentfunctions_v1_ListAgentsResponse, ListAgentsResponse__Output as _sluice_agentfunctions_v1_ListAgentsResponse__Output } from '../../../sluice/agentfunctions/v1/ListAgentsResponse.js';

/**
 * The controller's fan-out over gRPC (the same as GET /v1/agents and /v1/agents/{group}[/{agent}]/v1/...).
 */
export interface AgentsServiceClient extends grpc.Client {
  /**
   * A read-only route of one agent, or of every agent of a group at once.
   */
  CallAgents(argument: _sluice_agentfunctions_v1_CallAgentsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sluice_agentfunctions_v1_CallAgentsResponse__Output>): grpc.ClientUnaryCall;
  CallAgents(argument: _sluice_agentfunctions_v1_CallAgentsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sluice_agentfunctions_v1_CallAgentsResponse__Output>): grpc.ClientUnaryCall;
  CallAgents(argument: _sluice_agentfunctions_v1_CallAgentsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sluice_agentfunctions_v1_CallAgentsResponse__Output>): grpc.ClientUnaryCall;
  CallAgents(argument: _sluice_agentfunctions_v1_CallAgentsRequest, callback: grpc.requestCallback<_sluice_agentfunctions_v1_CallAgentsResponse__Output>): grpc.ClientUnaryCall;
  /**
   * A read-only route of one agent, or of every agent of a group at once.
   */
  callAgents(argument: _sluice_agentfunctions_v1_CallAgentsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sluice_agentfunctions_v1_CallAgentsResponse__Output>): grpc.ClientUnaryCall;
  callAgents(argument: _sluice_agentfunctions_v1_CallAgentsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sluice_agentfunctions_v1_CallAgentsResponse__Output>): grpc.ClientUnaryCall;
  callAgents(argument: _sluice_agentfunctions_v1_CallAgentsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sluice_agentfunctions_v1_CallAgentsResponse__Output>): grpc.ClientUnaryCall;
  callAgents(argument: _sluice_agentfunctions_v1_CallAgentsRequest, callback: grpc.requestCallback<_sluice_agentfunctions_v1_CallAgentsResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * The agents connected to this controller.
   */
  ListAgents(argument: _sluice_agentfunctions_v1_ListAgentsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sluice_agentfunctions_v1_ListAgentsResponse__Output>): grpc.ClientUnaryCall;
  ListAgents(argument: _sluice_agentfunctions_v1_ListAgentsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sluice_agentfunctions_v1_ListAgentsResponse__Output>): grpc.ClientUnaryCall;
  ListAgents(argument: _sluice_agentfunctions_v1_ListAgentsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sluice_agentfunctions_v1_ListAgentsResponse__Output>): grpc.ClientUnaryCall;
  ListAgents(argument: _sluice_agentfunctions_v1_ListAgentsRequest, callback: grpc.requestCallback<_sluice_agentfunctions_v1_ListAgentsResponse__Output>): grpc.ClientUnaryCall;
  /**
   * The agents connected to this controller.
   */
  listAgents(argument: _sluice_agentfunctions_v1_ListAgentsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sluice_agentfunctions_v1_ListAgentsResponse__Output>): grpc.ClientUnaryCall;
  listAgents(argument: _sluice_agentfunctions_v1_ListAgentsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sluice_agentfunctions_v1_ListAgentsResponse__Output>): grpc.ClientUnaryCall;
  listAgents(argument: _sluice_agentfunctions_v1_ListAgentsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sluice_agentfunctions_v1_ListAgentsResponse__Output>): grpc.ClientUnaryCall;
  listAgents(argument: _sluice_agentfunctions_v1_ListAgentsRequest, callback: grpc.requestCallback<_sluice_agentfunctions_v1_ListAgentsResponse__Output>): grpc.ClientUnaryCall;
  
}

/**
 * The controller's fan-out over gRPC (the same as GET /v1/agents and /v1/agents/{group}[/{agent}]/v1/...).
 */
export interface AgentsServiceHandlers extends grpc.UntypedServiceImplementation {
  /**
   * A read-only route of one agent, or of every agent of a group at once.
   */
  CallAgents: grpc.handleUnaryCall<_sluice_agentfunctions_v1_CallAgentsRequest__Output, _sluice_agentfunctions_v1_CallAgentsResponse>;
  
  /**
   * The agents connected to this controller.
   */
  ListAgents: grpc.handleUnaryCall<_sluice_agentfunctions_v1_ListAgentsRequest__Output, _sluice_agentfunctions_v1_ListAgentsResponse>;
  
}

export interface AgentsServiceDefinition extends grpc.ServiceDefinition {
  CallAgents: MethodDefinition<_sluice_agentfunctions_v1_CallAgentsRequest, _sluice_agentfunctions_v1_CallAgentsResponse, _sluice_agentfunctions_v1_CallAgentsRequest__Output, _sluice_agentfunctions_v1_CallAgentsResponse__Output>
  ListAgents: MethodDefinition<_sluice_agentfunctions_v1_ListAgentsRequest, _sluice_agentfunctions_v1_ListAgentsResponse, _sluice_agentfunctions_v1_ListAgentsRequest__Output, _sluice_agentfunctions_v1_ListAgentsResponse__Output>
}
