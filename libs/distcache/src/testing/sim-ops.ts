import { DeadlineExceededError, ErrorCode } from '@sluice/errors';
import type { Op, OpResult } from '../transport/ops.js';

/** How the simulated counter network carries operations: each way's delay, and losses. */
export interface SimOpsOptions {
  random: () => number;
  minDelayMs: number;
  maxDelayMs: number;
  /** Share of operations (or of their answers) lost: the caller's deadline passes. */
  dropRate: number;
}

interface Due {
  at: number;
  seq: number;
  run: () => void;
}

/**
 * A simulated counter-operations network on a simulated clock: a call
 * reaches the member's handler after a delay, its answer comes back after
 * another, and the caller's deadline fails it as the operations client does
 * (DISTCACHE_TIMEOUT). Links can be slowed or cut for a while. Time moves only
 * in `run`, which runs everything due in order and lets promises settle
 * between steps.
 */
export class SimOps {
  nowMs = 0;
  private queue: Due[] = [];
  private seq = 0;
  private readonly handlers = new Map<string, (op: Op) => OpResult | Promise<OpResult>>();
  /** Extra delay per direction `from>to`, until a time. */
  private readonly slow = new Map<string, { extraMs: number; untilMs: number }>();

  constructor(public opts: SimOpsOptions) {}

  /** The member `id` answers operations with `handler`. */
  serve(id: string, handler: (op: Op) => OpResult | Promise<OpResult>): void {
    this.handlers.set(id, handler);
  }

  /** Until `untilMs`, everything from `from` to `to` takes `extraMs` more (a busy member, a congested link). */
  slowDown(from: string, to: string, extraMs: number, untilMs: number): void {
    this.slow.set(`${from}>${to}`, { extraMs, untilMs });
  }

  /** Runs `fn` at `atMs` on the simulated clock. */
  at(atMs: number, fn: () => void): void {
    this.queue.push({ at: Math.max(atMs, this.nowMs), seq: this.seq++, run: fn });
  }

  /** Operation `op` from `from` to `to`, failed with DISTCACHE_TIMEOUT when unanswered after `timeoutMs`. */
  call(from: string, to: string, op: Op, timeoutMs: number): Promise<OpResult> {
    return new Promise((resolve, reject) => {
      let settled = false;
      this.at(this.nowMs + timeoutMs, () => {
        if (settled) return;
        settled = true;
        reject(new DeadlineExceededError(`${to} did not answer in time`, ErrorCode.DISTCACHE_TIMEOUT));
      });
      if (this.lost()) return;
      this.at(this.nowMs + this.delay(from, to), () => {
        const h = this.handlers.get(to);
        if (h === undefined) return;
        void Promise.resolve(h(op)).then((res) => {
          if (this.lost()) return;
          this.at(this.nowMs + this.delay(to, from), () => {
            if (settled) return;
            settled = true;
            resolve(res);
          });
        });
      });
    });
  }

  /** Advance the clock by `ms`, running what is due in order (the clock jumps to each) and settling promises after each. */
  async run(ms: number): Promise<void> {
    const end = this.nowMs + ms;
    for (;;) {
      let next: Due | undefined;
      for (const d of this.queue) if (next === undefined || d.at < next.at || (d.at === next.at && d.seq < next.seq)) next = d;
      if (next === undefined || next.at > end) break;
      this.queue.splice(this.queue.indexOf(next), 1);
      this.nowMs = next.at;
      next.run();
      await settle();
    }
    this.nowMs = end;
  }

  private lost(): boolean {
    return this.opts.dropRate > 0 && this.opts.random() < this.opts.dropRate;
  }

  private delay(from: string, to: string): number {
    const { minDelayMs, maxDelayMs, random } = this.opts;
    const base = minDelayMs + Math.floor(random() * (maxDelayMs - minDelayMs + 1));
    const s = this.slow.get(`${from}>${to}`);
    return base + (s !== undefined && this.nowMs < s.untilMs ? s.extraMs : 0);
  }
}

/** Lets every pending promise chain run (a macrotask turn drains the microtasks). */
function settle(): Promise<void> {
  return new Promise((r) => setImmediate(r));
}
