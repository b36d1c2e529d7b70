import type { Lifecycle } from '@sluice/lifecycle';
import type protobuf from 'protobufjs';
import type { FlowEndRequest } from '@sluice/proto';
import { checkProtos } from './check-protos.js';
import { GrpcCall, GrpcCode } from './grpc-call.js';
import { frameOf } from './grpc-frames.js';
import { grpcHeaders, type OpenRequest } from './unary-check.js';

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
export interface FlowEndSink extends Lifecycle {
  report(flow: FlowEndReport): void;
}

/** A sink that reports nothing (no agent to tell). */
export const NO_FLOW_ENDS: FlowEndSink = { report: () => undefined, shutdown: async () => undefined };

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

let flowEndType: protobuf.Type | undefined;
let flowEndPath: string | undefined;

/** aperture.flowcontrol.check.v1.FlowControlService/FlowEnd: its path and request type, from check.proto. */
function flowEndMethod(): { path: string; type: protobuf.Type } {
  if (flowEndType === undefined || flowEndPath === undefined) {
    const service = checkProtos().lookupService('aperture.flowcontrol.check.v1.FlowControlService');
    const m = service.methods.FlowEnd;
    if (m === undefined) throw new Error('FlowEnd is missing from FlowControlService');
    flowEndPath = `/${service.fullName.slice(1)}/${m.name}`;
    flowEndType = checkProtos().lookupType('aperture.flowcontrol.check.v1.FlowEndRequest');
  }
  return { path: flowEndPath, type: flowEndType };
}

/**
 * FlowEnd calls to the agent (aperture.flowcontrol.check.v1.FlowControlService) on the
 * connection the checks use (`open`), fire and forget: at most `maxInFlight` under way, each
 * with a deadline; a report past the bound or a failed call is counted, not retried. The
 * connection stays its owner's: `close` stops the reports only.
 */
export class FlowEndClient implements FlowEndSink {
  readonly #open: OpenRequest;
  readonly #max: number;
  readonly #timeoutMs: number;
  readonly #onFailure: (reason: FlowEndFailure) => void;
  #inFlight = 0;
  #closed = false;

  constructor(open: OpenRequest, opts: FlowEndClientOptions = {}) {
    this.#open = open;
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
    let stream: ReturnType<OpenRequest>;
    let frame: Buffer | undefined;
    try {
      const method = flowEndMethod();
      frame = frameOf(method.type.encode(flowEndRequestOf(flow)).finish());
      stream = this.#open(grpcHeaders(method.path, this.#timeoutMs));
    } catch {
      stream = undefined;
    }
    if (stream === undefined || frame === undefined) {
      this.#onFailure('error');
      return;
    }
    this.#inFlight++;
    const call = new GrpcCall(stream, {
      message: () => undefined,
      status: (status) => {
        clearTimeout(timer);
        this.#inFlight--;
        if (status.code !== GrpcCode.OK) this.#onFailure('error');
      },
    });
    const timer = setTimeout(() => call.cancel('deadline exceeded'), this.#timeoutMs);
    timer.unref();
    call.write(frame);
    call.end();
  }

  /** Takes no more reports (those under way finish on their own). */
  async shutdown(): Promise<void> {
    this.#closed = true;
  }
}
