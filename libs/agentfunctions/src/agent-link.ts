import { onceShutdown, type Lifecycle } from '@sluice/lifecycle';
import { setTimeout as sleep } from 'node:timers/promises';
import * as grpc from '@grpc/grpc-js';
import { Backoff, grpcClientOptions, type GRPCClientConfig, type ProxyConfig } from '@sluice/clients';
import { jsonToStruct, structToJson, type JsonObject } from '@sluice/proto';
import type { InjectReply, InjectRequest, Logger } from '@sluice/server';
import { agentFunctionsService, HTTP_FUNCTION, type AgentHello, type ControllerMessage, type FunctionCall, type FunctionResult, type HttpCallArgs } from './protocol.js';
import { allowedAgentRoute } from './routes-allowed.js';

export interface AgentLinkOptions {
  /** The controllers to connect to (host:port), `agent_functions.endpoints`. */
  endpoints: readonly string[];
  /** `agent_functions.client.grpc`: TLS, backoff between connection attempts. */
  grpc: GRPCClientConfig;
  proxy?: ProxyConfig;
  /**
   * Who the agent is, read at each connection; undefined until the agent's server listens (its
   * address is part of it): the first connection waits for it.
   */
  hello(): Omit<AgentHello, 'functions'> | undefined;
  /** Runs a request through the agent's own HTTP routes (the server's `inject`). */
  inject(r: InjectRequest): Promise<InjectReply>;
  logger?: Logger;
  /**
   * The bearer token presented on each stream (`authorization: Bearer <token>`, for a controller
   * with server.auth), read at each connection so a rotated token is picked up; undefined: none.
   */
  token?(): string | undefined;
  /** A result larger than this (JSON bytes) is answered with RESOURCE_EXHAUSTED (default 3 MiB). */
  maxResultBytes?: number;
}

const RESOURCE_EXHAUSTED = 8;
const INVALID_ARGUMENT = 3;
const UNIMPLEMENTED = 12;
const PERMISSION_DENIED = 7;
const INTERNAL = 13;
const UNAUTHENTICATED = 16;
/** A session that lasted this long counts as a success: the next failure starts the backoff over. */
const STABLE_MS = 10_000;

type Stream = grpc.ClientDuplexStream<unknown, ControllerMessage>;

/**
 * The agent's name among the agents of a controller: its host name, which is the pod's name in
 * Kubernetes; elsewhere the host name and the process id (agents of one host are told apart).
 */
export function agentName(hostname: string, pid: number, env: Readonly<Record<string, string | undefined>>): string {
  const host = hostname.replace(/[/\s]/g, '-') || 'agent';
  return env.KUBERNETES_SERVICE_HOST !== undefined ? host : `${host}-${pid}`;
}

/**
 * The agent's side of agent functions: one stream to each endpoint, opened again with the client's
 * backoff after it breaks (a controller restart, a network cut), on which the agent says who it is
 * and answers the controller's calls. The one function is `http`: a read-only route of the agent
 * (allowed-routes.ts) run in process through the agent's own routes.
 */
export class AgentLink implements Lifecycle {
  private stopped = new AbortController();
  private readonly streams = new Set<Stream>();
  private readonly connected = new Set<string>();
  private runs: Promise<void>[] = [];

  constructor(private readonly opts: AgentLinkOptions) {}

  async start(): Promise<void> {
    if (this.runs.length > 0 || this.stopped.signal.aborted) return;
    this.runs = this.opts.endpoints.map((e) => this.run(e));
  }

  /** Endpoints with an open stream. */
  connectedEndpoints(): string[] {
    return [...this.connected];
  }

  /** Cancels the streams and stops reconnecting; waits for the streams' loops to end. */
  readonly shutdown = onceShutdown('agent functions link', async () => {
    this.stopped.abort();
    for (const s of this.streams) s.cancel();
    await Promise.all(this.runs);
  });

  private async run(endpoint: string): Promise<void> {
    const backoff = new Backoff(this.opts.grpc.backoff);
    const Ctor = agentFunctionsService();
    // The first hello needs the agent's own address: wait until its server listens.
    while (this.opts.hello() === undefined) {
      try {
        await sleep(50, undefined, { signal: this.stopped.signal });
      } catch {
        return;
      }
    }
    while (!this.stopped.signal.aborted) {
      let why: string;
      const started = Date.now();
      try {
        const o = grpcClientOptions(this.opts.grpc, endpoint, this.opts.proxy);
        const client = new Ctor(o.target, o.credentials, {
          ...o.options,
          'grpc.keepalive_time_ms': 30_000,
          'grpc.keepalive_timeout_ms': 10_000,
          'grpc.max_receive_message_length': 16 << 20,
        });
        why = await this.session(client, endpoint);
        client.close();
      } catch (err) {
        why = err instanceof Error ? err.message : String(err);
      }
      if (this.stopped.signal.aborted) return;
      if (Date.now() - started >= STABLE_MS) backoff.reset();
      const delay = backoff.next();
      this.opts.logger?.warn('agent functions: no stream to the controller; connecting again', { endpoint, error: why, retry_in_ms: Math.round(delay) });
      try {
        await sleep(delay, undefined, { signal: this.stopped.signal });
      } catch {
        return;
      }
    }
  }

  /** One stream: hello, then calls answered until it ends; answers why it ended. */
  private session(client: grpc.Client, endpoint: string): Promise<string> {
    return new Promise((resolve) => {
      const metadata = new grpc.Metadata();
      const token = this.opts.token?.();
      if (token !== undefined && token !== '') metadata.set('authorization', `Bearer ${token}`);
      const stream = (client as unknown as { Connect(m: grpc.Metadata): Stream }).Connect(metadata);
      this.streams.add(stream);
      let done = false;
      const end = (why: string): void => {
        if (done) return;
        done = true;
        this.streams.delete(stream);
        this.connected.delete(endpoint);
        resolve(why);
      };
      stream.on('data', (msg: ControllerMessage) => {
        if (!this.connected.has(endpoint)) {
          this.connected.add(endpoint);
          this.opts.logger?.info('agent functions: connected', { endpoint });
        }
        if (msg.call !== null && msg.call !== undefined) void this.answer(stream, msg.call);
      });
      stream.on('metadata', () => {
        if (!this.connected.has(endpoint)) {
          this.connected.add(endpoint);
          this.opts.logger?.info('agent functions: connected', { endpoint });
        }
      });
      stream.on('error', (err: grpc.ServiceError) => {
        if (err.code === UNAUTHENTICATED) {
          this.opts.logger?.error('agent functions: the controller refused the stream\'s bearer token (agent_functions.token_file or token)', { endpoint, error: err.details });
        }
        end(err.details || err.message);
      });
      stream.on('end', () => end('the controller ended the stream'));
      stream.write({ hello: { ...(this.opts.hello() as Omit<AgentHello, 'functions'>), functions: [HTTP_FUNCTION] } });
    });
  }

  private async answer(stream: Stream, call: FunctionCall): Promise<void> {
    const reply = (r: Omit<FunctionResult, 'call_id'>): void => {
      if (!stream.writable) return;
      stream.write({ result: { call_id: call.call_id, ...r } });
    };
    if (call.function !== HTTP_FUNCTION) return reply({ error: { code: UNIMPLEMENTED, message: `no agent function ${JSON.stringify(call.function)}` } });
    const args = structToJson(call.args ?? { fields: {} }) as Partial<HttpCallArgs>;
    if ((args.method !== 'GET' && args.method !== 'POST') || typeof args.path !== 'string') {
      return reply({ error: { code: INVALID_ARGUMENT, message: 'an http call needs method (GET or POST) and path' } });
    }
    if (!allowedAgentRoute(args.method, args.path)) {
      return reply({ error: { code: PERMISSION_DENIED, message: `${args.method} ${args.path.split('?')[0]} is not an agent function` } });
    }
    try {
      const r = await this.opts.inject({ method: args.method, path: args.path, ...(args.body !== undefined ? { body: args.body } : {}) });
      const size = Buffer.byteLength(JSON.stringify(r.body ?? null));
      const max = this.opts.maxResultBytes ?? 3 << 20;
      if (size > max) return reply({ error: { code: RESOURCE_EXHAUSTED, message: `the answer is ${size} bytes, over the limit of ${max}` } });
      reply({ result: jsonToStruct({ status: r.status, body: (r.body ?? null) as JsonObject }) });
    } catch (err) {
      reply({ error: { code: INTERNAL, message: err instanceof Error ? err.message : String(err) } });
    }
  }
}
