/** The logging surface the tap needs (a subset of @sluice/telemetry's Logger). */
export interface TapLogger {
  error(msg: string, meta?: Record<string, unknown>): void;
  warn(msg: string, meta?: Record<string, unknown>): void;
  info(msg: string, meta?: Record<string, unknown>): void;
  debug(msg: string, meta?: Record<string, unknown>): void;
}

export type LogLevel = 'error' | 'warn' | 'info' | 'debug';
export const LOG_LEVELS: readonly LogLevel[] = ['error', 'warn', 'info', 'debug'];

/** One JSON object per line on `out` (stderr by default), at `level` and above. */
export function createJsonLogger(level: LogLevel, out: NodeJS.WritableStream = process.stderr): TapLogger {
  const max = LOG_LEVELS.indexOf(level);
  const write = (lvl: LogLevel) => (msg: string, meta?: Record<string, unknown>): void => {
    if (LOG_LEVELS.indexOf(lvl) > max) return;
    out.write(`${JSON.stringify({ level: lvl, time: new Date().toISOString(), service: 'tap', msg, ...meta })}\n`);
  };
  return { error: write('error'), warn: write('warn'), info: write('info'), debug: write('debug') };
}

/** A logger that drops everything (tests, benchmarks). */
export const silentLogger: TapLogger = { error: () => {}, warn: () => {}, info: () => {}, debug: () => {} };
