/** The logging surface the tap needs: @sluice/telemetry's Logger fits it. */
export interface TapLogger {
  error(msg: string, meta?: Record<string, unknown>): void;
  warn(msg: string, meta?: Record<string, unknown>): void;
  info(msg: string, meta?: Record<string, unknown>): void;
  debug(msg: string, meta?: Record<string, unknown>): void;
}

export type LogLevel = 'error' | 'warn' | 'info' | 'debug';
export const LOG_LEVELS: readonly LogLevel[] = ['error', 'warn', 'info', 'debug'];

/** A logger that drops everything (tests, benchmarks). */
export const silentLogger: TapLogger = { error: () => {}, warn: () => {}, info: () => {}, debug: () => {} };
