import { once } from 'node:events';
import winston from 'winston';
import { Counter, type Registry } from 'prom-client';
import type { LogConfig, ServiceName } from '../config.js';
import { checkServiceName } from '../names.js';
import { LOG_LEVELS, levelEnabled, parseLogLevel, type LogLevelName, type LogThreshold } from './level.js';
import type { LogEntry, LogMeta } from './entry.js';
import type { SluiceLogger } from './logger.js';
import { NonBlockingBuffer } from './non-blocking.js';
import { createWriters, type Writers } from './writers.js';

/** Entries the non-blocking buffer holds by default. */
export const DEFAULT_LOG_BUFFER_SIZE = 1000;

export const LOG_DROPPED_METRIC = 'log_messages_dropped_total';

export interface LoggerOptions {
  /** Registry for the `log_messages_dropped_total` counter. */
  registry?: Registry;
  /** Capacity of the non-blocking buffer, in messages. */
  bufferSize?: number;
}

function droppedCounter(registry: Registry): Counter {
  const existing = registry.getSingleMetric(LOG_DROPPED_METRIC);
  if (existing instanceof Counter) return existing;
  return new Counter({
    name: LOG_DROPPED_METRIC,
    help: 'Log messages dropped because the non-blocking log buffer was full.',
    registers: [registry],
  });
}

function reportProblem(err: Error): void {
  process.stderr.write(`sluice: log writer problem: ${err.message}\n`);
}

/** The shared part of a logger and its children: threshold, buffer, winston and writers. */
class LoggerCore {
  private readonly winston: winston.Logger | undefined;
  private readonly writers: Writers | undefined;
  private readonly buffer: NonBlockingBuffer<LogEntry> | undefined;
  private closing: Promise<void> | undefined;

  constructor(
    readonly threshold: LogThreshold,
    readonly service: string,
    config: LogConfig,
    opts: LoggerOptions,
  ) {
    const counter = opts.registry === undefined ? undefined : droppedCounter(opts.registry);
    if (threshold === 'disabled') return;
    this.writers = createWriters(config, service, reportProblem);
    this.winston = winston.createLogger({
      levels: LOG_LEVELS,
      level: threshold,
      transports: this.writers.transports,
      exitOnError: false,
    });
    if (config.non_blocking) {
      const logger = this.winston;
      this.buffer = new NonBlockingBuffer<LogEntry>(
        opts.bufferSize ?? DEFAULT_LOG_BUFFER_SIZE,
        {
          write: (entry) => {
            this.write(entry);
            return !logger.writableNeedDrain;
          },
          onceDrained: (resume) => logger.once('drain', resume),
        },
        () => counter?.inc(),
      );
    }
  }

  emit(level: LogLevelName, message: string, meta: LogMeta | undefined): void {
    if (this.winston === undefined || this.closing !== undefined || !levelEnabled(this.threshold, level)) return;
    const entry: LogEntry = { level, message, timestamp: new Date().toISOString(), service: this.service };
    if (meta !== undefined) entry.meta = meta;
    if (this.buffer !== undefined) this.buffer.push(entry);
    else this.write(entry);
  }

  /**
   * Hands an entry to winston. Meta that cannot be serialized (a throwing
   * toJSON or getter) must neither throw into the caller nor, from the
   * non-blocking drain, out of a timer: the line is written without it.
   */
  private write(entry: LogEntry): void {
    const logger = this.winston as winston.Logger;
    try {
      logger.log(entry);
    } catch (err) {
      const problem = err instanceof Error ? err.message : String(err);
      reportProblem(new Error(`log meta could not be serialized: ${problem}`));
      logger.log({ ...entry, meta: { log_meta_error: problem } });
    }
  }

  dropped(): number {
    return this.buffer?.droppedCount() ?? 0;
  }

  flush(): Promise<void> {
    return this.buffer?.flush() ?? Promise.resolve();
  }

  close(): Promise<void> {
    this.closing ??= this.shutdown();
    return this.closing;
  }

  private async shutdown(): Promise<void> {
    await this.buffer?.flush();
    if (this.winston === undefined || this.writers === undefined) return;
    const finished = this.writers.transports.map((t) => once(t, 'finish'));
    this.winston.end();
    await Promise.all(finished);
    await Promise.all(
      this.writers.files.map((f) => new Promise<void>((resolve) => f.stream.end(() => resolve()))),
    );
    await Promise.all(this.writers.files.map((f) => f.pruned()));
  }
}

class BoundLogger implements SluiceLogger {
  constructor(
    private readonly core: LoggerCore,
    private readonly bindings: LogMeta | undefined,
    private readonly root: boolean,
  ) {}

  get level(): LogThreshold {
    return this.core.threshold;
  }

  private write(level: LogLevelName, msg: string, meta: LogMeta | undefined): void {
    const merged = this.bindings === undefined ? meta : meta === undefined ? this.bindings : { ...this.bindings, ...meta };
    this.core.emit(level, msg, merged);
  }

  panic(msg: string, meta?: LogMeta): void { this.write('panic', msg, meta); }
  fatal(msg: string, meta?: LogMeta): void { this.write('fatal', msg, meta); }
  error(msg: string, meta?: LogMeta): void { this.write('error', msg, meta); }
  warn(msg: string, meta?: LogMeta): void { this.write('warn', msg, meta); }
  info(msg: string, meta?: LogMeta): void { this.write('info', msg, meta); }
  debug(msg: string, meta?: LogMeta): void { this.write('debug', msg, meta); }
  trace(msg: string, meta?: LogMeta): void { this.write('trace', msg, meta); }

  child(meta: LogMeta): SluiceLogger {
    return new BoundLogger(this.core, { ...this.bindings, ...meta }, false);
  }

  droppedMessages(): number {
    return this.core.dropped();
  }

  /** A child only flushes: the writers belong to the root logger. */
  close(): Promise<void> {
    return this.root ? this.core.close() : this.core.flush();
  }
}

/**
 * The process logger for `log.*`: JSON lines (timestamp, level, service, msg,
 * meta) to every writer, at or above `log.level`; nothing at all when the
 * level is `disabled`.
 */
export function createLogger(config: LogConfig, service: ServiceName, opts: LoggerOptions = {}): SluiceLogger {
  const threshold = parseLogLevel(config.level);
  const core = new LoggerCore(threshold, checkServiceName(service), config, opts);
  return new BoundLogger(core, undefined, true);
}
