import { onceShutdown, type Lifecycle } from '@sluice/lifecycle';
import * as grpc from '@grpc/grpc-js';
import { jsonToStruct, structToJson } from '@sluice/proto';
import type { Logger } from '@sluice/server';
import type { AgentHello, AgentMessage, ControllerMessage, FunctionResult } from './protocol.js';
import { GrpcCode } from '@sluice/errors';

/** An agent with an open stream, as `GET /v1/agents` lists it. */
export interface ConnectedAgent {
  agent_group: string;
  agent_name: string;
  address: string;
  version: string;
  functions: string[];
  connected_at: string;
}

/** A call that got no result: the agent went away, refused it, or did not answer in time. */
export class AgentCallError extends Error {
  constructor(readonly code: number, message: string) {
    super(message);
    this.name = 'AgentCallError';
  }
}

interface Pending {
  resolve(v: unknown): void;
  reject(e: Error): void;
  timer: NodeJS.Timeout;
}

interface Entry {
  agent: ConnectedAgent;
  stream: grpc.ServerDuplexStream<AgentMessage, ControllerMessage>;
  pending: Map<number, Pending>;
}

const NAME_MAX = 253;

/**
 * The controller's side of agent functions: the agents that hold a stream open, by group and name
 * (a reconnecting agent replaces its old stream), and calls to them with a deadline. A stream that
 * ends fails its calls in flight at once.
 */
export class AgentHub implements Lifecycle {
  private readonly agents = new Map<string, Entry>();
  private nextCallId = 1;
  private closed = false;

  constructor(private readonly logger?: Logger) {}

  /** The gRPC implementation of AgentFunctionsService. */
  serviceImpl(): grpc.UntypedServiceImplementation {
    return { Connect: (stream: grpc.ServerDuplexStream<AgentMessage, ControllerMessage>) => this.connect(stream) };
  }

  list(): ConnectedAgent[] {
    return [...this.agents.values()].map((e) => e.agent).sort((a, b) => a.agent_group.localeCompare(b.agent_group) || a.agent_name.localeCompare(b.agent_name));
  }

  group(agentGroup: string): ConnectedAgent[] {
    return this.list().filter((a) => a.agent_group === agentGroup);
  }

  /** Calls `fn` on one agent; rejects with AgentCallError (NOT_FOUND, DEADLINE_EXCEEDED, UNAVAILABLE or the agent's own code). */
  call(agentGroup: string, agentName: string, fn: string, args: Record<string, unknown>, timeoutMs: number): Promise<unknown> {
    const e = this.agents.get(key(agentGroup, agentName));
    if (e === undefined) return Promise.reject(new AgentCallError(GrpcCode.NOT_FOUND, `no agent ${agentName} of group ${agentGroup} is connected`));
    const id = this.nextCallId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        e.pending.delete(id);
        reject(new AgentCallError(GrpcCode.DEADLINE_EXCEEDED, `no answer within ${timeoutMs} ms`));
      }, timeoutMs);
      e.pending.set(id, { resolve, reject, timer });
      e.stream.write({ call: { call_id: id, function: fn, args: jsonToStruct(args), deadline_unix_ms: Date.now() + timeoutMs } });
    });
  }

  /** Ends every stream (controller shutdown): agents reconnect to the next controller. */
  readonly shutdown = onceShutdown('agent functions hub', () => {
    this.closed = true;
    for (const e of this.agents.values()) this.drop(e, 'the controller is shutting down');
  });

  private connect(stream: grpc.ServerDuplexStream<AgentMessage, ControllerMessage>): void {
    if (this.closed) {
      stream.emit('error', { code: GrpcCode.UNAVAILABLE, details: 'the controller is shutting down' });
      return;
    }
    let entry: Entry | undefined;
    stream.on('data', (msg: AgentMessage) => {
      if (entry === undefined) {
        const problem = helloProblem(msg.hello);
        if (problem !== undefined) {
          stream.emit('error', { code: GrpcCode.INVALID_ARGUMENT, details: problem });
          return;
        }
        entry = this.register(msg.hello as AgentHello, stream);
        return;
      }
      if (msg.result !== null && msg.result !== undefined) settle(entry, msg.result);
    });
    const gone = (why: string): void => {
      if (entry !== undefined && this.agents.get(key(entry.agent.agent_group, entry.agent.agent_name)) === entry) this.drop(entry, why);
    };
    stream.on('end', () => { gone('the agent ended its stream'); stream.end(); });
    stream.on('cancelled', () => gone('the agent went away'));
    stream.on('error', () => gone('the stream broke'));
  }

  private register(hello: AgentHello, stream: grpc.ServerDuplexStream<AgentMessage, ControllerMessage>): Entry {
    const agent: ConnectedAgent = {
      agent_group: hello.agent_group, agent_name: hello.agent_name, address: hello.address, version: hello.version,
      functions: [...hello.functions], connected_at: new Date().toISOString(),
    };
    const k = key(agent.agent_group, agent.agent_name);
    const old = this.agents.get(k);
    if (old !== undefined) this.drop(old, 'replaced by a new stream of the same agent');
    const entry: Entry = { agent, stream, pending: new Map() };
    this.agents.set(k, entry);
    this.logger?.info('agent functions: agent connected', { agent_group: agent.agent_group, agent_name: agent.agent_name });
    return entry;
  }

  private drop(e: Entry, why: string): void {
    const k = key(e.agent.agent_group, e.agent.agent_name);
    if (this.agents.get(k) === e) this.agents.delete(k);
    for (const [id, p] of e.pending) {
      clearTimeout(p.timer);
      e.pending.delete(id);
      p.reject(new AgentCallError(GrpcCode.UNAVAILABLE, `agent ${e.agent.agent_name} is gone: ${why}`));
    }
    if (e.stream.writable) e.stream.end();
  }
}

function key(group: string, name: string): string {
  return `${group}\u0000${name}`;
}

function helloProblem(hello: AgentHello | null | undefined): string | undefined {
  if (hello === null || hello === undefined) return 'the first message of a stream is the agent\'s hello';
  for (const f of ['agent_group', 'agent_name'] as const) {
    const v = hello[f];
    if (typeof v !== 'string' || v === '' || v.length > NAME_MAX || /[/\s]/.test(v)) return `hello.${f} must be 1-${NAME_MAX} characters without "/" or spaces`;
  }
  return undefined;
}

function settle(e: Entry, r: FunctionResult): void {
  const p = e.pending.get(r.call_id);
  if (p === undefined) return; // timed out already
  e.pending.delete(r.call_id);
  clearTimeout(p.timer);
  if (r.error !== null && r.error !== undefined && (r.result === null || r.result === undefined)) p.reject(new AgentCallError(r.error.code, r.error.message));
  else p.resolve(structToJson(r.result ?? { fields: {} }));
}
