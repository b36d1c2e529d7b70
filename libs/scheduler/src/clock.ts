import { epochNowMs } from '@sluice/tokenbucket';

/** Time and the one scheduling timer of a scheduler (injectable for tests). */
export interface SchedulerClock {
  /** Epoch milliseconds (fractional). */
  now(): number;
  /** Run `fn` in `ms`; the timer must not keep the process alive. */
  setTimer(fn: () => void, ms: number): unknown;
  clearTimer(handle: unknown): void;
}

/** The real clock: epochNowMs, the clock the engine reads once per check (so a decision on it may use the check's reading). */
export const realClock: SchedulerClock = {
  now: epochNowMs,
  setTimer(fn, ms) {
    const t = setTimeout(fn, Math.max(0, ms));
    t.unref();
    return t;
  },
  clearTimer(handle) {
    clearTimeout(handle as NodeJS.Timeout);
  },
};
