/** SPEC `JobConfig`: one periodic job. Durations are Go duration strings. */
export interface JobConfig {
  /** `10s`; zero or negative means never periodic (the job runs once at start and on `trigger`). */
  execution_period: string;
  /** `5s`; a run longer than this is aborted and counts as failed. Zero or negative: no timeout. */
  execution_timeout: string;
  /** Status reported before the first run completes. */
  initially_healthy: boolean;
}

/** SPEC `JobGroupConfig`: how the jobs of one group share execution. */
export interface JobGroupConfig {
  /** When true all runs of the group are serialized (one at a time). */
  blocking_execution: boolean;
  /** At most this many runs of the group at once; 0 means no limit; ignored when blocking. */
  worker_limit: number;
}

export const DEFAULT_JOB_CONFIG: Readonly<JobConfig> = Object.freeze({
  execution_period: '10s',
  execution_timeout: '5s',
  initially_healthy: false,
});

export const DEFAULT_JOB_GROUP_CONFIG: Readonly<JobGroupConfig> = Object.freeze({
  blocking_execution: false,
  worker_limit: 0,
});
