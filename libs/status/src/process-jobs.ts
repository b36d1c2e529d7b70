import { tryParseDuration } from '@sluice/config';
import { JobGroup, type Job, type JobConfig, type JobGroupConfig } from '@sluice/jobs';
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

export interface ProcessJobs {
  readonly liveness: JobGroup;
  readonly readiness: JobGroup;
  start(): void;
  shutdown(): Promise<void>;
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
    loop.close();
    throw err;
  }
  return {
    liveness,
    readiness,
    start(): void {
      liveness.start();
      readiness.start();
    },
    async shutdown(): Promise<void> {
      await Promise.all([liveness.shutdown(), readiness.shutdown()]);
      loop.close();
    },
  };
}
