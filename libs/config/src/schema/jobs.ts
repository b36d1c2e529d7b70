import { Type } from '@sinclair/typebox';
import { bool, duration, int64 } from './fields.js';

export const JobConfigSchema = Type.Object({
  execution_period: duration('10s', 'Time between two runs of the job; zero or negative means it never runs periodically.', { allowNegative: true }),
  execution_timeout: duration('5s', 'Time a single run may take before it counts as failed.'),
  initially_healthy: bool(false, 'Reports the job healthy before its first run.'),
}, { additionalProperties: false });

export const JobGroupConfigSchema = Type.Object({
  blocking_execution: bool(false, 'Runs jobs synchronously, one at a time.'),
  worker_limit: int64(0, 'Most jobs running at once; 0 means no limit; ignored with blocking_execution.', { minimum: 0 }),
}, { additionalProperties: false });
