import type { LogLevelName } from './level.js';

/** Extra structured fields of a log line. */
export type LogMeta = Record<string, unknown>;

/** One log call, captured when it is made (the timestamp is not the write time). */
export interface LogEntry {
  level: LogLevelName;
  message: string;
  timestamp: string;
  service: string;
  meta?: LogMeta;
}
