import type { SchedulerClock } from './clock.js';

/** A clock for tests and simulations: time moves only through `advance`, which runs the timers due on the way, in order. */
export class ManualClock implements SchedulerClock {
  private t: number;
  private seq = 0;
  private timers = new Map<number, { at: number; fn: () => void }>();

  constructor(start = 1_700_000_000_000) {
    this.t = start;
  }

  now(): number {
    return this.t;
  }

  setTimer(fn: () => void, ms: number): unknown {
    const id = ++this.seq;
    this.timers.set(id, { at: this.t + Math.max(0, ms), fn });
    return id;
  }

  clearTimer(handle: unknown): void {
    this.timers.delete(handle as number);
  }

  get pendingTimers(): number {
    return this.timers.size;
  }

  advance(ms: number): void {
    const target = this.t + ms;
    while (this.fireNext(target));
    this.t = target;
  }

  /** As `advance`, letting promise callbacks run after each timer (so they see the time it fired at). */
  async run(ms: number): Promise<void> {
    const target = this.t + ms;
    await settle();
    while (this.fireNext(target)) await settle();
    this.t = target;
    await settle();
  }

  private fireNext(target: number): boolean {
    {
      let next: [number, { at: number; fn: () => void }] | undefined;
      for (const e of this.timers) if (e[1].at <= target && (next === undefined || e[1].at < next[1].at)) next = e;
      if (next === undefined) return false;
      this.timers.delete(next[0]);
      this.t = Math.max(this.t, next[1].at);
      next[1].fn();
      return true;
    }
  }
}

async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await Promise.resolve();
}
