/**
 * The configuration objects this library consumes, with the SPEC's field
 * names and types. They arrive validated and with every default filled in;
 * libs/config's types of the same names fit them structurally.
 */

/** Every spelling of `log.level` the SPEC accepts. */
export type LogLevelSetting =
  | 'debug' | 'DEBUG'
  | 'info' | 'INFO'
  | 'warn' | 'WARN'
  | 'error' | 'ERROR'
  | 'fatal' | 'FATAL'
  | 'panic' | 'PANIC'
  | 'trace' | 'TRACE'
  | 'disabled' | 'DISABLED';

/** SPEC LogWriterConfig. */
export interface LogWriterConfig {
  /** Gzip rotated files. Default false. */
  compress: boolean;
  /** `stderr`, `default` (/var/log/sluice/<service>.log) or a file path. Default `stderr`. */
  file: string;
  /** Days to keep rotated files; 0 keeps them regardless of age. Default 7. */
  max_age: number;
  /** Rotated files to keep; 0 keeps them all. Default 3. */
  max_backups: number;
  /** Size in MB at which the file rotates; 0 means the default of 100 MB. Default 50. */
  max_size: number;
}

/** SPEC LogConfig. */
export interface LogConfig {
  level: LogLevelSetting | string;
  /** Writes go through a bounded buffer; may lose logs at high throughput. Default true. */
  non_blocking: boolean;
  /** Extra human-readable writer on stdout. Default false. */
  pretty_console: boolean;
  writers: readonly LogWriterConfig[];
}

/** SPEC MetricsConfig. */
export interface MetricsConfig {
  /** Registers the runtime collector (nodejs_* event loop, GC, heap metrics). */
  enable_go_metrics: boolean;
  /** Registers the process collector (process_* CPU, memory, file descriptors, start time). */
  enable_process_collector: boolean;
  /** Uses a registry that refuses inconsistent metrics. */
  pedantic: boolean;
}

/** SPEC ProfilersConfig. */
export interface ProfilersConfig {
  /** Profiles the CPU from start to a file; the HTTP profile endpoint answers 409 while on. */
  cpu_profiler: boolean;
  /** `default` (/var/log/sluice/<service>/profiles) or a directory. */
  profiles_path: string;
  /** Registers /debug/pprof/ profile, symbol, cmdline (and heap). Default true. */
  register_http_routes: boolean;
}

/** The process names Sluice runs as; they name log files and profile directories. */
export type ServiceName = 'agent' | 'controller' | 'tap' | (string & {});
