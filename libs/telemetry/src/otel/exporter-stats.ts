/** What one exporter of the telemetry pipeline has done: the pipeline's own metrics and health read it. */
export class ExporterStats {
  sentPoints = 0;
  failedPoints = 0;
  retries = 0;
  exports = 0;
  failedExports = 0;
  lastError: string | undefined;
  lastSuccessMs: number | undefined;
  lastFailureMs: number | undefined;
  /** Whether the last export succeeded (true before the first). */
  healthy = true;

  constructor(readonly name: string, private readonly now: () => number = Date.now) {}

  sent(points: number): void {
    this.sentPoints += points;
    this.exports++;
    this.lastSuccessMs = this.now();
    this.healthy = true;
  }

  failed(points: number, err: Error): void {
    this.failedPoints += points;
    this.exports++;
    this.failedExports++;
    this.lastError = err.message;
    this.lastFailureMs = this.now();
    this.healthy = false;
  }

  retried(): void {
    this.retries++;
  }

  toJSON(): Record<string, unknown> {
    return {
      exporter: this.name, healthy: this.healthy, exports: this.exports, failed_exports: this.failedExports,
      sent_metric_points: this.sentPoints, failed_metric_points: this.failedPoints, retries: this.retries,
      ...(this.lastSuccessMs !== undefined ? { last_success: new Date(this.lastSuccessMs).toISOString() } : {}),
      ...(this.lastFailureMs !== undefined ? { last_failure: new Date(this.lastFailureMs).toISOString(), last_error: this.lastError } : {}),
    };
  }
}
