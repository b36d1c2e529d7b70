import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, extname, resolve } from 'node:path';
import type { RotatingFileStream } from 'rotating-file-stream';
import { SluiceError, GrpcCode, ErrorCode } from '@sluice/errors';
import type { LogWriterConfig } from '../config.js';
import { fileTimestamp } from '../names.js';
import { pruneOldBackups } from './age-pruning.js';

type RotatingFileStreamModule = typeof import('rotating-file-stream');
let rfs: RotatingFileStreamModule | undefined;

/**
 * rotating-file-stream, loaded with the first log file: a process that logs to stdout only (the
 * separate tap, whose idle RSS is held to 60 MB) never loads it or the zlib streams it brings.
 */
function rotatingFileStream(): RotatingFileStreamModule {
  rfs ??= createRequire(import.meta.url)('rotating-file-stream') as RotatingFileStreamModule;
  return rfs;
}

/** lumberjack's size when `max_size` is 0. */
const DEFAULT_MAX_SIZE_MB = 100;

export interface RotatingFile {
  readonly path: string;
  readonly stream: RotatingFileStream;
  /** Resolves when the age pruning started by the last rotation (or the start) is over. */
  pruned(): Promise<void>;
}

/**
 * A log file rotated by size, as lumberjack does it: at `max_size` MB the file
 * is renamed `<name>-<UTC timestamp><ext>` (gzipped to `.gz` with `compress`),
 * at most `max_backups` rotated files are kept (0: all), and rotated files
 * older than `max_age` days are deleted (0: never).
 * Rotation, counting and compression are rotating-file-stream's; the age
 * limit is ours, since that library has none.
 */
export function openRotatingFile(file: string, config: LogWriterConfig, onProblem: (err: Error) => void): RotatingFile {
  const path = resolve(file);
  const dir = dirname(path);
  const base = basename(path);
  const ext = extname(base);
  const stem = ext === '' ? base : base.slice(0, -ext.length);
  try {
    mkdirSync(dir, { recursive: true });
  } catch (err) {
    throw new SluiceError(ErrorCode.LOG_WRITER, `cannot create the log directory ${dir}: ${(err as Error).message}`, {
      grpcCode: GrpcCode.FAILED_PRECONDITION,
      cause: err,
    });
  }

  const sizeMb = config.max_size > 0 ? config.max_size : DEFAULT_MAX_SIZE_MB;
  const generator = (time: number | Date | null, index?: number): string => {
    if (time === null) return base;
    const when = typeof time === 'number' ? new Date(time) : time;
    const suffix = index !== undefined && index > 1 ? `.${index}` : '';
    // With a name generator, rotating-file-stream leaves the extension to us.
    return `${stem}-${fileTimestamp(when)}${suffix}${ext}${config.compress ? '.gz' : ''}`;
  };
  const stream = rotatingFileStream().createStream(generator, {
    path: dir,
    size: `${sizeMb}M`,
    ...(config.max_backups > 0 ? { maxFiles: config.max_backups, history: `.${base}.history` } : {}),
    ...(config.compress ? { compress: 'gzip' as const } : {}),
  });

  let pruning: Promise<void> = Promise.resolve();
  const prune = (): void => {
    pruning = pruning
      .then(() => pruneOldBackups(dir, stem, ext, config.max_age))
      .then(() => undefined, (err: Error) => onProblem(err));
  };
  stream.on('rotated', prune);
  stream.on('warning', onProblem);
  stream.on('error', onProblem);
  prune();

  return { path, stream, pruned: () => pruning };
}
