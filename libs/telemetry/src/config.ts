// The configuration objects this library consumes (`log`, `metrics`, `profilers`), as @sluice/config
// validates them, every default filled in.

/** Every spelling of `log.level` accepted. */
export type LogLevelSetting =
  | 'debug' | 'DEBUG'
  | 'info' | 'INFO'
  | 'warn' | 'WARN'
  | 'error' | 'ERROR'
  | 'fatal' | 'FATAL'
  | 'panic' | 'PANIC'
  | 'trace' | 'TRACE'
  | 'disabled' | 'DISABLED';

export type { LogWriterConfig, LogConfig, MetricsConfig, ProfilersConfig } from '@sluice/config';

/** The process names Sluice runs as; they name log files and profile directories. */
export type ServiceName = 'agent' | 'controller' | 'tap' | (string & {});
