import type { JobConfig, JobGroupConfig } from '@sluice/config';

// A periodic job (`execution_period`, `execution_timeout`, `initially_healthy`) and how the jobs of a
// group share execution (`blocking_execution`, `worker_limit`), as @sluice/config validates them.
export type { JobConfig, JobGroupConfig } from '@sluice/config';

export const DEFAULT_JOB_CONFIG: Readonly<JobConfig> = Object.freeze({
  execution_period: '10s',
  execution_timeout: '5s',
  initially_healthy: false,
});

export const DEFAULT_JOB_GROUP_CONFIG: Readonly<JobGroupConfig> = Object.freeze({
  blocking_execution: false,
  worker_limit: 0,
});
