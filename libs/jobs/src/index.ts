export type { JobConfig, JobGroupConfig } from './config.js';
export { DEFAULT_JOB_CONFIG, DEFAULT_JOB_GROUP_CONFIG } from './config.js';
export type { Job, JobOutcome, JobResult, JobListener } from './job.js';
export { JobGroup } from './job-group.js';
export { JobTimeoutError } from './run-with-timeout.js';
export { Reconciler, type ReconcilerOptions, type ReconcilerStats, type RetryDelays } from './reconciler.js';
