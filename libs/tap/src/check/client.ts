import * as grpc from '@grpc/grpc-js';
import { serviceClient } from '@sluice/proto';
import { CheckStream, type CheckHTTPStreamCall, type PendingCheck, type StreamEnd } from './check-stream.js';
import { failOpenReason } from './fail-open.js';
import { decodeCheckAnswer, decodeStreamAnswer, type CheckAnswer } from './stream-answer.js';
import { failed, unaryCheck, type CheckHTTPMethod, type CheckOutcome } from './unary-check.js';
import type { CheckHTTPRequest } from './types.js';

export type { CheckOutcome } from './unary-check.js';

/** Channel settings: reconnect quickly after the agent restarts, notice dead peers. */
const CHANNEL_OPTIONS: grpc.ChannelOptions = {
  'grpc.initial_reconnect_backoff_ms': 100,
  'grpc.max_reconnect_backoff_ms': 2000,
  'grpc.keepalive_time_ms': 30_000,
  'grpc.keepalive_timeout_ms': 5_000,
  // A check is never retried (its deadline is short); skipping the retry layer saves a buffer copy per call.
  'grpc.enable_retries': 0,
};

export interface CheckHttpClientOptions {
  credentials?: grpc.ChannelCredentials;
  /** After the agent answered UNIMPLEMENTED for the stream, how long checks go unary before the stream is tried again. Default 60 s. */
  streamProbeMs?: number;
  /** Wait before re-opening a broken stream: doubles from `initial` up to `max` while streams break unanswered. Default 100 ms, 2 s. */
  backoffMs?: { initial: number; max: number };
}

/** Which way checks go: on the stream, or unary (while the stream is backing off, or with an agent without it). */
export type CheckPath = 'stream' | 'unary';

/**
 * CheckHTTP to the agent over one persistent gRPC channel, every request
 * decided by the agent. Checks go on one CheckHTTPStream (ids matched back,
 * answers in any order); each has its own timer of `timeoutMs`. When the
 * stream breaks, the checks waiting on it fail (reason from its status) and
 * the stream is re-opened after a backoff, checks going unary meanwhile.
 * An agent answering UNIMPLEMENTED for the stream (an older one) gets unary
 * CheckHTTP calls, the waiting checks included; the stream is tried again
 * after `streamProbeMs`. A check never throws, it reports a failure instead.
 */
export class CheckHttpClient {
  readonly #client: grpc.Client;
  readonly #unary: CheckHTTPMethod;
  readonly #openStream: () => CheckHTTPStreamCall;
  readonly #probeMs: number;
  readonly #backoff: { initial: number; max: number };
  #stream: CheckStream | undefined;
  #nextId = 1;
  #streamAfter = 0;
  #unanswered = 0;
  #closed = false;

  constructor(agentAddress: string, opts: CheckHttpClientOptions = {}) {
    const Ctor = serviceClient('flowControlHttp');
    this.#client = new Ctor(agentAddress, opts.credentials ?? grpc.credentials.createInsecure(), CHANNEL_OPTIONS);
    const unary = Ctor.service['CheckHTTP'];
    const stream = Ctor.service['CheckHTTPStream'];
    if (unary === undefined || stream === undefined) throw new Error('CheckHTTP or CheckHTTPStream is missing from the FlowControlServiceHTTP client');
    // Answers are decoded for what the tap reads (stream-answer.ts), not as whole messages.
    const client = this.#client;
    this.#unary = (request, options, callback) =>
      client.makeUnaryRequest<Parameters<CheckHTTPMethod>[0], CheckAnswer>(unary.path, unary.requestSerialize, decodeCheckAnswer, request, options, callback);
    this.#openStream = () => client.makeBidiStreamRequest(stream.path, stream.requestSerialize, decodeStreamAnswer) as CheckHTTPStreamCall;
    this.#probeMs = opts.streamProbeMs ?? 60_000;
    this.#backoff = opts.backoffMs ?? { initial: 100, max: 2000 };
  }

  /** Asks the agent; resolves within about `timeoutMs` in every case. */
  check(request: CheckHTTPRequest, timeoutMs: number): Promise<CheckOutcome> {
    const deadline = Date.now() + timeoutMs;
    const stream = this.#currentStream();
    if (stream === undefined) return unaryCheck(this.#unary, request, deadline);
    return new Promise((resolve) => {
      const id = this.#nextId++;
      const check: PendingCheck = { request, deadline, timeoutMs, resolve };
      if (!stream.send(id, check)) resolve(failed('unavailable', new Error('the check stream has ended')));
    });
  }

  /** Which way the next check goes. */
  path(): CheckPath {
    return this.#stream !== undefined || (!this.#closed && Date.now() >= this.#streamAfter) ? 'stream' : 'unary';
  }

  /** The channel's state, connecting it when idle. */
  connectivity(): grpc.connectivityState {
    return this.#client.getChannel().getConnectivityState(true);
  }

  close(): void {
    this.#closed = true;
    const stream = this.#stream;
    this.#stream = undefined;
    stream?.cancel(failed('unavailable', new Error('the check client is closed')));
    this.#client.close();
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

  #ended(stream: CheckStream, end: StreamEnd): void {
    if (this.#stream === stream) this.#stream = undefined;
    if (end.status.code === grpc.status.UNIMPLEMENTED) {
      // An agent without the stream: ask the same questions unary, and keep to unary for a while.
      this.#streamAfter = Date.now() + this.#probeMs;
      for (const check of end.unanswered) void unaryCheck(this.#unary, check.request, check.deadline).then(check.resolve);
      return;
    }
    this.#retryLater(end.answered);
    const reason = end.status.code === grpc.status.OK || end.status.code === grpc.status.CANCELLED ? 'unavailable' : failOpenReason(end.status);
    const error = new Error(`the check stream ended: ${end.status.code} ${end.status.details}`);
    for (const check of end.unanswered) check.resolve(failed(reason, error));
  }

  /** Backoff before the next stream: from the initial wait after a stream that answered, doubling while they do not. */
  #retryLater(answered: boolean): void {
    this.#unanswered = answered ? 0 : this.#unanswered + 1;
    const wait = Math.min(this.#backoff.max, this.#backoff.initial * 2 ** this.#unanswered);
    this.#streamAfter = Date.now() + wait * (0.8 + 0.4 * Math.random());
  }
}
