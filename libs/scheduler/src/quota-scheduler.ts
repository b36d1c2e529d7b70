import type { Lifecycle } from '@sluice/lifecycle';
import { QUOTA_SCHEDULER_INFO, readLabel, type ComponentIdentity, type Limiter, type LimiterKind, type LimiterResult } from '@sluice/flowcontrol';
import { type TakeResult, type TokenBucketStore } from '@sluice/tokenbucket';
import type { FlowLabels } from '@sluice/selectors';
import { realClock, type SchedulerClock } from './clock.js';
import { FairQueue, type QueuedFlow } from './fair-queue.js';
import type { SchedulerDecideContext } from './load-scheduler.js';
import { parseSchedulerParameters, type SchedulerParameters } from './parameters.js';
import { readSchedulerParameters } from './scheduler-kind.js';
import { labelOf, WorkloadTable, type MatchedWorkload } from './workloads.js';

/**
 * The quota scheduler's kind: with the schedulers (last group), 503 NO_TOKENS, QuotaSchedulerInfo;
 * it reads its label key and what its workloads read.
 */
export const QUOTA_SCHEDULER_KIND: LimiterKind = {
  name: 'quota_scheduler',
  group: 2,
  rejectReason: 'REJECT_REASON_NO_TOKENS',
  deniedStatus: 503,
  counter: 'workload',
  details: QUOTA_SCHEDULER_INFO,
  reads(limiter, into) {
    if (!(limiter instanceof QuotaScheduler)) {
      into.all = true;
      return;
    }
    if (limiter.labelKey !== undefined) readLabel(into, limiter.labelKey);
    readSchedulerParameters(limiter.parameters, into);
  },
};

export interface QuotaSchedulerOptions {
  identity: ComponentIdentity;
  /** The weighted-fair queue's published parameters (checked here: InvalidArgumentError). */
  parameters: unknown;
  /** Where the quota's token buckets live: the distributed counter cache shares them across the agent group. */
  store: TokenBucketStore;
  /** One bucket (and one queue) per value of this label; a flow without it passes (KEY_NOT_FOUND). Unset: one. */
  labelKey?: string;
  clock?: SchedulerClock;
  /** Longest wait of any flow (the engine lets an asynchronous limiter through past its own budget). Default 900 ms. */
  maxWaitMs?: number;
  /** Admit every flow (until the first decision). Default true. */
  passThrough?: boolean;
  /**
   * A flow admitted at once (nobody waits for its bucket, which has its tokens) gets its result
   * without the queued flow the other paths make. Default true; false sends every flow down the
   * general path (tests hold the two to the same decisions).
   */
  fastPath?: boolean;
}

interface Pending {
  readonly resolve: (r: LimiterResult) => void;
  readonly detach: (() => void) | undefined;
}

/** The waiting flows of one bucket, in weighted-fair order, and the one take in flight for its head. */
interface KeyQueue {
  readonly key: string;
  readonly queue: FairQueue;
  readonly pending: Map<QueuedFlow, Pending>;
  busy: boolean;
  timer: unknown;
}

const PASS: LimiterResult = Object.freeze({ accepted: true, waitMs: 0 });
const DEFAULT_KEY = 'default';
const KEY_NOT_FOUND: LimiterResult = Object.freeze({ accepted: true, waitMs: 0, keyNotFound: true });
const MIN_DEADLINE_MARGIN_MS = 15;

/**
 * A quota scheduler: a token bucket per label value (a rate limiter's, shared through its store)
 * spent by priority and fairness. A flow takes its tokens at once while nobody waits for the
 * bucket; otherwise, or when the bucket is short, it waits in the bucket's weighted-fair queue
 * (strict priority, fair sharing by fairness key within a priority) at most its workload's
 * queue timeout, the caller's deadline (less the margin) and `maxWaitMs`. The head of the queue
 * takes its tokens when the bucket has them; nobody behind it passes it.
 */
export class QuotaScheduler implements Limiter, Lifecycle {
  readonly kind = QUOTA_SCHEDULER_KIND;
  readonly identity: ComponentIdentity;
  readonly parameters: SchedulerParameters;
  readonly labelKey: string | undefined;
  passThrough: boolean;
  private readonly store: TokenBucketStore;
  private readonly workloads: WorkloadTable;
  private readonly clock: SchedulerClock;
  private readonly maxWaitMs: number;
  private readonly marginMs: number;
  private readonly queues = new Map<string, KeyQueue>();
  private readonly fastPath: boolean;
  private closed = false;

  constructor(opts: QuotaSchedulerOptions) {
    this.identity = opts.identity;
    this.parameters = parseSchedulerParameters(opts.parameters);
    this.workloads = new WorkloadTable(this.parameters);
    this.store = opts.store;
    this.labelKey = opts.labelKey === '' ? undefined : opts.labelKey;
    this.clock = opts.clock ?? realClock;
    this.maxWaitMs = opts.maxWaitMs ?? 900;
    this.marginMs = Math.max(MIN_DEADLINE_MARGIN_MS, this.parameters.decision_deadline_margin_ms);
    this.passThrough = opts.passThrough ?? true;
    this.fastPath = opts.fastPath ?? true;
  }

  /** Pass-through on or off; turning it on admits every waiting flow, any change lets the heads try again. */
  setPassThrough(on: boolean): void {
    this.passThrough = on;
    for (const q of this.queues.values()) {
      if (on) this.admitAll(q);
      else this.pump(q);
    }
  }

  /** New bucket parameters took effect (a decision): the heads try again. */
  bucketChanged(): void {
    for (const q of this.queues.values()) this.pump(q);
  }

  /** Waiting flows, for status and tests. */
  waiting(): number {
    let n = 0;
    for (const q of this.queues.values()) n += q.queue.length;
    return n;
  }

  decide(labels: FlowLabels, ctx: SchedulerDecideContext): LimiterResult | Promise<LimiterResult> {
    if (this.passThrough || this.closed) return PASS;
    let key = DEFAULT_KEY;
    if (this.labelKey !== undefined) {
      const v = labelOf(labels, this.labelKey);
      if (v === undefined) return KEY_NOT_FOUND;
      key = v;
    }
    // on the real clock, the check's reading of it when the engine's is that clock too (one per check, not one per limiter)
    const now = this.clock === realClock && ctx.realTime === true ? ctx.nowMs : this.clock.now();
    const w = this.workloads.classify(labels);
    const tokens = this.tokensOf(labels, w, ctx);
    // no bucket has a queue (the common case): nobody to look for
    const q = this.queues.size === 0 ? undefined : this.queues.get(key);
    if (q !== undefined && (q.queue.length > 0 || q.busy)) {
      const budget = this.budgetOf(w, ctx, now);
      return this.wait(q, this.flowOf(labels, w, tokens, now, budget), budget, ctx);
    }
    // Nobody waits for this bucket: take at once; short, wait for it if the refill comes within the budget.
    const r = this.store.take(key, tokens, now);
    if (this.fastPath && !isPromise(r) && r.ok) {
      // admitted at once (the common case): no queued flow is made for it
      return { accepted: true, waitMs: 0, tokens, label: key, remaining: r.remaining, current: r.current, workloadIndex: w.index, priority: this.priorityOf(labels, w) };
    }
    const budget = this.budgetOf(w, ctx, now);
    const flow = this.flowOf(labels, w, tokens, now, budget);
    const first = (t: TakeResult): LimiterResult | Promise<LimiterResult> => {
      if (t.ok) return this.accepted(key, flow, t, 0);
      if (t.waitMs <= 0 || t.waitMs > budget || this.closed) return this.rejected(key, flow, t.waitMs);
      return this.wait(this.queueOf(key), flow, budget, ctx, t.waitMs);
    };
    return isPromise(r) ? r.then(first, () => ({ accepted: true, waitMs: 0, failedOpen: true })) : first(r);
  }

  /** How long a flow of `w` may wait from `now`: its queue timeout, the caller's deadline less the margin, the scheduler's longest wait. */
  private budgetOf(w: MatchedWorkload, ctx: SchedulerDecideContext, now: number): number {
    const byDeadline = ctx.deadlineMs === undefined ? Infinity : ctx.deadlineMs - this.marginMs - now;
    return Math.min(w.parameters.queue_timeout_ms ?? Infinity, byDeadline, this.maxWaitMs);
  }

  /** A flow as it waits in a queue (or would have). */
  private flowOf(labels: FlowLabels, w: MatchedWorkload, tokens: number, now: number, budget: number): Parameters<FairQueue['enqueue']>[0] {
    const fairnessKey = w.parameters.fairness_key === undefined ? w.index : `${w.index}\u0000${labelOf(labels, w.parameters.fairness_key) ?? ''}`;
    return { priority: this.priorityOf(labels, w), tokens, workloadIndex: w.index, enqueuedMs: now, deadlineMs: now + Math.max(0, budget), fairnessKey };
  }

  revert(result: LimiterResult): void {
    if (result.label !== undefined && result.tokens !== undefined && result.tokens > 0) this.store.giveBack(result.label, result.tokens, this.clock.now());
  }

  /** Turn every waiting flow away and stop the timers; later flows pass through. */
  async shutdown(): Promise<void> {
    this.closed = true;
    for (const q of this.queues.values()) {
      if (q.timer !== undefined) this.clock.clearTimer(q.timer);
      q.timer = undefined;
      for (const flow of q.queue.drain()) this.settle(q, flow, this.rejected(q.key, flow, 0));
    }
  }

  private queueOf(key: string): KeyQueue {
    let q = this.queues.get(key);
    if (q === undefined) {
      q = { key, queue: new FairQueue(), pending: new Map(), busy: false, timer: undefined };
      this.queues.set(key, q);
    }
    return q;
  }

  private wait(q: KeyQueue, f: Parameters<FairQueue['enqueue']>[0], budget: number, ctx: SchedulerDecideContext, retryInMs?: number): LimiterResult | Promise<LimiterResult> {
    if (budget <= 0 || ctx.signal?.aborted === true) return this.rejected(q.key, f, 1);
    const flow = q.queue.enqueue(f);
    return new Promise<LimiterResult>((resolve) => {
      let detach: (() => void) | undefined;
      const signal = ctx.signal;
      if (signal !== undefined) {
        const onAbort = (): void => {
          if (q.queue.remove(flow)) this.settle(q, flow, this.rejected(q.key, flow, 1));
        };
        signal.addEventListener('abort', onAbort, { once: true });
        detach = () => signal.removeEventListener('abort', onAbort);
      }
      q.pending.set(flow, { resolve, detach });
      if (retryInMs !== undefined) this.arm(q, retryInMs);
      else this.pump(q);
    });
  }

  /** The head of `q` takes its tokens if the bucket has them; else the queue waits for the refill or the next timeout. */
  private pump(q: KeyQueue): void {
    if (q.busy || this.closed) return;
    const now = this.clock.now();
    for (const flow of q.queue.expire(now)) this.settle(q, flow, this.rejected(q.key, flow, 1));
    const head = q.queue.head();
    if (head === undefined) {
      if (q.timer !== undefined) this.clock.clearTimer(q.timer);
      q.timer = undefined;
      if (q.pending.size === 0) this.queues.delete(q.key);
      return;
    }
    if (this.passThrough) {
      this.admitAll(q);
      return;
    }
    q.busy = true;
    const r = this.store.take(q.key, head.tokens, now);
    const after = (t: TakeResult): void => {
      q.busy = false;
      if (t.ok) {
        if (q.queue.remove(head)) this.settle(q, head, this.accepted(q.key, head, t, this.clock.now() - head.enqueuedMs));
        else this.store.giveBack(q.key, head.tokens, this.clock.now()); // it left meanwhile (timed out, cancelled)
        this.pump(q);
        return;
      }
      this.arm(q, t.waitMs > 0 ? t.waitMs : Infinity);
    };
    if (isPromise(r)) r.then(after, () => { q.busy = false; this.arm(q, 10); });
    else after(r);
  }

  /** Wake the queue in `ms` (the refill), or at its next timeout when sooner. */
  private arm(q: KeyQueue, ms: number): void {
    if (q.timer !== undefined) this.clock.clearTimer(q.timer);
    const now = this.clock.now();
    const deadline = q.queue.nextDeadline();
    const at = Math.min(now + ms, deadline ?? Infinity);
    q.timer = Number.isFinite(at) ? this.clock.setTimer(() => { q.timer = undefined; this.pump(q); }, Math.max(0, at - now)) : undefined;
  }

  private admitAll(q: KeyQueue): void {
    const now = this.clock.now();
    for (const flow of q.queue.drain()) this.settle(q, flow, { accepted: true, waitMs: now - flow.enqueuedMs, workloadIndex: flow.workloadIndex, priority: flow.priority });
  }

  private settle(q: KeyQueue, flow: QueuedFlow, result: LimiterResult): void {
    const p = q.pending.get(flow);
    if (p === undefined) return;
    q.pending.delete(flow);
    p.detach?.();
    p.resolve(result);
  }

  private accepted(key: string, f: { tokens: number; workloadIndex: string; priority: number }, t: TakeResult, waitedMs: number): LimiterResult {
    return { accepted: true, waitMs: waitedMs, tokens: f.tokens, label: key, remaining: t.remaining, current: t.current, workloadIndex: f.workloadIndex, priority: f.priority };
  }

  private rejected(key: string, f: { workloadIndex: string; priority: number }, retryMs: number): LimiterResult {
    return { accepted: false, waitMs: Math.max(1, retryMs), tokens: 0, label: key, workloadIndex: f.workloadIndex, priority: f.priority };
  }

  private priorityOf(labels: FlowLabels, w: MatchedWorkload): number {
    const key = this.parameters.priority_label_key;
    if (key !== undefined) {
      const n = Number(labelOf(labels, key));
      if (Number.isFinite(n) && n > 0) return n;
    }
    return w.parameters.priority;
  }

  /** Tokens a flow costs: its tokens label (from classifier outputs for HTTP flows), else its workload's tokens, else 1. */
  private tokensOf(labels: FlowLabels, w: MatchedWorkload, ctx: SchedulerDecideContext): number {
    const raw = labelOf(ctx.costLabels ?? labels, this.parameters.tokens_label_key);
    if (raw !== undefined && raw.trim() !== '') {
      const n = Number(raw);
      if (Number.isFinite(n) && n >= 1) return Math.ceil(n);
    }
    return w.parameters.tokens !== undefined && w.parameters.tokens > 0 ? w.parameters.tokens : 1;
  }
}

function isPromise<T>(v: T | Promise<T>): v is Promise<T> {
  return typeof (v as Promise<T>).then === 'function';
}
