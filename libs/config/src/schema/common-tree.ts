import { Type } from '@sinclair/typebox';
import { JobConfigSchema, JobGroupConfigSchema } from './jobs.js';

/** `liveness` / `readiness`: the scheduler of the health jobs and the service job. */
export const HealthTreeSchema = Type.Object({
  scheduler: JobGroupConfigSchema,
  service: JobConfigSchema,
}, { additionalProperties: false });
