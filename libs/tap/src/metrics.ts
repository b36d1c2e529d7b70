import { FastCounter, FastHistogram } from '@sluice/telemetry/core';
import { Gauge, Registry } from 'prom-client';
import type { FailOpenReason } from './check/fail-open.js';
import type { FlowEndFailure } from './check/flow-end.js';

/** How the tap settled a request. */
export type TapDecision = 'accepted' | 'rejected' | 'fail_open' | 'fail_closed';

/** Why forwarding to the workload failed. */
export type UpstreamErrorReason = 'connect' | 'timeout' | 'reset' | 'bad_response';

export interface TapMetrics {
  readonly registry: Registry;
  request(decision: TapDecision): void;
  failOpen(reason: FailOpenReason): void;
  checkDuration(seconds: number): void;
  upstreamError(reason: UpstreamErrorReason): void;
  flowEndFailure(reason: FlowEndFailure): void;
  /** 1 while the agent is reachable (or within the grace after start or loss), 0 past it. */
  agentReachable(up: boolean): void;
}

/** The tap's metrics, registered in `registry`. */
export function createTapMetrics(registry: Registry): TapMetrics {
  const requests = new FastCounter({
    name: 'tap_requests_total',
    help: 'Requests seen by the tap, by how they were settled.',
    labelNames: ['decision'] as const,
    registers: [registry],
  });
  const failOpen = new FastCounter({
    name: 'tap_fail_open_total',
    help: 'Requests forwarded (or refused with --fail-closed) without an answer from the agent, by cause.',
    labelNames: ['reason'] as const,
    registers: [registry],
  });
  const checkDuration = new FastHistogram({
    name: 'tap_check_duration_seconds',
    help: 'Duration of CheckHTTP calls to the agent, until the answer or the deadline.',
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1],
    registers: [registry],
  });
  const upstreamErrors = new FastCounter({
    name: 'tap_upstream_errors_total',
    help: 'Requests that failed on the way to or from the workload, by cause.',
    labelNames: ['reason'] as const,
    registers: [registry],
  });
  const flowEndFailures = new FastCounter({
    name: 'tap_flow_end_failures_total',
    help: 'FlowEnd reports that did not reach the agent: dropped (too many under way) or error (the call failed).',
    labelNames: ['reason'] as const,
    registers: [registry],
  });
  const agentReachable = new Gauge({
    name: 'tap_agent_reachable',
    help: 'Whether the tap has a connection to its agent: 0 once it has had none for --agent-unavailable-grace (requests then go through unchecked).',
    registers: [registry],
  });
  agentReachable.set(1);
  for (const r of ['dropped', 'error'] as const) flowEndFailures.inc({ reason: r }, 0);
  for (const d of ['accepted', 'rejected', 'fail_open', 'fail_closed'] as const) requests.inc({ decision: d }, 0);
  for (const r of ['unavailable', 'deadline', 'error'] as const) failOpen.inc({ reason: r }, 0);
  for (const r of ['connect', 'timeout', 'reset', 'bad_response'] as const) upstreamErrors.inc({ reason: r }, 0);
  // Children bound once: a request adds to numbers, no label hashing.
  const byDecision = {
    accepted: requests.child({ decision: 'accepted' }),
    rejected: requests.child({ decision: 'rejected' }),
    fail_open: requests.child({ decision: 'fail_open' }),
    fail_closed: requests.child({ decision: 'fail_closed' }),
  };
  const checkSeconds = checkDuration.child({});
  return {
    registry,
    request: (decision) => byDecision[decision].inc(),
    failOpen: (reason) => failOpen.inc({ reason }),
    checkDuration: (seconds) => checkSeconds.observe(seconds),
    upstreamError: (reason) => upstreamErrors.inc({ reason }),
    flowEndFailure: (reason) => flowEndFailures.inc({ reason }),
    agentReachable: (up) => agentReachable.set(up ? 1 : 0),
  };
}
