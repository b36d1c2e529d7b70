import type { Lifecycle } from '@sluice/lifecycle';
import type { ComponentIdentity, DecideContext, Limiter, LimiterResult } from '@sluice/flowcontrol';
import type { FlowLabels } from '@sluice/selectors';
import { realClock, type SchedulerClock } from './clock.js';
import { FairQueue, type DropReason, type QueuedFlow } from './fair-queue.js';
import type { ComponentMetrics, RejectReason, SchedulerGauges, SchedulerMetrics } from './metrics.js';
import { parseSchedulerParameters, type SchedulerParameters } from './parameters.js';
import { LOAD_SCHEDULER_KIND } from './scheduler-kind.js';
import { TokenEstimator } from './token-estimator.js';
import { TokenPacer } from './token-pacer.js';
import { TokenRate } from './token-rate.js';
import { labelOf, WorkloadTable, type MatchedWorkload } from './workloads.js';

/** The controller's live numbers for a load scheduler. */
export interface LoadSchedulerDecision {
  /** Admitted ÷ incoming token rate, >= 0. */
  load_multiplier: number;
  /** Admit every flow. */
  pass_through: boolean;
}

/** A DecideContext that may carry the caller's cancellation. */
export interface SchedulerDecideContext extends DecideContext {
  /** Aborted when the caller goes away: a waiting flow leaves the queue at once. */
  readonly signal?: AbortSignal;
}

export interface LoadSchedulerOptions {
  identity: ComponentIdentity;
  /** Published parameters (checked here: InvalidArgumentError), or already parsed ones. */
  parameters: unknown;
  metrics?: SchedulerMetrics;
  clock?: SchedulerClock;
  /** Window of the incoming token rate. Default 1000 ms. */
  windowMs?: number;
  /**
   * Tokens that may pass at once, as milliseconds of the allowed rate (flows that arrive together
   * need not queue while the rate has room). Default 100 ms; 0 paces every flow.
   */
  burstMs?: number;
  /**
   * Longest wait of any flow, whatever its timeout: the engine lets an
   * asynchronous limiter through past its own budget (1 s by default), so a
   * scheduler must answer before. Default 900 ms.
   */
  maxWaitMs?: number;
  /** The first decision; without one the scheduler admits every flow (counting them). */
  decision?: LoadSchedulerDecision;
}

/** A flow's answer once it leaves the queue. */
interface Pending {
  readonly flow: QueuedFlow;
  readonly resolve: (r: LimiterResult) => void;
  readonly detach: (() => void) | undefined;
}

const MIN_DEADLINE_MARGIN_MS = 15;

/**
 * A load scheduler (kind `scheduler`, 503 NO_TOKENS): flows fall in
 * workloads; a flow is admitted at once while the token pacer has balance
 * and nobody waits, else it waits in the weighted-fair queue at most its
 * workload's `queue_timeout`, the caller's deadline (less the decision
 * margin) and `maxWaitMs`. Tokens are admitted at `load_multiplier ×` the
 * incoming token rate. One timer serves the whole queue: it fires when the
 * head can be admitted or the earliest deadline passes.
 */
export class LoadScheduler implements Limiter, Lifecycle {
  readonly kind = LOAD_SCHEDULER_KIND;
  readonly identity: ComponentIdentity;
  readonly parameters: SchedulerParameters;
  private readonly workloads: WorkloadTable;
  private readonly clock: SchedulerClock;
  private readonly queue = new FairQueue();
  private readonly pending = new Map<QueuedFlow, Pending>();
  private readonly incoming: TokenRate;
  private readonly admitted: TokenRate;
  private readonly pacer: TokenPacer;
  private readonly estimator = new TokenEstimator();
  private readonly metrics: ComponentMetrics | undefined;
  private readonly maxWaitMs: number;
  private readonly marginMs: number;
  private multiplier = 1;
  private passThrough = true;
  private timer: unknown;
  private timerAt = Infinity;
  private closed = false;

  constructor(opts: LoadSchedulerOptions) {
    this.identity = opts.identity;
    this.parameters = parseSchedulerParameters(opts.parameters);
    this.workloads = new WorkloadTable(this.parameters);
    this.clock = opts.clock ?? realClock;
    const now = this.clock.now();
    const windowMs = opts.windowMs ?? 1000;
    this.incoming = new TokenRate(now, windowMs);
    this.admitted = new TokenRate(now, windowMs);
    this.pacer = new TokenPacer(now, opts.burstMs ?? 100);
    this.maxWaitMs = opts.maxWaitMs ?? 900;
    this.marginMs = Math.max(MIN_DEADLINE_MARGIN_MS, this.parameters.decision_deadline_margin_ms);
    this.metrics = opts.metrics?.forScheduler({ identity: this.identity, gauges: () => this.gauges() });
    if (opts.decision !== undefined) this.setDecision(opts.decision);
  }

  /** Apply a decision in place; a multiplier that is not a finite number >= 0 throws RangeError and changes nothing. */
  setDecision(d: LoadSchedulerDecision): void {
    const m = d.load_multiplier;
    if (typeof m !== 'number' || !Number.isFinite(m) || m < 0) {
      throw new RangeError(`scheduler ${this.identity.component_id}: load_multiplier must be a finite number >= 0, got ${String(m)}`);
    }
    this.multiplier = m;
    this.passThrough = d.pass_through === true;
    if (this.passThrough) this.admitWaiting(this.clock.now(), true);
    else this.pump();
  }

  decision(): LoadSchedulerDecision {
    return { load_multiplier: this.multiplier, pass_through: this.passThrough };
  }

  /** A flow of `workloadIndex` ended after `durationMs`: feeds the workload's token estimate and latency summary. */
  observeFlowDuration(workloadIndex: string, durationMs: number): void {
    if (this.parameters.workload_latency_based_tokens) this.estimator.observe(workloadIndex, durationMs);
    this.metrics?.flowEnded(workloadIndex, durationMs);
  }

  /** Tokens a flow costs: its tokens label, else its workload's tokens, else the estimate, else 1. */
  tokensOf(labels: FlowLabels, w: MatchedWorkload, ctx: DecideContext): number {
    const raw = labelOf(ctx.costLabels ?? labels, this.parameters.tokens_label_key);
    if (raw !== undefined && raw.trim() !== '') {
      const n = Number(raw);
      if (Number.isFinite(n) && n >= 1) return Math.ceil(n);
    }
    if (w.parameters.tokens !== undefined && w.parameters.tokens > 0) return w.parameters.tokens;
    return (this.parameters.workload_latency_based_tokens ? this.estimator.estimate(w.index) : undefined) ?? 1;
  }

  private priorityOf(labels: FlowLabels, w: MatchedWorkload): number {
    const key = this.parameters.priority_label_key;
    if (key !== undefined) {
      const raw = labelOf(labels, key);
      const n = raw === undefined ? NaN : Number(raw);
      if (Number.isFinite(n) && n > 0) return n;
    }
    return w.parameters.priority;
  }

  private ratePerMs(now: number): number {
    return this.multiplier * this.incoming.perMs(now);
  }

  decide(labels: FlowLabels, ctx: SchedulerDecideContext): LimiterResult | Promise<LimiterResult> {
    const now = this.clock.now();
    const w = this.workloads.classify(labels);
    const priority = this.priorityOf(labels, w);
    const tokens = this.tokensOf(labels, w, ctx);
    this.incoming.add(now, tokens);
    this.metrics?.incoming(tokens);
    if (this.passThrough || this.closed) return this.accept(now, w.index, priority, tokens, 0);
    const rate = this.ratePerMs(now);
    this.pacer.refill(now, rate);
    // flows already waiting go first; when the pacer lets them all through, this one need not wait
    if (this.queue.length > 0 && this.pacer.canAdmit()) this.admitWaiting(now, false);
    if (this.queue.length === 0 && this.pacer.canAdmit()) {
      this.pacer.take(tokens);
      return this.accept(now, w.index, priority, tokens, 0);
    }
    const ahead = this.queue.tokensAhead(priority);
    const estimateMs = rate > 0 ? (ahead + Math.max(0, -this.pacer.tokens)) / rate : Infinity;
    if (this.parameters.dry_run) {
      // would have waited or been turned away: counted, admitted all the same
      this.metrics?.rejected(w.index, 'dry_run', 0);
      return { accepted: true, waitMs: 0, workloadIndex: w.index, priority };
    }
    const timeout = w.parameters.queue_timeout_ms ?? Infinity;
    const byDeadline = ctx.deadlineMs === undefined ? Infinity : ctx.deadlineMs - this.marginMs - now;
    const budget = Math.min(timeout, byDeadline, this.maxWaitMs);
    if (budget <= 0 || estimateMs > budget || ctx.signal?.aborted === true) {
      return this.reject(w.index, priority, ctx.signal?.aborted === true ? 'cancelled' : 'no_budget', 0, estimateMs);
    }
    const fairnessKey = w.parameters.fairness_key === undefined
      ? w.index
      : `${w.index}\u0000${labelOf(labels, w.parameters.fairness_key) ?? ''}`;
    const flow = this.queue.enqueue({ priority, tokens, workloadIndex: w.index, enqueuedMs: now, deadlineMs: now + budget, fairnessKey });
    return new Promise<LimiterResult>((resolve) => {
      let detach: (() => void) | undefined;
      const signal = ctx.signal;
      if (signal !== undefined) {
        const onAbort = (): void => this.drop(flow, 'cancelled', this.clock.now());
        signal.addEventListener('abort', onAbort, { once: true });
        detach = () => signal.removeEventListener('abort', onAbort);
      }
      this.pending.set(flow, { flow, resolve, detach });
      this.arm(now);
    });
  }

  /** Another limiter turned the flow away: its tokens go back. */
  revert(result: LimiterResult): void {
    if (result.tokens !== undefined && result.tokens > 0 && !this.passThrough) this.pacer.giveBack(result.tokens);
  }

  /** Turn every waiting flow away and stop the timer; later flows pass through. */
  async shutdown(): Promise<void> {
    this.closed = true;
    this.clearTimer();
    const now = this.clock.now();
    for (const flow of this.queue.drain()) this.settle(flow, this.reject(flow.workloadIndex, flow.priority, 'shutdown', now - flow.enqueuedMs, 0));
    this.metrics?.close();
  }

  /** Live numbers, for status, gauges and tests. */
  gauges(): SchedulerGauges {
    const now = this.clock.now();
    return {
      queueLength: this.queue.length,
      incomingTokensPerSecond: this.incoming.perMs(now) * 1000,
      acceptedTokensPerSecond: this.admitted.perMs(now) * 1000,
      loadMultiplier: this.passThrough ? 0 : this.multiplier,
      fillRatePerSecond: this.passThrough ? 0 : this.ratePerMs(now) * 1000,
      bucketCapacity: this.pacer.capacity,
      availableTokens: this.pacer.tokens,
    };
  }

  private accept(now: number, workloadIndex: string, priority: number, tokens: number, waitMs: number): LimiterResult {
    this.admitted.add(now, tokens);
    this.metrics?.accepted(workloadIndex, waitMs, tokens);
    return { accepted: true, waitMs, tokens, workloadIndex, priority };
  }

  private reject(workloadIndex: string, priority: number, reason: RejectReason, waitedMs: number, estimateMs: number): LimiterResult {
    this.metrics?.rejected(workloadIndex, reason, waitedMs);
    // the wait until the flow could pass (Retry-After), at least a millisecond so a 503 always carries one
    const retry = Number.isFinite(estimateMs) ? Math.max(1, estimateMs) : Math.max(1, this.incoming.windowMs);
    return { accepted: false, waitMs: retry, tokens: 0, workloadIndex, priority };
  }

  private settle(flow: QueuedFlow, result: LimiterResult): void {
    const p = this.pending.get(flow);
    if (p === undefined) return;
    this.pending.delete(flow);
    p.detach?.();
    p.resolve(result);
  }

  private drop(flow: QueuedFlow, reason: DropReason, now: number): void {
    if (!this.queue.remove(flow)) return;
    const rate = this.ratePerMs(now);
    const estimate = rate > 0 ? this.queue.tokensAhead(flow.priority) / rate : Infinity;
    this.settle(flow, this.reject(flow.workloadIndex, flow.priority, reason, now - flow.enqueuedMs, estimate));
  }

  /** Admit the flows the pacer allows (all of them with `all`), head first. */
  private admitWaiting(now: number, all: boolean): void {
    for (;;) {
      const head = this.queue.head();
      if (head === undefined) break;
      if (!all && !this.pacer.canAdmit()) break;
      this.queue.popHead();
      if (!all) this.pacer.take(head.tokens);
      this.settle(head, this.accept(now, head.workloadIndex, head.priority, head.tokens, now - head.enqueuedMs));
    }
  }

  /** The timer's work: admit what the pacer allows, turn away what is past its deadline, re-arm. */
  private pump(): void {
    this.clearTimer();
    const now = this.clock.now();
    if (this.queue.length > 0) {
      this.pacer.refill(now, this.ratePerMs(now));
      this.admitWaiting(now, this.passThrough);
      // a timer may fire a little late: flows due within a millisecond leave now rather than after their deadline
      for (const flow of this.queue.expire(now + 1)) {
        const rate = this.ratePerMs(now);
        const estimate = rate > 0 ? this.queue.tokensAhead(flow.priority) / rate : Infinity;
        this.settle(flow, this.reject(flow.workloadIndex, flow.priority, 'timeout', now - flow.enqueuedMs, estimate));
      }
    }
    this.arm(now);
  }

  /** Arm the one timer for the next event: the head's admission or the earliest deadline. */
  private arm(now: number): void {
    if (this.queue.length === 0 || this.closed) {
      this.clearTimer();
      return;
    }
    const deadline = this.queue.nextDeadline() ?? Infinity;
    const admitIn = this.pacer.msUntilAdmit(this.ratePerMs(now));
    // while the pacer is short, check again at least every window: the incoming rate may have moved
    const admitAt = now + Math.min(Math.max(admitIn, 0.5), this.incoming.windowMs / 4);
    const at = Math.min(deadline - 1, admitAt);
    if (this.timer !== undefined && this.timerAt <= at) return;
    this.clearTimer();
    this.timerAt = at;
    this.timer = this.clock.setTimer(() => this.pump(), Math.max(0, at - now));
  }

  private clearTimer(): void {
    if (this.timer !== undefined) this.clock.clearTimer(this.timer);
    this.timer = undefined;
    this.timerAt = Infinity;
  }
}
