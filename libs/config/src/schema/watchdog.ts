import { Type } from '@sinclair/typebox';
import { bool, float64, floatList, int64, uint64 } from './fields.js';
import { JobConfigSchema } from './jobs.js';

export const AdaptivePolicySchema = Type.Object({
  enabled: bool(false, 'Forces a collection when usage passes factor of the memory still available.'),
  factor: float64(0.5, 'Next target = usage + (limit - usage) * factor.', { minimum: 0, maximum: 1 }),
}, { additionalProperties: false });

export const WatermarksPolicySchema = Type.Object({
  enabled: bool(false, 'Forces a collection at each watermark; wins over the adaptive policy.'),
  watermarks: floatList([0.5, 0.75, 0.8, 0.85, 0.9, 0.95, 0.99], 'Fractions of the limit, strictly increasing, each within 0..1; past the last one the watchdog disarms.', { minimum: 0, maximum: 1, increasing: true }),
}, { additionalProperties: false });

export const WatchdogPolicyTypeSchema = Type.Object({
  adaptive_policy: AdaptivePolicySchema,
  watermarks_policy: WatermarksPolicySchema,
}, { additionalProperties: false });

export const HeapConfigSchema = Type.Object({
  limit: uint64(268_435_456, 'Maximum process memory in bytes (default 256 MB).'),
  min_gogc: int64(25, 'Lowest collection target percentage.', { minimum: 0, maximum: 100 }),
  adaptive_policy: AdaptivePolicySchema,
  watermarks_policy: WatermarksPolicySchema,
}, { additionalProperties: false });

export const WatchdogConfigSchema = Type.Object({
  cgroup: WatchdogPolicyTypeSchema,
  heap: HeapConfigSchema,
  job: JobConfigSchema,
  system: WatchdogPolicyTypeSchema,
}, { additionalProperties: false });
