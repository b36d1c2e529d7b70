import type { BatchTimers } from './batcher.js';

/** A clock that moves only when told: timers fire in order of due time as `advance` passes them. */
export class FakeClock implements BatchTimers {
  nowMs = 0;
  private seq = 0;
  private readonly due = new Map<number, { at: number; fn: () => void }>();

  setTimeout(fn: () => void, ms: number): unknown {
    const id = ++this.seq;
    this.due.set(id, { at: this.nowMs + Math.max(0, ms), fn });
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.due.delete(handle as number);
  }

  /** Timers not yet fired. */
  get pendingTimers(): number {
    return this.due.size;
  }

  /** Moves time forward by `ms`, firing every timer due on the way. */
  advance(ms: number): void {
    const end = this.nowMs + ms;
    for (;;) {
      let next: [number, { at: number; fn: () => void }] | undefined;
      for (const e of this.due) if (e[1].at <= end && (next === undefined || e[1].at < next[1].at)) next = e;
      if (next === undefined) break;
      this.due.delete(next[0]);
      this.nowMs = next[1].at;
      next[1].fn();
    }
    this.nowMs = end;
  }
}
