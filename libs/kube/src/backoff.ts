// Exponential backoff with full jitter for reconnects: 0.5 s doubling up to 30 s by default,
// reset after a success.

export interface BackoffOptions {
  initialMs?: number;
  maxMs?: number;
  /** Source of randomness in [0, 1); default Math.random. */
  random?: () => number;
}

export class Backoff {
  private attempt = 0;
  private readonly initialMs: number;
  private readonly maxMs: number;
  private readonly random: () => number;

  constructor(opts: BackoffOptions = {}) {
    this.initialMs = opts.initialMs ?? 500;
    this.maxMs = opts.maxMs ?? 30_000;
    this.random = opts.random ?? Math.random;
  }

  /** The next delay: a random point in the upper half of min(max, initial × 2^attempt). */
  next(): number {
    const cap = Math.min(this.maxMs, this.initialMs * 2 ** Math.min(this.attempt, 30));
    this.attempt++;
    return Math.round(cap / 2 + (cap / 2) * this.random());
  }

  reset(): void {
    this.attempt = 0;
  }

  get attempts(): number {
    return this.attempt;
  }
}
