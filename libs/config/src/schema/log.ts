import { Type } from '@sinclair/typebox';
import { bool, int64, objectList, oneOf, str } from './fields.js';

export const LOG_LEVELS = [
  'debug', 'DEBUG', 'info', 'INFO', 'warn', 'WARN', 'error', 'ERROR', 'fatal', 'FATAL',
  'panic', 'PANIC', 'trace', 'TRACE', 'disabled', 'DISABLED',
] as const;

export const LogWriterConfigSchema = Type.Object({
  compress: bool(false, 'Compresses rotated log files.'),
  file: str('stderr', 'Where to write: stderr, default (/var/log/sluice/<service>.log) or a file path.'),
  max_age: int64(7, 'Days a rotated log file is kept.', { minimum: 0 }),
  max_backups: int64(3, 'Number of rotated log files kept.', { minimum: 0 }),
  max_size: int64(50, 'Size in megabytes at which the log file is rotated.', { minimum: 0 }),
}, { additionalProperties: false });

export const LogConfigSchema = Type.Object({
  level: oneOf(LOG_LEVELS, 'info', 'Lowest level written; disabled turns logging off.'),
  non_blocking: bool(true, 'Writes logs asynchronously; may drop lines at very high throughput.'),
  pretty_console: bool(false, 'Adds a human-friendly writer on stdout; not meant for production.'),
  writers: objectList(LogWriterConfigSchema, 'LogWriterConfig', 'Additional log writers (JSON list in the env variable).'),
}, { additionalProperties: false });
