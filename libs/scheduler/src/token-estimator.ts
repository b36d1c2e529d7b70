/**
 * Tokens per flow of each workload learned from flow durations (Aperture's
 * `workload_latency_based_tokens`): an exponential moving average of the
 * durations in milliseconds, so a workload's flows cost what they keep the
 * service busy.
 */
export class TokenEstimator {
  private readonly averages = new Map<string, number>();

  /** `alpha` is the weight of a new observation, in (0, 1]. */
  constructor(private readonly alpha = 0.05, private readonly maxWorkloads = 1024) {}

  observe(workloadIndex: string, durationMs: number): void {
    if (!Number.isFinite(durationMs) || durationMs < 0) return;
    const prev = this.averages.get(workloadIndex);
    if (prev === undefined) {
      if (this.averages.size >= this.maxWorkloads) return;
      this.averages.set(workloadIndex, durationMs);
    } else {
      this.averages.set(workloadIndex, prev + this.alpha * (durationMs - prev));
    }
  }

  /** The estimated tokens of a flow of the workload (at least 1), or undefined before any observation. */
  estimate(workloadIndex: string): number | undefined {
    const v = this.averages.get(workloadIndex);
    return v === undefined ? undefined : Math.max(1, v);
  }
}
