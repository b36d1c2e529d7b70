import type { TapMetrics } from '../metrics.js';
import type { CheckOutcome } from './client.js';
import type { FailOpenReason } from './fail-open.js';
import { decisionOf, type Decision } from './decision.js';
import { InterestFilter } from './interest-filter.js';
import { checkRequestOf, type BodySample, type CheckedRequest } from './request-attributes.js';
import type { CheckHTTPRequest } from './types.js';
import type { Logger } from '@sluice/telemetry/logger';

/**
 * Anything that answers CheckHTTP within a deadline (the gRPC client to a separate agent; the
 * engine of this process for the in-process tap, which answers at once when the engine decides
 * at once).
 */
export interface Checker {
  check(request: CheckHTTPRequest, timeoutMs: number): CheckOutcome | Promise<CheckOutcome>;
}

export interface AskContext {
  checker: Checker;
  controlPoint: string;
  checkTimeoutMs: number;
  failClosed: boolean;
  metrics: TapMetrics;
  logger: Logger;
  /** The agent's header interest for the control point; made at the first check when absent. */
  interest?: InterestFilter;
}

/** The context's interest filter, made when it has none yet. */
export function interestOf(ctx: AskContext): InterestFilter {
  return (ctx.interest ??= new InterestFilter());
}

/** What to do with a request: the agent's decision, or the fallback (and why) when it did not answer. */
export type Verdict = Decision | { kind: 'fail_open'; reason: FailOpenReason } | { kind: 'fail_closed'; reason: FailOpenReason };

/**
 * Asks the agent about `req` and records the outcome in the metrics. The
 * request carries what the agent's header interest asks for. When the agent
 * answers resend_unfiltered (its interest changed since the one this
 * request was filtered by), the request is asked again at once with every
 * header and the body (`readBody` reads it when it was not read for the
 * first ask), under its own `checkTimeoutMs`: such a request waits at most
 * two check timeouts. The agent never decides on a stale filter. `readBody`
 * is also used before the first ask when the interest has come to want the
 * body since the caller chose not to read it. `timeoutMs` (default
 * `ctx.checkTimeoutMs`) bounds each ask: a caller with a shorter deadline
 * (a gRPC call's) passes what is left of it. The verdict is given at once
 * (not a promise) when the checker answered at once and nothing had to be
 * read or asked again.
 */
export function askAgent(ctx: AskContext, req: CheckedRequest, body: BodySample, readBody?: () => Promise<BodySample>, timeoutMs = ctx.checkTimeoutMs): Verdict | Promise<Verdict> {
  const interest = interestOf(ctx);
  const started = performance.now();
  // The interest may have come to want the body since the caller chose not to read it: read it now, so that
  // the check carries what its generation promises.
  if (readBody !== undefined && interest.wantsBody()) {
    return readBody().then(async (sample) => settle(ctx, await ask(ctx, req, sample, undefined, interest, timeoutMs), started));
  }
  const first = ctx.checker.check(checkRequestOf(req, ctx.controlPoint, body, interest), timeoutMs);
  if (first instanceof Promise || (first.kind === 'answer' && first.response.resend_unfiltered === true)) {
    return Promise.resolve(first).then(async (outcome) => settle(ctx, await askAgain(ctx, req, body, readBody, interest, timeoutMs, outcome), started));
  }
  return settle(ctx, first, started);
}

/** The first ask with `sample` and, when the agent says so, the unfiltered one. */
async function ask(ctx: AskContext, req: CheckedRequest, sample: BodySample, readBody: (() => Promise<BodySample>) | undefined, interest: InterestFilter, timeoutMs: number): Promise<CheckOutcome> {
  const outcome = await ctx.checker.check(checkRequestOf(req, ctx.controlPoint, sample, interest), timeoutMs);
  return askAgain(ctx, req, sample, readBody, interest, timeoutMs, outcome);
}

/** The outcome of the first ask, or of the unfiltered ask when the first answer was resend_unfiltered. */
async function askAgain(
  ctx: AskContext, req: CheckedRequest, sample: BodySample, readBody: (() => Promise<BodySample>) | undefined, interest: InterestFilter, timeoutMs: number,
  outcome: CheckOutcome,
): Promise<CheckOutcome> {
  if (outcome.kind !== 'answer' || outcome.response.resend_unfiltered !== true) return outcome;
  interest.update(outcome.response.header_interest, true);
  ctx.logger.debug('the agent\'s header interest changed; asking again with every header', { generation: interest.generation });
  const full = readBody === undefined ? sample : await readBody();
  return ctx.checker.check(checkRequestOf(req, ctx.controlPoint, full), timeoutMs);
}

/** The verdict of the (last) outcome, recorded in the metrics; the interest of an answer is taken. */
function settle(ctx: AskContext, outcome: CheckOutcome, started: number): Verdict {
  if (outcome.kind === 'answer') interestOf(ctx).update(outcome.response.header_interest, false);
  ctx.metrics.checkDuration((performance.now() - started) / 1000);
  if (outcome.kind === 'failed') {
    ctx.metrics.failOpen(outcome.reason);
    ctx.logger.debug('no answer from the agent', { reason: outcome.reason, error: outcome.error.message });
    const verdict = ctx.failClosed ? 'fail_closed' : 'fail_open';
    ctx.metrics.request(verdict);
    return { kind: verdict, reason: outcome.reason };
  }
  const decision = decisionOf(outcome.response, started);
  ctx.metrics.request(decision.kind === 'ok' ? 'accepted' : 'rejected');
  return decision;
}
