import type { LimiterResult } from './component.js';

const FAILED_OPEN: LimiterResult = Object.freeze({ accepted: true, waitMs: 0, failedOpen: true });

/**
 * Wait for an asynchronous limiter answer at most `budgetMs`; past it, or
 * when the answer fails, the limiter lets the flow through (fail open) and
 * says so in `failedOpen`.
 */
export function boundedDecision(p: Promise<LimiterResult>, budgetMs: number): Promise<LimiterResult> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(FAILED_OPEN), budgetMs);
    p.then(
      (r) => {
        clearTimeout(timer);
        resolve(r);
      },
      () => {
        clearTimeout(timer);
        resolve(FAILED_OPEN);
      },
    );
  });
}
