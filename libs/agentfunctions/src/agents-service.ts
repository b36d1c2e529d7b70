import type * as grpc from '@grpc/grpc-js';
import { GrpcCode } from '@sluice/errors';
import { jsonToValue, valueToJson, type ProtoValue } from '@sluice/proto';
import { callAgentRoute, type FanOutAnswer, type FanOutOptions } from './fan-out.js';
import { AgentCallError, type AgentHub } from './hub.js';
import type { HttpCallResult } from './protocol.js';

interface CallAgentsRequest {
  agent_group: string;
  agent_name: string;
  method: string;
  path: string;
  body?: ProtoValue | null;
}

function failure(err: unknown): Partial<grpc.ServiceError> {
  if (err instanceof AgentCallError) return { code: err.code, details: err.message };
  return { code: GrpcCode.INTERNAL, details: err instanceof Error ? err.message : String(err) };
}

/** Why a request cannot be asked, or undefined. */
function requestProblem(r: CallAgentsRequest): string | undefined {
  if (r.agent_group === '') return 'agent_group: required';
  if (!r.path.startsWith('/')) return 'path: an agent route starting with /, e.g. /v1/flowcontrol/controlpoints';
  if (r.method !== 'GET' && r.method !== 'POST') return `method: GET or POST, not ${JSON.stringify(r.method)}`;
  return undefined;
}

/**
 * `sluice.agentfunctions.v1.AgentsService`: the controller's fan-out over gRPC, the same as
 * `GET /v1/agents` and `/v1/agents/{group}[/{agent}]/v1/...` (one agent's answer is the one entry of
 * `answers`).
 */
export function agentsServiceImpl(hub: AgentHub, opts: FanOutOptions = {}): grpc.UntypedServiceImplementation {
  return {
    ListAgents(_call: grpc.ServerUnaryCall<unknown, unknown>, callback: grpc.sendUnaryData<unknown>): void {
      callback(null, { agents: hub.list() });
    },
    CallAgents(call: grpc.ServerUnaryCall<CallAgentsRequest, unknown>, callback: grpc.sendUnaryData<unknown>): void {
      const r = call.request;
      const problem = requestProblem(r);
      if (problem !== undefined) return callback({ code: GrpcCode.INVALID_ARGUMENT, details: problem });
      let body: unknown;
      try {
        body = r.body === null || r.body === undefined ? undefined : valueToJson(r.body);
      } catch (err) {
        return callback({ code: GrpcCode.INVALID_ARGUMENT, details: `body: ${err instanceof Error ? err.message : String(err)}` });
      }
      const one = r.agent_name !== '';
      callAgentRoute(hub, { agentGroup: r.agent_group, ...(one ? { agentName: r.agent_name } : {}), method: r.method, path: r.path, ...(body !== undefined ? { body } : {}) }, opts).then(
        (answer) => {
          const all: FanOutAnswer = one
            ? { agent_group: r.agent_group, answers: [{ agent_name: r.agent_name, ...(answer as HttpCallResult) }], missing: [] }
            : (answer as FanOutAnswer);
          callback(null, {
            agent_group: all.agent_group,
            answers: all.answers.map((a) => ({ agent_name: a.agent_name, status: a.status, body: jsonToValue(a.body ?? null) })),
            missing: all.missing,
          });
        },
        (err: unknown) => callback(failure(err)),
      );
    },
  };
}
