/** The state of one check at one path of the registry. */
export interface Status {
  healthy: boolean;
  message: string;
  timestamp: Date;
  details?: Record<string, unknown>;
}

/** What a caller sets; the timestamp defaults to now. */
export interface StatusInput {
  healthy: boolean;
  message?: string;
  timestamp?: Date;
  details?: Record<string, unknown>;
}

/** Aggregate of every entry under a path (the path itself included). */
export interface StatusSummary {
  healthy: boolean;
  /** Entries under the path, keyed by full path. */
  entries: Record<string, Status>;
  /** Paths of unhealthy entries with their messages. */
  failing: Array<{ path: string; message: string }>;
}

export type StatusChangeListener = (path: string, status: Status | undefined) => void;
