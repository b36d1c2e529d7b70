import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { SignalMetrics } from './signal-metrics.js';

/** The controller's own metrics, on the process registry. */
export class ControllerMetrics {
  readonly circuitTicks: Counter<'policy_name'>;
  readonly circuitTickErrors: Counter<'policy_name'>;
  readonly promqlDuration: Histogram<'policy_name'>;
  readonly promqlFailures: Counter<'policy_name' | 'reason'>;
  readonly publications: Counter<'kind' | 'operation'>;
  readonly publicationFailures: Counter<'kind' | 'operation'>;
  readonly publicationRepairs: Counter<'kind' | 'reason'>;
  /** What the circuits' signals read (signal_reading and the counts of invalid and infinite readings). */
  readonly signals: SignalMetrics;

  constructor(registry: Registry, policiesByStatus: () => Map<string, number>) {
    const registers = [registry];
    new Gauge({
      name: 'policies', help: 'Policies the controller runs, by status (running, failed).', labelNames: ['status'], registers,
      collect() {
        this.reset();
        const counts = policiesByStatus();
        for (const status of ['running', 'failed']) this.set({ status }, counts.get(status) ?? 0);
      },
    });
    this.circuitTicks = new Counter({ name: 'circuit_ticks_total', help: 'Evaluations of policy circuits.', labelNames: ['policy_name'], registers });
    this.circuitTickErrors = new Counter({ name: 'circuit_tick_errors_total', help: 'Circuit evaluations that failed (the decisions kept their last value).', labelNames: ['policy_name'], registers });
    this.promqlDuration = new Histogram({
      name: 'promql_job_duration_seconds', help: 'Time a PromQL job took, in seconds (successes and failures).', labelNames: ['policy_name'], registers,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    });
    this.promqlFailures = new Counter({
      name: 'promql_job_failures_total', help: 'PromQL jobs that made their signal invalid, by reason (error, result, timeout).',
      labelNames: ['policy_name', 'reason'], registers,
    });
    this.publications = new Counter({
      name: 'policy_publications_total', help: 'Keys written or deleted in etcd for the agents, by kind (config, decision, policy).',
      labelNames: ['kind', 'operation'], registers,
    });
    this.publicationFailures = new Counter({
      name: 'policy_publication_failures_total', help: 'Writes or deletes in etcd that failed (retried until they succeed).',
      labelNames: ['kind', 'operation'], registers,
    });
    this.publicationRepairs = new Counter({
      name: 'policy_publication_repairs_total',
      help: 'Published keys found in etcd differing from what the controller wants, and corrected, by kind (config, decision) and reason (changed, deleted, unowned).',
      labelNames: ['kind', 'reason'], registers,
    });
    this.signals = new SignalMetrics(registry);
  }

  /** Forget the series of a policy that went away. */
  forgetPolicy(policy: string): void {
    this.circuitTicks.remove({ policy_name: policy });
    this.circuitTickErrors.remove({ policy_name: policy });
    this.promqlDuration.remove({ policy_name: policy });
    for (const reason of ['error', 'result', 'timeout']) this.promqlFailures.remove({ policy_name: policy, reason });
    this.signals.forgetPolicy(policy);
  }
}
