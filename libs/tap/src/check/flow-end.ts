import * as grpc from '@grpc/grpc-js';
import { serviceClient, type FlowEndRequest, type FlowEndResponse__Output } from '@sluice/proto';

/** A flow the agent asked to hear the end of (check_response.expect_end), and when its check began. */
export interface FlowToEnd {
  readonly flowId: string;
  /** performance.now() when the check began. */
  readonly startedAt: number;
}

/** What the tap tells the agent when such a flow has ended. */
export interface FlowEndReport {
  controlPoint: string;
  flowId: string;
  /** The workload's status, or 502 when the workload did not answer. */
  statusCode: number;
  durationMs: number;
}

/** Why a FlowEnd report did not reach the agent. */
export type FlowEndFailure = 'dropped' | 'error';

/** Reports flow ends without waiting: never throws, never blocks the request. */
export interface FlowEndSink {
  report(flow: FlowEndReport): void;
  close(): void;
}

/** A sink that reports nothing (no agent to tell). */
export const NO_FLOW_ENDS: FlowEndSink = { report: () => undefined, close: () => undefined };

type FlowEndMethod = (request: FlowEndRequest, options: grpc.CallOptions, callback: (err: grpc.ServiceError | null, response?: FlowEndResponse__Output) => void) => grpc.ClientUnaryCall;

export interface FlowEndClientOptions {
  /** Most reports under way at once; more are dropped and counted (default 1024). */
  maxInFlight?: number;
  /** Deadline of one FlowEnd call (default 5 s). */
  timeoutMs?: number;
  /** Counts reports that did not reach the agent. */
  onFailure?(reason: FlowEndFailure): void;
}

/** The FlowEnd request of a report: the duration as a google.protobuf.Duration. */
export function flowEndRequestOf(flow: FlowEndReport): FlowEndRequest {
  const ms = Math.max(0, flow.durationMs);
  const seconds = Math.floor(ms / 1000);
  return {
    control_point: flow.controlPoint,
    flow_id: flow.flowId,
    status_code: flow.statusCode,
    duration: { seconds, nanos: Math.round((ms - seconds * 1000) * 1e6) },
  };
}

/**
 * FlowEnd calls to the agent (aperture.flowcontrol.check.v1.FlowControlService),
 * fire and forget: at most `maxInFlight` under way, each with a deadline; a
 * report past the bound or a failed call is counted, not retried.
 */
export class FlowEndClient implements FlowEndSink {
  readonly #client: grpc.Client;
  readonly #call: FlowEndMethod;
  readonly #max: number;
  readonly #timeoutMs: number;
  readonly #onFailure: (reason: FlowEndFailure) => void;
  #inFlight = 0;
  #closed = false;

  constructor(agentAddress: string, opts: FlowEndClientOptions & { credentials?: grpc.ChannelCredentials; channelOptions?: grpc.ChannelOptions } = {}) {
    const Ctor = serviceClient('flowControl');
    this.#client = new Ctor(agentAddress, opts.credentials ?? grpc.credentials.createInsecure(), opts.channelOptions ?? {});
    const method = (this.#client as unknown as Record<string, ((...args: never[]) => unknown) | undefined>)['FlowEnd'];
    if (method === undefined) throw new Error('FlowEnd is missing from the FlowControlService client');
    this.#call = method.bind(this.#client) as unknown as FlowEndMethod;
    this.#max = opts.maxInFlight ?? 1024;
    this.#timeoutMs = opts.timeoutMs ?? 5000;
    this.#onFailure = opts.onFailure ?? (() => undefined);
  }

  /** Reports under way now. */
  get inFlight(): number {
    return this.#inFlight;
  }

  report(flow: FlowEndReport): void {
    if (this.#closed || this.#inFlight >= this.#max) {
      this.#onFailure('dropped');
      return;
    }
    this.#inFlight++;
    try {
      this.#call(flowEndRequestOf(flow), { deadline: Date.now() + this.#timeoutMs }, (err) => {
        this.#inFlight--;
        if (err !== null) this.#onFailure('error');
      });
    } catch {
      this.#inFlight--;
      this.#onFailure('error');
    }
  }

  close(): void {
    this.#closed = true;
    this.#client.close();
  }
}

/** The FlowEnd client of a tap: plaintext, or TLS with the PEM material of its agent TLS flags. */
export function flowEndClientOf(agent: string, tls: { ca?: Buffer; cert?: Buffer; key?: Buffer } | undefined, onFailure: (reason: FlowEndFailure) => void): FlowEndClient {
  const credentials = tls === undefined ? undefined : grpc.credentials.createSsl(tls.ca ?? null, tls.key ?? null, tls.cert ?? null);
  return new FlowEndClient(agent, { onFailure, ...(credentials === undefined ? {} : { credentials }) });
}
