/**
 * Tokens per millisecond over a sliding window: the tokens of the previous
 * full window plus the current one, over the time they cover. It reacts to
 * new traffic within a fraction of the window and forgets an idle period
 * after two windows.
 */
export class TokenRate {
  private windowStart: number;
  private previous = 0;
  private current = 0;

  constructor(nowMs: number, readonly windowMs: number) {
    this.windowStart = nowMs;
  }

  private roll(nowMs: number): void {
    const elapsed = nowMs - this.windowStart;
    if (elapsed < this.windowMs) return;
    if (elapsed < 2 * this.windowMs) {
      this.previous = this.current;
      this.windowStart += this.windowMs;
    } else {
      this.previous = 0;
      this.windowStart = nowMs;
    }
    this.current = 0;
  }

  add(nowMs: number, tokens: number): void {
    this.roll(nowMs);
    this.current += tokens;
  }

  /** Tokens per millisecond; 0 before any token. */
  perMs(nowMs: number): number {
    this.roll(nowMs);
    const elapsed = Math.max(nowMs - this.windowStart, this.windowMs / 10);
    return (this.previous + this.current) / (this.windowMs + elapsed);
  }
}
