import { resolve } from 'node:path';
import winston from 'winston';
import { InvalidArgumentError } from '@sluice/errors';
import type { LogConfig, LogWriterConfig } from '../config.js';
import { defaultLogFile } from '../names.js';
import { LOG_LEVELS } from './level.js';
import { jsonLineFormat, prettyFormat } from './format.js';
import { openRotatingFile, type RotatingFile } from './rotating-file.js';

type Transport = winston.transport;

/** The writer used when `log.writers` is empty. */
export const DEFAULT_WRITER: LogWriterConfig = { file: 'stderr', compress: false, max_age: 7, max_backups: 3, max_size: 50 };

export interface Writers {
  transports: Transport[];
  files: RotatingFile[];
}

/** Where a writer's `file` setting points: `stderr`, or an absolute file path. */
export function resolveWriterTarget(file: string, service: string): string {
  if (file === 'stderr') return 'stderr';
  if (file === 'default') return defaultLogFile(service);
  if (file.trim() === '') throw new InvalidArgumentError('log writer file must not be empty', 'log.writers[].file');
  return resolve(file);
}

/**
 * The winston transports for `log.writers` (one stderr writer when none is
 * given) plus the pretty stdout writer when `pretty_console` is on.
 */
export function createWriters(config: LogConfig, service: string, onProblem: (err: Error) => void): Writers {
  const writers = config.writers.length > 0 ? config.writers : [DEFAULT_WRITER];
  const seen = new Set<string>();
  const transports: Transport[] = [];
  const files: RotatingFile[] = [];
  try {
    writers.forEach((writer, i) => {
      const target = resolveWriterTarget(writer.file, service);
      if (seen.has(target)) {
        throw new InvalidArgumentError(`log.writers[${i}] writes to ${target}, as an earlier writer does`, `log.writers[${i}].file`);
      }
      seen.add(target);
      if (target === 'stderr') {
        transports.push(new winston.transports.Console({ stderrLevels: Object.keys(LOG_LEVELS), format: jsonLineFormat() }));
        return;
      }
      const file = openRotatingFile(target, writer, onProblem);
      files.push(file);
      transports.push(new winston.transports.Stream({ stream: file.stream, format: jsonLineFormat() }));
    });
  } catch (err) {
    for (const file of files) file.stream.end();
    throw err;
  }
  if (config.pretty_console) {
    transports.push(new winston.transports.Console({ format: prettyFormat(process.stdout.isTTY === true) }));
  }
  return { transports, files };
}
