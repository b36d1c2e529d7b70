/** What a run may return instead of nothing: an explicit verdict with a message. */
export interface JobOutcome {
  /** Defaults to true. */
  healthy?: boolean;
  message?: string;
  details?: Record<string, unknown>;
}

/** A unit of periodic work. `run` should stop promptly when `signal` aborts. */
export interface Job {
  readonly name: string;
  run(signal: AbortSignal): Promise<JobOutcome | void> | JobOutcome | void;
}

/** The latest state of one job, as reported to listeners. */
export interface JobResult {
  group: string;
  job: string;
  healthy: boolean;
  message: string;
  /** When this result was produced. */
  timestamp: Date;
  /** Completed runs so far (0 for the initial status). */
  runs: number;
  /** Duration of the run in milliseconds (0 for the initial status). */
  durationMs: number;
  details?: Record<string, unknown>;
}

export type JobListener = (result: JobResult) => void;
