import { join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { LOADER_OPTIONS, PROTO_DIR, type ProtoStruct } from '@sluice/proto';

export const AGENT_FUNCTIONS_PROTO_FILE = 'sluice/agentfunctions/v1/agentfunctions.proto';
export const AGENT_FUNCTIONS_SERVICE = 'sluice.agentfunctions.v1.AgentFunctionsService';

/** The one function agents serve: a read-only HTTP route of the agent, run in process. */
export const HTTP_FUNCTION = 'http';

export interface AgentHello {
  agent_group: string;
  agent_name: string;
  address: string;
  version: string;
  functions: string[];
}

export interface FunctionCall {
  call_id: number;
  function: string;
  args: ProtoStruct | null;
  deadline_unix_ms: number;
}

export interface FunctionResult {
  call_id: number;
  result?: ProtoStruct | null;
  error?: { code: number; message: string } | null;
}

export interface AgentMessage {
  hello?: AgentHello | null;
  result?: FunctionResult | null;
}

export interface ControllerMessage {
  call?: FunctionCall | null;
}

/** What an `http` call asks and answers. */
export interface HttpCallArgs {
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
}

export interface HttpCallResult {
  status: number;
  body: unknown;
}

type ServiceCtor = grpc.ServiceClientConstructor;
let pkg: grpc.GrpcObject | undefined;

function agentFunctionsPackage(): grpc.GrpcObject {
  if (pkg === undefined) {
    const def = grpc.loadPackageDefinition(protoLoader.loadSync(join(PROTO_DIR, AGENT_FUNCTIONS_PROTO_FILE), LOADER_OPTIONS));
    pkg = ((def.sluice as grpc.GrpcObject).agentfunctions as grpc.GrpcObject).v1 as grpc.GrpcObject;
  }
  return pkg;
}

/** The agents' service's client constructor (its `.service` is the server-side definition). */
export function agentFunctionsService(): ServiceCtor {
  return agentFunctionsPackage().AgentFunctionsService as ServiceCtor;
}

/** The controller's fan-out service (`sluice.agentfunctions.v1.AgentsService`). */
export function agentsService(): ServiceCtor {
  return agentFunctionsPackage().AgentsService as ServiceCtor;
}
