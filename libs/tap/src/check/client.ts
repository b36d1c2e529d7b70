import type { Lifecycle } from '@sluice/lifecycle';
// The module alone: the package's index loads the gRPC and HTTP clients and the configuration schema.
import { Backoff } from '@sluice/clients/backoff';
import type { BackoffConfig } from '@sluice/clients';
import { AGENT_RETRY_BACKOFF, AgentConnection, type AgentConnectionOptions, type ConnectionState } from './agent-connection.js';
import { checkMethodPath } from './check-protos.js';
import { CheckStream, type OpenStream, type PendingCheck, type StreamEnd } from './check-stream.js';
import { failOpenReason } from './fail-open.js';
import { FlowEndClient, type FlowEndClientOptions } from './flow-end.js';
import { GrpcCall, GrpcCode } from './grpc-call.js';
import { failed, grpcHeaders, unaryCheck, type CheckOutcome, type OpenRequest } from './unary-check.js';
import type { CheckHTTPRequest } from './types.js';

export type { CheckOutcome } from './unary-check.js';

export interface CheckHttpClientOptions {
  /** The connection to the agent: TLS, keepalive, redial backoff. */
  connection?: AgentConnectionOptions;
  /** After the agent answered UNIMPLEMENTED for the stream, how long checks go unary before the stream is tried again. Default 60 s. */
  streamProbeMs?: number;
  /** Wait before re-opening a broken stream, growing while streams break unanswered; a key left out takes AGENT_RETRY_BACKOFF's. */
  backoff?: Partial<BackoffConfig>;
}

/** Which way checks go: on the stream, or unary (while the stream is backing off, or with an agent without it). */
export type CheckPath = 'stream' | 'unary';

/**
 * CheckHTTP to the agent over one HTTP/2 connection (gRPC's wire protocol on
 * node:http2: agent-connection.ts, grpc-call.ts), every request decided by
 * the agent. Checks go on one CheckHTTPStream (ids matched back, answers in
 * any order); each has its deadline. When the stream breaks, the checks
 * waiting on it fail (reason from its status) and the stream is re-opened
 * after a backoff, checks going unary meanwhile. An agent answering
 * UNIMPLEMENTED for the stream (an older one) gets unary CheckHTTP calls,
 * the waiting checks included; the stream is tried again after
 * `streamProbeMs`. With no connection to the agent (it is down, the
 * connection is backing off), checks fail at once as unavailable. A check
 * never throws, it reports a failure instead.
 */
export class CheckHttpClient implements Lifecycle {
  readonly #connection: AgentConnection;
  readonly #request: OpenRequest;
  readonly #openStream: OpenStream;
  readonly #unaryPath = checkMethodPath('CheckHTTP');
  readonly #probeMs: number;
  readonly #backoff: Backoff;
  #stream: CheckStream | undefined;
  #nextId = 1;
  #streamAfter = 0;
  #closed = false;

  constructor(agentAddress: string, opts: CheckHttpClientOptions = {}) {
    const connection = new AgentConnection(agentAddress, { ...opts.connection, onGoaway: (session) => this.#goaway(session) });
    this.#connection = connection;
    this.#request = (headers) => connection.request(headers);
    const streamHeaders = grpcHeaders(checkMethodPath('CheckHTTPStream'));
    this.#openStream = (handlers) => {
      const stream = connection.request(streamHeaders);
      return stream === undefined ? undefined : new GrpcCall(stream, handlers);
    };
    this.#probeMs = opts.streamProbeMs ?? 60_000;
    this.#backoff = new Backoff({ ...AGENT_RETRY_BACKOFF, ...opts.backoff });
  }

  /** Asks the agent; resolves within about `timeoutMs` in every case. */
  check(request: CheckHTTPRequest, timeoutMs: number): Promise<CheckOutcome> {
    const deadline = Date.now() + timeoutMs;
    const stream = this.#currentStream();
    if (stream === undefined) return unaryCheck(this.#request, this.#unaryPath, request, deadline);
    return new Promise((resolve) => {
      const id = this.#nextId++;
      const check: PendingCheck = { request, deadline, timeoutMs, resolve };
      if (!stream.send(id, check)) resolve(failed('unavailable', new Error('the check stream has ended or is backed up')));
    });
  }

  /** Which way the next check goes. */
  path(): CheckPath {
    return this.#stream !== undefined || (!this.#closed && Date.now() >= this.#streamAfter) ? 'stream' : 'unary';
  }

  /** The connection's state. */
  connectivity(): ConnectionState {
    return this.#connection.state();
  }

  /** Why the last connection to the agent failed ('' when none has). */
  lastError(): string {
    return this.#connection.lastError();
  }

  /** FlowEnd reports to the agent on this client's connection (closing them leaves the connection open). */
  flowEnds(opts: FlowEndClientOptions = {}): FlowEndClient {
    return new FlowEndClient(this.#request, opts);
  }

  /** Dials the agent now rather than at the first check. */
  connect(): void {
    this.#connection.connect();
  }

  /** Ends the stream under way (UNAVAILABLE) and closes the connection. */
  async shutdown(): Promise<void> {
    this.#closed = true;
    const stream = this.#stream;
    this.#stream = undefined;
    stream?.cancel(failed('unavailable', new Error('the check client is closed')));
    await this.#connection.shutdown();
  }

  #currentStream(): CheckStream | undefined {
    if (this.#stream !== undefined || this.#closed || Date.now() < this.#streamAfter) return this.#stream;
    try {
      const stream: CheckStream = new CheckStream(this.#openStream, (end) => this.#ended(stream, end));
      this.#stream = stream;
    } catch {
      this.#retryLater(false);
    }
    return this.#stream;
  }

  /** The agent is going away (a restart, a shutdown): the stream on that connection takes no more checks, the next opens on a new one. */
  #goaway(session: unknown): void {
    const stream = this.#stream;
    if (stream === undefined || !stream.isOn(session)) return;
    this.#stream = undefined;
    stream.retire();
  }

  #ended(stream: CheckStream, end: StreamEnd): void {
    const current = this.#stream === stream;
    if (current) this.#stream = undefined;
    if (end.status.code === GrpcCode.UNIMPLEMENTED) {
      // An agent without the stream: ask the same questions unary, and keep to unary for a while.
      this.#streamAfter = Date.now() + this.#probeMs;
      for (const check of end.unanswered) void unaryCheck(this.#request, this.#unaryPath, check.request, check.deadline).then(check.resolve);
      return;
    }
    if (current) this.#retryLater(end.answered);
    const reason = end.status.code === GrpcCode.OK || end.status.code === GrpcCode.CANCELLED ? 'unavailable' : failOpenReason(end.status);
    const error = new Error(`the check stream ended: ${end.status.code} ${end.status.details}`);
    for (const check of end.unanswered) check.resolve(failed(reason, error));
  }

  /** Backoff before the next stream: from the initial wait after a stream that answered, growing while they do not. */
  #retryLater(answered: boolean): void {
    if (answered) this.#backoff.reset();
    this.#streamAfter = Date.now() + this.#backoff.next();
  }
}
