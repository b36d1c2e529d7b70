/**
 * Admits tokens at an allowed rate (tokens per millisecond). The balance
 * refills at the rate and is capped at `burst` tokens; a flow may be admitted
 * while the balance is not negative, and takes the balance below zero by its
 * tokens. So over any window of W ms the admitted tokens stay within
 * `burst + rate × W` plus one flow.
 */
export class TokenPacer {
  private balance = 0;
  private lastMs: number;

  constructor(nowMs: number, private burst = 0) {
    this.lastMs = nowMs;
  }

  /** Bring the balance to `nowMs` at `ratePerMs`. */
  refill(nowMs: number, ratePerMs: number): void {
    const dt = nowMs - this.lastMs;
    if (dt > 0) {
      this.balance = Math.min(this.burst, this.balance + dt * ratePerMs);
      this.lastMs = nowMs;
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

  setBurst(burst: number): void {
    this.burst = burst;
    if (this.balance > burst) this.balance = burst;
  }
}
