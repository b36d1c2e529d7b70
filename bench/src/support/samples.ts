/** Latency samples in a preallocated Float64Array; exact nearest-rank percentiles by sorting. */
export class Samples {
  private readonly values: Float64Array;
  private n = 0;
  private sorted: Float64Array | undefined;

  constructor(capacity: number) {
    this.values = new Float64Array(capacity);
  }

  get count(): number {
    return this.n;
  }

  add(ms: number): void {
    if (this.n < this.values.length) this.values[this.n++] = ms;
    this.sorted = undefined;
  }

  /** The smallest sample with at least q of all samples at or below it; NaN when empty. */
  percentile(q: number): number {
    if (this.n === 0) return NaN;
    this.sorted ??= this.values.slice(0, this.n).sort();
    return this.sorted[Math.min(this.n - 1, Math.max(0, Math.ceil(q * this.n) - 1))];
  }
}
