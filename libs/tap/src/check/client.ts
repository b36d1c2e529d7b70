import * as grpc from '@grpc/grpc-js';
import { serviceClient } from '@sluice/proto';
import { failOpenReason, type FailOpenReason } from './fail-open.js';
import type { CheckHTTPRequest, CheckHTTPResponse } from './types.js';

/** The agent's answer, or why there is none. */
export type CheckOutcome =
  | { kind: 'answer'; response: CheckHTTPResponse }
  | { kind: 'failed'; reason: FailOpenReason; error: Error };

type CheckHTTPMethod = (
  request: CheckHTTPRequest,
  options: grpc.CallOptions,
  callback: (err: grpc.ServiceError | null, response?: CheckHTTPResponse) => void,
) => grpc.ClientUnaryCall;

/** Channel settings: reconnect quickly after the agent restarts, notice dead peers. */
const CHANNEL_OPTIONS: grpc.ChannelOptions = {
  'grpc.initial_reconnect_backoff_ms': 100,
  'grpc.max_reconnect_backoff_ms': 2000,
  'grpc.keepalive_time_ms': 30_000,
  'grpc.keepalive_timeout_ms': 5_000,
  // A check is never retried (its deadline is short); skipping the retry layer saves a buffer copy per call.
  'grpc.enable_retries': 0,
};

/**
 * CheckHTTP calls to the agent over one persistent gRPC channel. Every call
 * has a deadline; a call never throws, it reports a failure instead.
 */
export class CheckHttpClient {
  readonly #client: grpc.Client;
  readonly #call: CheckHTTPMethod;

  constructor(agentAddress: string, credentials: grpc.ChannelCredentials = grpc.credentials.createInsecure()) {
    const Ctor = serviceClient('flowControlHttp');
    this.#client = new Ctor(agentAddress, credentials, CHANNEL_OPTIONS);
    const method = (this.#client as unknown as Record<string, CheckHTTPMethod>)['CheckHTTP'];
    if (method === undefined) throw new Error('CheckHTTP is missing from the FlowControlServiceHTTP client');
    this.#call = method.bind(this.#client);
  }

  /** Asks the agent; resolves within `timeoutMs` (the gRPC deadline) in every case. */
  check(request: CheckHTTPRequest, timeoutMs: number): Promise<CheckOutcome> {
    return new Promise((resolve) => {
      try {
        this.#call(request, { deadline: Date.now() + timeoutMs }, (err, response) => {
          if (err !== null) resolve({ kind: 'failed', reason: failOpenReason(err), error: err });
          else if (response === undefined) resolve({ kind: 'failed', reason: 'error', error: new Error('empty CheckHTTP response') });
          else resolve({ kind: 'answer', response });
        });
      } catch (err) {
        // Serialization of a malformed request, or a closed channel.
        resolve({ kind: 'failed', reason: 'error', error: err instanceof Error ? err : new Error(String(err)) });
      }
    });
  }

  /** The channel's state, connecting it when idle. */
  connectivity(): grpc.connectivityState {
    return this.#client.getChannel().getConnectivityState(true);
  }

  close(): void {
    this.#client.close();
  }
}
