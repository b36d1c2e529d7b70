import { MinHeap } from './min-heap.js';

/** Why a queued flow left the queue without being admitted. */
export type DropReason = 'timeout' | 'cancelled' | 'shutdown';

/** A flow waiting in the queue. */
export interface QueuedFlow {
  readonly seq: number;
  readonly priority: number;
  readonly tokens: number;
  readonly workloadIndex: string;
  readonly enqueuedMs: number;
  /** Leaves the queue (rejected) at this time, epoch ms. */
  readonly deadlineMs: number;
  /** Virtual finish tag within its priority level. */
  tag: number;
  settled: boolean;
}

interface Level {
  readonly priority: number;
  readonly heap: MinHeap<QueuedFlow>;
  /** The tag of the last flow that left this level: where new fairness keys start. */
  virtualTime: number;
  /** The last tag given to each fairness key while the level is busy. */
  readonly finish: Map<string, number>;
  count: number;
  tokens: number;
}

const byTag = (a: QueuedFlow, b: QueuedFlow): boolean => a.tag < b.tag || (a.tag === b.tag && a.seq < b.seq);
const byDeadline = (a: QueuedFlow, b: QueuedFlow): boolean => a.deadlineMs < b.deadlineMs || (a.deadlineMs === b.deadlineMs && a.seq < b.seq);

/**
 * The weighted-fair queue: strict priority between levels (higher first);
 * within a level, start-time fair queueing by fairness key (each key's flows
 * get tags `max(virtual time, key's last tag) + tokens`, the smallest tag
 * goes first), so keys with more waiting flows do not crowd the others out.
 * Flows also sit in a heap by deadline, so the scheduler's one timer finds
 * the next expiry without scanning. Removal is lazy: a settled flow is
 * skipped when it reaches the top of a heap.
 */
export class FairQueue {
  private readonly levels = new Map<number, Level>();
  /** Levels by priority, highest first. */
  private order: Level[] = [];
  private readonly deadlines = new MinHeap<QueuedFlow>(byDeadline);
  private seq = 0;
  private waiting = 0;

  get length(): number {
    return this.waiting;
  }

  enqueue(f: { priority: number; tokens: number; workloadIndex: string; enqueuedMs: number; deadlineMs: number; fairnessKey: string }): QueuedFlow {
    const level = this.levelOf(f.priority);
    const start = Math.max(level.virtualTime, level.finish.get(f.fairnessKey) ?? 0);
    const flow: QueuedFlow = {
      seq: this.seq++,
      priority: f.priority,
      tokens: f.tokens,
      workloadIndex: f.workloadIndex,
      enqueuedMs: f.enqueuedMs,
      deadlineMs: f.deadlineMs,
      tag: start + Math.max(f.tokens, 1e-9),
      settled: false,
    };
    level.finish.set(f.fairnessKey, flow.tag);
    level.heap.push(flow);
    level.count++;
    level.tokens += f.tokens;
    this.deadlines.push(flow);
    this.waiting++;
    return flow;
  }

  /** The flow that goes next (highest priority, smallest tag), without removing it. */
  head(): QueuedFlow | undefined {
    for (const level of this.order) {
      const top = this.topOf(level);
      if (top !== undefined) return top;
    }
    return undefined;
  }

  /** Remove and answer the flow that goes next. */
  popHead(): QueuedFlow | undefined {
    const flow = this.head();
    if (flow === undefined) return undefined;
    const level = this.levels.get(flow.priority) as Level;
    level.heap.pop();
    level.virtualTime = flow.tag;
    this.settle(flow);
    return flow;
  }

  /** Remove a queued flow (its deadline passed, or its caller went away); false when it had left already. */
  remove(flow: QueuedFlow): boolean {
    if (flow.settled) return false;
    this.settle(flow);
    return true;
  }

  /** The earliest deadline of a waiting flow. */
  nextDeadline(): number | undefined {
    let top = this.deadlines.peek();
    while (top !== undefined && top.settled) {
      this.deadlines.pop();
      top = this.deadlines.peek();
    }
    return top?.deadlineMs;
  }

  /** Remove and answer the waiting flows whose deadline is at or before `nowMs`. */
  expire(nowMs: number): QueuedFlow[] {
    const out: QueuedFlow[] = [];
    for (;;) {
      const next = this.nextDeadline();
      if (next === undefined || next > nowMs) break;
      const flow = this.deadlines.pop() as QueuedFlow;
      this.settle(flow);
      out.push(flow);
    }
    return out;
  }

  /** Tokens waiting at `priority` or above (the flows a new one of that priority waits behind). */
  tokensAhead(priority: number): number {
    let sum = 0;
    for (const level of this.order) {
      if (level.priority < priority) break;
      sum += level.tokens;
    }
    return sum;
  }

  /** Remove and answer every waiting flow. */
  drain(): QueuedFlow[] {
    const out = this.deadlines.drain().filter((f) => !f.settled);
    for (const f of out) this.settle(f);
    for (const level of this.order) level.heap.drain();
    return out;
  }

  private topOf(level: Level): QueuedFlow | undefined {
    let top = level.heap.peek();
    while (top !== undefined && top.settled) {
      level.heap.pop();
      top = level.heap.peek();
    }
    return top;
  }

  private settle(flow: QueuedFlow): void {
    flow.settled = true;
    this.waiting--;
    const level = this.levels.get(flow.priority) as Level;
    level.count--;
    level.tokens -= flow.tokens;
    if (level.count === 0) {
      // all caught up: fairness starts afresh, and a level nobody uses goes away
      this.levels.delete(level.priority);
      this.order = this.order.filter((l) => l !== level);
    }
  }

  private levelOf(priority: number): Level {
    let level = this.levels.get(priority);
    if (level === undefined) {
      level = { priority, heap: new MinHeap(byTag), virtualTime: 0, finish: new Map(), count: 0, tokens: 0 };
      this.levels.set(priority, level);
      this.order = [...this.order, level].sort((a, b) => b.priority - a.priority);
    }
    return level;
  }
}
