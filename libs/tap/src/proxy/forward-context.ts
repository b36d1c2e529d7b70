import type http from 'node:http';
import type { Pool } from 'undici';
import type { FlowEndSink, FlowToEnd } from '../check/flow-end.js';
import type { TapMetrics } from '../metrics.js';
import { ErrorCode } from '@sluice/errors';
import type { Logger } from '@sluice/telemetry/logger';

export interface UpstreamTarget {
  host: string;
  port: number;
}

export interface ForwardContext {
  upstream: UpstreamTarget;
  /** Keep-alive agent for the workload's connections (requests streaming a body, waiting for 100, with trailers). */
  agent: http.Agent;
  /** The workload's connections for requests whose body is in hand (undefined: everything goes through `agent`). */
  pool: Pool | undefined;
  /** Longest silence from the workload before 504 (0: none). */
  upstreamTimeoutMs: number;
  /** Largest response head accepted from the workload (past it 502). */
  maxResponseHeaderBytes: number;
  /** Most header fields accepted in a response head from the workload (past it 502, counted as bad_response); the same bound holds for its trailers. */
  maxResponseHeaders: number;
  /** Most header fields a request may have (past it 431); the same bound holds for its trailers. */
  maxRequestHeaders: number;
  /** Control point of the flows whose end is reported. */
  controlPoint: string;
  /** Where the end of flows the agent measures goes. */
  flowEnds: FlowEndSink;
  metrics: TapMetrics;
  logger: Logger;
  /** True once shutdown began: responses then close their connection. */
  draining(): boolean;
}

/** A response from the workload the tap will not relay (502). */
export class BadUpstreamResponseError extends Error {
  readonly code = ErrorCode.BAD_UPSTREAM_RESPONSE;
  constructor(message: string) {
    super(message);
    this.name = 'BadUpstreamResponseError';
  }
}

/** Reports the flow's end (when the agent asked for it) once the client's response is over. */
export function reportFlowEnd(ctx: ForwardContext, flow: FlowToEnd | undefined, status: () => number): (() => void) | undefined {
  if (flow === undefined) return undefined;
  let done = false;
  return () => {
    if (done) return;
    done = true;
    ctx.flowEnds.report({ controlPoint: ctx.controlPoint, flowId: flow.flowId, statusCode: status(), durationMs: performance.now() - flow.startedAt });
  };
}

