/**
 * Admits tokens at an allowed rate (tokens per millisecond). The balance
 * refills at the rate and is capped at `burstMs` worth of it; a flow may be
 * admitted while the balance is not negative, and takes the balance below
 * zero by its tokens. So over any window of W ms the admitted tokens stay
 * within `rate × (W + burstMs)` plus one flow (with `burstMs` 0: the rate
 * over the window plus one flow). The burst lets flows that arrive together
 * pass without waiting while the rate has room for them.
 */
export class TokenPacer {
  private balance = 0;
  private lastMs: number;
  private burst = 0;

  constructor(nowMs: number, private readonly burstMs = 0) {
    this.lastMs = nowMs;
  }

  /** Bring the balance to `nowMs` at `ratePerMs`. */
  refill(nowMs: number, ratePerMs: number): void {
    this.burst = Math.max(0, ratePerMs * this.burstMs);
    const dt = nowMs - this.lastMs;
    if (dt > 0) {
      this.balance = Math.min(this.burst, this.balance + dt * ratePerMs);
      this.lastMs = nowMs;
    } else if (this.balance > this.burst) {
      this.balance = this.burst;
    }
  }

  canAdmit(): boolean {
    return this.balance >= 0;
  }

  take(tokens: number): void {
    this.balance -= tokens;
  }

  /** Give back tokens of a flow another limiter rejected. */
  giveBack(tokens: number): void {
    this.balance = Math.min(this.burst, this.balance + tokens);
  }

  /** Milliseconds until the balance is back to zero at `ratePerMs` (Infinity at rate 0). */
  msUntilAdmit(ratePerMs: number): number {
    if (this.balance >= 0) return 0;
    return ratePerMs > 0 ? -this.balance / ratePerMs : Infinity;
  }

  get tokens(): number {
    return this.balance;
  }

  /** The most the balance holds at the last refill's rate (`burstMs` worth of it). */
  get capacity(): number {
    return this.burst;
  }
}
