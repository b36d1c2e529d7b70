/** Time and the one scheduling timer of a scheduler (injectable for tests). */
export interface SchedulerClock {
  /** Epoch milliseconds (fractional). */
  now(): number;
  /** Run `fn` in `ms`; the timer must not keep the process alive. */
  setTimer(fn: () => void, ms: number): unknown;
  clearTimer(handle: unknown): void;
}

export const realClock: SchedulerClock = {
  now: () => performance.timeOrigin + performance.now(),
  setTimer(fn, ms) {
    const t = setTimeout(fn, Math.max(0, ms));
    t.unref();
    return t;
  },
  clearTimer(handle) {
    clearTimeout(handle as NodeJS.Timeout);
  },
};
