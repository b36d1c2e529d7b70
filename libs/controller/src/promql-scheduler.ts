import type { HttpClient } from '@sluice/clients';
import { DeadlineExceededError } from '@sluice/errors';
import type { JobGroup } from '@sluice/jobs';
import type { ControllerMetrics } from './metrics.js';
import type { PromqlQuery } from './policy-language.js';
import { PromqlResultError, queryPrometheus } from './promql-query.js';

/** The PromQL jobs of one policy: the latest value of each query (undefined while invalid). */
export interface PromqlHandle {
  readonly values: ReadonlyMap<string, number | undefined>;
  /** The last failure of any of its queries, cleared when that query succeeds again. */
  lastError(): string | undefined;
  /** Deregisters its queries (a run under way is aborted). */
  shutdown(): Promise<void>;
}

export interface PromqlSchedulerOptions {
  client: HttpClient;
  baseUrl: string;
  metrics: ControllerMetrics;
  onError?(policy: string, queryId: string, message: string): void;
}

function reasonOf(err: unknown, signal: AbortSignal): 'timeout' | 'result' | 'error' {
  if (signal.aborted || err instanceof DeadlineExceededError) return 'timeout';
  if (err instanceof PromqlResultError) return 'result';
  return 'error';
}

/**
 * Schedules each policy's PromQL queries as jobs of the `policies.promql_jobs_scheduler`
 * group: a job runs at once, then every `evaluationIntervalMs` of its query, and times out
 * after that same interval, so a query still running when the next is due fails (its
 * signal becomes invalid) instead of piling up. A failed, timed-out or non-single-valued
 * query makes its signal invalid until it succeeds again.
 */
export class PromqlScheduler {
  constructor(private readonly group: JobGroup, private readonly opts: PromqlSchedulerOptions) {}

  /** Registers the queries (already carrying `prometheus.labels`) of `policy`. */
  add(policy: string, queries: readonly PromqlQuery[]): PromqlHandle {
    const values = new Map<string, number | undefined>();
    const errors = new Map<string, string>();
    const names: string[] = [];
    let stopped = false;
    for (const q of queries) {
      values.set(q.id, undefined);
      const name = `${policy}/${q.id}`;
      names.push(name);
      const interval = `${Math.max(1, Math.round(q.evaluationIntervalMs))}ms`;
      this.group.register({
        name,
        run: async (signal) => {
          const started = performance.now();
          try {
            const v = await queryPrometheus(this.opts.client, this.opts.baseUrl, q.query, signal);
            if (stopped) return;
            values.set(q.id, v);
            errors.delete(q.id);
            return { message: `value ${v}` };
          } catch (err) {
            const reason = reasonOf(err, signal);
            const message = reason === 'timeout' ? `query ${q.id} timed out after ${interval}` : `query ${q.id}: ${err instanceof Error ? err.message : String(err)}`;
            if (!stopped) {
              values.set(q.id, undefined);
              errors.set(q.id, message);
              this.opts.metrics.promqlFailures.inc({ policy_name: policy, reason });
              this.opts.onError?.(policy, q.id, message);
            }
            throw err;
          } finally {
            if (!stopped) this.opts.metrics.promqlDuration.observe({ policy_name: policy }, (performance.now() - started) / 1000);
          }
        },
      }, { execution_period: interval, execution_timeout: interval, initially_healthy: false });
    }
    return {
      values,
      lastError: () => errors.values().next().value,
      shutdown: async () => {
        stopped = true;
        await Promise.all(names.map((n) => this.group.deregister(n)));
      },
    };
  }
}
