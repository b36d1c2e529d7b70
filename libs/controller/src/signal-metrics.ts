import { Counter, Summary, type Registry } from 'prom-client';

export const SIGNAL_READING_METRIC = 'signal_reading';
export const INVALID_SIGNAL_READINGS_METRIC = 'invalid_signal_readings_total';
export const INFINITE_SIGNAL_READINGS_METRIC = 'infinite_signal_readings_total';

/** The labels of a signal's series: Aperture's (policy_name, signal_name, sub_circuit_id) and the writing component. */
export type SignalLabel = 'policy_name' | 'component_id' | 'signal_name' | 'sub_circuit_id';

/** Policies have one circuit: every signal is in the root one. */
export const ROOT_SUB_CIRCUIT = 'root';

interface PolicySeries {
  readonly readings: Map<string, Summary.Internal<SignalLabel>>;
  readonly labels: Map<string, Record<SignalLabel, string>>;
}

/**
 * What the circuits' signals read, per policy, signal and the component writing it, as Aperture
 * exports them so its dashboards and queries work: `signal_reading` (a summary of the valid finite
 * readings, quantiles 0, 0.01, 0.05, 0.5, 0.9, 0.99 and 1 over the last 10 minutes),
 * `invalid_signal_readings_total` and `infinite_signal_readings_total`.
 */
export class SignalMetrics {
  private readonly reading: Summary<SignalLabel>;
  private readonly invalid: Counter<SignalLabel>;
  private readonly infinite: Counter<SignalLabel>;
  private readonly policies = new Map<string, PolicySeries>();

  constructor(registry: Registry) {
    const labelNames = ['policy_name', 'component_id', 'signal_name', 'sub_circuit_id'] as const;
    const registers = [registry];
    this.reading = new Summary({
      name: SIGNAL_READING_METRIC, help: 'The readings of a circuit\'s signal (valid and finite ones).', labelNames, registers,
      percentiles: [0, 0.01, 0.05, 0.5, 0.9, 0.99, 1], maxAgeSeconds: 600, ageBuckets: 5,
    });
    this.invalid = new Counter({ name: INVALID_SIGNAL_READINGS_METRIC, help: 'Ticks at which a circuit\'s signal was invalid.', labelNames, registers });
    this.infinite = new Counter({ name: INFINITE_SIGNAL_READINGS_METRIC, help: 'Ticks at which a circuit\'s signal was +Inf or -Inf.', labelNames, registers });
  }

  /** One tick's signals of `policy` (null: invalid); `writers` names the component writing each one. */
  record(policy: string, signals: Readonly<Record<string, number | null>>, writers: ReadonlyMap<string, string> | undefined): void {
    let series = this.policies.get(policy);
    if (series === undefined) {
      series = { readings: new Map(), labels: new Map() };
      this.policies.set(policy, series);
    }
    for (const name of Object.keys(signals)) {
      let labels = series.labels.get(name);
      if (labels === undefined) {
        labels = { policy_name: policy, component_id: writers?.get(name) ?? '', signal_name: name, sub_circuit_id: ROOT_SUB_CIRCUIT };
        series.labels.set(name, labels);
      }
      const value = signals[name];
      if (value === null || Number.isNaN(value)) {
        this.invalid.inc(labels);
      } else if (!Number.isFinite(value)) {
        this.infinite.inc(labels);
      } else {
        let summary = series.readings.get(name);
        if (summary === undefined) {
          summary = this.reading.labels(labels);
          series.readings.set(name, summary);
        }
        summary.observe(value);
      }
    }
  }

  /** Drop the series of a policy that stopped (a new version starts its own). */
  forgetPolicy(policy: string): void {
    const series = this.policies.get(policy);
    if (series === undefined) return;
    this.policies.delete(policy);
    for (const labels of series.labels.values()) {
      this.reading.remove(labels);
      this.invalid.remove(labels);
      this.infinite.remove(labels);
    }
  }
}
