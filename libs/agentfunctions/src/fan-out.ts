import { GrpcCode } from '@sluice/errors';
import { AgentCallError, type AgentHub } from './hub.js';
import { HTTP_FUNCTION, type HttpCallResult } from './protocol.js';
import { allowedAgentRoute } from './routes-allowed.js';

export interface FanOutOptions {
  /** How long the controller waits for an agent's answer (a preview waits up to 30 s). Default 35 s. */
  timeoutMs?: number;
  /** A fan-out's answers beyond this many JSON bytes are left out and named (default 8 MiB). */
  maxAnswerBytes?: number;
}

export interface AgentRouteCall {
  agentGroup: string;
  /** One agent; undefined: every agent of the group. */
  agentName?: string;
  method: string;
  /** The agent's route with its query. */
  path: string;
  body?: unknown;
}

export interface FanOutAnswer {
  agent_group: string;
  answers: Array<{ agent_name: string } & HttpCallResult>;
  missing: Array<{ agent_name: string; error: string }>;
}

/**
 * Asks an agent's read-only route of one agent (its answer) or of every agent of a group at once
 * (every answer, and the agents that did not answer in time or whose answer would pass the size
 * bound, named). Rejects with AgentCallError: NOT_FOUND for a route that is no agent function or a
 * group with no agent connected, or the one agent's failure.
 */
export async function callAgentRoute(hub: AgentHub, call: AgentRouteCall, opts: FanOutOptions = {}): Promise<HttpCallResult | FanOutAnswer> {
  const timeoutMs = opts.timeoutMs ?? 35_000;
  const maxAnswerBytes = opts.maxAnswerBytes ?? 8 << 20;
  const method = call.method === 'GET' || call.method === 'POST' ? call.method : undefined;
  if (method === undefined) throw new AgentCallError(GrpcCode.INVALID_ARGUMENT, `method ${JSON.stringify(call.method)}: want GET or POST`);
  if (!allowedAgentRoute(method, call.path)) throw new AgentCallError(GrpcCode.NOT_FOUND, `${method} ${call.path.split('?')[0]} is not an agent function`);
  const args = { method, path: call.path, ...(method === 'POST' && call.body !== undefined ? { body: call.body } : {}) };
  const ask = (name: string): Promise<HttpCallResult> => hub.call(call.agentGroup, name, HTTP_FUNCTION, args, timeoutMs) as Promise<HttpCallResult>;
  if (call.agentName !== undefined) return ask(call.agentName);
  const agents = hub.group(call.agentGroup);
  if (agents.length === 0) throw new AgentCallError(GrpcCode.NOT_FOUND, `no agent of group ${call.agentGroup} is connected`);
  const settled = await Promise.allSettled(agents.map((a) => ask(a.agent_name)));
  let bytes = 0;
  const answer: FanOutAnswer = { agent_group: call.agentGroup, answers: [], missing: [] };
  settled.forEach((s, i) => {
    const name = agents[i]?.agent_name ?? '';
    if (s.status === 'rejected') return answer.missing.push({ agent_name: name, error: s.reason instanceof Error ? s.reason.message : String(s.reason) });
    bytes += Buffer.byteLength(JSON.stringify(s.value.body ?? null));
    if (bytes > maxAnswerBytes) return answer.missing.push({ agent_name: name, error: `answer left out: the answers pass ${maxAnswerBytes} bytes` });
    answer.answers.push({ agent_name: name, ...s.value });
  });
  return answer;
}
