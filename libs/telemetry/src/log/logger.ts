import type { LogThreshold } from './level.js';
import type { LogMeta } from './entry.js';

/** What every library takes to log with: the four everyday levels. */
export interface Logger {
  error(msg: string, meta?: LogMeta): void;
  warn(msg: string, meta?: LogMeta): void;
  info(msg: string, meta?: LogMeta): void;
  debug(msg: string, meta?: LogMeta): void;
}

/** A Logger that drops everything (a library's default, tests, benchmarks). */
export const silentLogger: Logger = { error: () => {}, warn: () => {}, info: () => {}, debug: () => {} };

/**
 * The logger createLogger returns: every documented level (`fatal` and `panic` are
 * severities only: they never exit or throw), and the drop counter of the
 * non-blocking buffer.
 */
export interface SluiceLogger extends Logger {
  trace(msg: string, meta?: LogMeta): void;
  fatal(msg: string, meta?: LogMeta): void;
  panic(msg: string, meta?: LogMeta): void;
  /** A logger that adds `meta` to every line it writes. */
  child(meta: LogMeta): SluiceLogger;
  /** Writes out what is buffered; the root logger then closes its writers. */
  close(): Promise<void>;
  /** The configured threshold. */
  readonly level: LogThreshold;
  /** Messages lost because the non-blocking buffer was full. */
  droppedMessages(): number;
}
