/** Parameters of a token bucket (the rate limiter's). */
export interface TokenBucketParams {
  /** Tokens the bucket holds at most; 0 rejects every flow. */
  readonly capacity: number;
  /** Tokens added per interval. */
  readonly fillAmount: number;
  /** Fill interval in milliseconds (> 0). */
  readonly intervalMs: number;
  /** Tokens accrue continuously (default) rather than in whole intervals. */
  readonly continuousFill: boolean;
}

/** State of one bucket. */
export interface BucketState {
  available: number;
  /** When tokens were last added (whole-interval fill: the start of the current interval). */
  lastFillMs: number;
  lastUsedMs: number;
}

/** The answer to a take. */
export interface TakeResult {
  readonly ok: boolean;
  /** Tokens left after the take (before it, when refused). */
  readonly remaining: number;
  /** Tokens there were before the take. */
  readonly current: number;
  /** When refused: how long until `tokens` are there (0 when never). */
  readonly waitMs: number;
}

/** A new bucket: full. */
export function newBucket(p: TokenBucketParams, nowMs: number): BucketState {
  return { available: Math.max(0, p.capacity), lastFillMs: nowMs, lastUsedMs: nowMs };
}

/** Add the tokens accrued since the last fill, capped at capacity. */
export function refill(b: BucketState, p: TokenBucketParams, nowMs: number): void {
  const elapsed = nowMs - b.lastFillMs;
  if (elapsed <= 0) {
    if (elapsed < 0) b.lastFillMs = nowMs; // the clock went back: start over from now
    return;
  }
  if (p.continuousFill) {
    b.available = Math.min(p.capacity, b.available + (p.fillAmount * elapsed) / p.intervalMs);
    b.lastFillMs = nowMs;
    return;
  }
  const intervals = Math.floor(elapsed / p.intervalMs);
  if (intervals > 0) {
    b.available = Math.min(p.capacity, b.available + intervals * p.fillAmount);
    b.lastFillMs += intervals * p.intervalMs;
  }
}

/** Milliseconds until `deficit` more tokens have accrued (0 when they never will). */
export function timeUntil(b: BucketState, p: TokenBucketParams, deficit: number, nowMs: number): number {
  if (deficit <= 0) return 0;
  if (p.fillAmount <= 0) return 0;
  if (p.continuousFill) return (deficit / p.fillAmount) * p.intervalMs;
  const intervals = Math.ceil(deficit / p.fillAmount);
  return Math.max(0, intervals * p.intervalMs - (nowMs - b.lastFillMs));
}

/**
 * Take `tokens` if they are there. Refused (nothing taken) when the bucket
 * holds fewer, when they exceed the capacity, or when the capacity is 0.
 */
export function take(b: BucketState, p: TokenBucketParams, tokens: number, nowMs: number): TakeResult {
  refill(b, p, nowMs);
  b.lastUsedMs = nowMs;
  const current = b.available;
  if (p.capacity <= 0 || tokens > p.capacity) return { ok: false, remaining: current, current, waitMs: 0 };
  if (current >= tokens) {
    b.available = current - tokens;
    return { ok: true, remaining: b.available, current, waitMs: 0 };
  }
  return { ok: false, remaining: current, current, waitMs: timeUntil(b, p, tokens - current, nowMs) };
}

/** Put back tokens taken by a flow that was rejected elsewhere (capped at capacity). */
export function giveBack(b: BucketState, p: TokenBucketParams, tokens: number): void {
  b.available = Math.min(p.capacity, b.available + tokens);
}
