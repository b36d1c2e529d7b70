import type { IncomingMessage } from 'node:http';
import type { TapLogger } from '../logger.js';
import type { TapMetrics } from '../metrics.js';
import type { CheckOutcome } from './client.js';
import { decisionOf, type Decision } from './decision.js';
import { checkRequestOf, type BodySample } from './request-attributes.js';
import type { CheckHTTPRequest } from './types.js';

/** Anything that answers CheckHTTP within a deadline (the gRPC client in production). */
export interface Checker {
  check(request: CheckHTTPRequest, timeoutMs: number): Promise<CheckOutcome>;
}

export interface AskContext {
  checker: Checker;
  controlPoint: string;
  checkTimeoutMs: number;
  failClosed: boolean;
  metrics: TapMetrics;
  logger: TapLogger;
}

/** What to do with a request: the agent's decision, or the fallback when it did not answer. */
export type Verdict = Decision | { kind: 'fail_open' } | { kind: 'fail_closed' };

/** Asks the agent about `req` and records the outcome in the metrics. */
export async function askAgent(ctx: AskContext, req: IncomingMessage, body: BodySample): Promise<Verdict> {
  const started = performance.now();
  const outcome = await ctx.checker.check(checkRequestOf(req, ctx.controlPoint, body), ctx.checkTimeoutMs);
  ctx.metrics.checkDuration((performance.now() - started) / 1000);
  if (outcome.kind === 'failed') {
    ctx.metrics.failOpen(outcome.reason);
    ctx.logger.debug('no answer from the agent', { reason: outcome.reason, error: outcome.error.message });
    const verdict = ctx.failClosed ? 'fail_closed' : 'fail_open';
    ctx.metrics.request(verdict);
    return { kind: verdict };
  }
  const decision = decisionOf(outcome.response, started);
  ctx.metrics.request(decision.kind === 'ok' ? 'accepted' : 'rejected');
  return decision;
}
