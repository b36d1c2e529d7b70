import { tryParseDuration } from '@sluice/config';
import { JobGroup, type Job, type JobConfig, type JobGroupConfig } from '@sluice/jobs';
import { LifecycleGroup, type Lifecycle, type ShutdownOptions } from '@sluice/lifecycle';
import { eventLoopJob } from './event-loop-job.js';
import type { StatusRegistry } from './status-registry.js';

/** The `liveness.*` and `readiness.*` key trees. */
export interface ProcessJobsConfig {
  liveness: { scheduler: JobGroupConfig; service: JobConfig };
  readiness: { scheduler: JobGroupConfig; service: JobConfig };
}

export interface ProcessChecks {
  /** Extra liveness jobs (the event-loop check is always there). */
  liveness?: Job[];
  /** Readiness jobs supplied by the app, such as "server listening". */
  readiness?: Job[];
}

export interface ProcessJobs extends Lifecycle {
  readonly liveness: JobGroup;
  readonly readiness: JobGroup;
  start(): Promise<void>;
  shutdown(opts?: ShutdownOptions): Promise<void>;
}

/** A job that is healthy while `test` answers true. */
export function predicateJob(name: string, test: (signal: AbortSignal) => boolean | Promise<boolean>, unhealthyMessage: string, healthyMessage = 'ok'): Job {
  return {
    name,
    async run(signal) {
      return (await test(signal)) ? { healthy: true, message: healthyMessage } : { healthy: false, message: unhealthyMessage };
    },
  };
}

/**
 * Builds the process's liveness and readiness job groups from configuration:
 * group `liveness` (scheduler `liveness.scheduler`, every job on `liveness.service`)
 * holds the built-in `event_loop` job plus `checks.liveness` and files results at
 * `liveness/service/<job>`; group `readiness` holds `checks.readiness` at
 * `readiness/service/<job>`. The event loop counts as blocked when a delay exceeds
 * `liveness.service.execution_timeout` (5s when that is not positive).
 */
export function registerProcessJobs(config: ProcessJobsConfig, registry: StatusRegistry, checks: ProcessChecks = {}): ProcessJobs {
  const liveness = new JobGroup('liveness', config.liveness.scheduler, registry.jobListener('liveness/service'));
  const readiness = new JobGroup('readiness', config.readiness.scheduler, registry.jobListener('readiness/service'));
  const timeoutMs = tryParseDuration(config.liveness.service.execution_timeout) ?? 0;
  const loop = eventLoopJob({ maxDelayMs: timeoutMs > 0 ? timeoutMs : 5000 });
  try {
    liveness.register(loop, config.liveness.service);
    for (const job of checks.liveness ?? []) liveness.register(job, config.liveness.service);
    for (const job of checks.readiness ?? []) readiness.register(job, config.readiness.service);
  } catch (err) {
    void loop.shutdown();
    throw err;
  }
  // The event-loop monitor stops after the groups that run it.
  const group = new LifecycleGroup({ name: 'health jobs' })
    .add({ name: 'event loop monitor', shutdown: (opts) => loop.shutdown(opts) })
    .add({ name: 'liveness', start: () => liveness.start(), shutdown: (opts) => liveness.shutdown(opts) })
    .add({ name: 'readiness', start: () => readiness.start(), shutdown: (opts) => readiness.shutdown(opts) });
  return {
    liveness,
    readiness,
    start: () => group.start(),
    shutdown: (opts) => group.shutdown(opts),
  };
}
