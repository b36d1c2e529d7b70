import { InvalidArgumentError } from '@sluice/errors';

/**
 * Severities, most severe first, with winston's numbering (lower is more
 * severe). `panic` and `fatal` sit above `error` and keep their own names in
 * the output; `trace` is the most verbose.
 */
export const LOG_LEVELS = {
  panic: 0,
  fatal: 1,
  error: 2,
  warn: 3,
  info: 4,
  debug: 5,
  trace: 6,
} as const;

export type LogLevelName = keyof typeof LOG_LEVELS;

/** A configured threshold: a level, or `disabled` (nothing is written). */
export type LogThreshold = LogLevelName | 'disabled';

/**
 * Reads `log.level` in any documented spelling (lower or upper case).
 * Anything else is refused with the key path.
 */
export function parseLogLevel(setting: string): LogThreshold {
  const lower = setting.toLowerCase();
  if (setting !== lower && setting !== setting.toUpperCase()) {
    throw invalid(setting);
  }
  if (lower === 'disabled') return 'disabled';
  if (Object.prototype.hasOwnProperty.call(LOG_LEVELS, lower)) return lower as LogLevelName;
  throw invalid(setting);
}

/** True when a message at `level` passes `threshold`. */
export function levelEnabled(threshold: LogThreshold, level: LogLevelName): boolean {
  return threshold !== 'disabled' && LOG_LEVELS[level] <= LOG_LEVELS[threshold];
}

function invalid(setting: string): InvalidArgumentError {
  return new InvalidArgumentError(
    `log.level "${setting}" is not one of debug, info, warn, error, fatal, panic, trace, disabled (lower or upper case)`,
    'log.level',
  );
}
