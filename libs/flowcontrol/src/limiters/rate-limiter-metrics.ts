import { Counter, type Registry } from 'prom-client';
import type { BucketEvictionReason } from '@sluice/tokenbucket';

export const BUCKET_EVICTIONS_METRIC = 'sluice_rate_limiter_bucket_evictions_total';

/** Metrics of the local rate limiters of one process. */
export interface RateLimiterMetrics {
  /** The eviction callback of one limiter's bucket store. */
  evictionsOf(componentId: string): (reason: BucketEvictionReason, count: number) => void;
}

/**
 * `sluice_rate_limiter_bucket_evictions_total{component_id, reason}`: buckets dropped by a local
 * store, `reason="capacity"` when the key bound pushed out the least recently used one (its key
 * starts over with a full bucket: a rising count means the bound is too low for the label's
 * values), `reason="idle"` when one was unused for max_idle_time (it would be full again anyway).
 * One counter per registry, shared by every limiter registered with it.
 */
export function rateLimiterMetrics(registry: Registry): RateLimiterMetrics {
  const existing = registry.getSingleMetric(BUCKET_EVICTIONS_METRIC) as Counter<'component_id' | 'reason'> | undefined;
  const evictions = existing ?? new Counter({
    name: BUCKET_EVICTIONS_METRIC,
    help: 'Token buckets dropped by a local rate limiter store: reason capacity (least recently used, past the key bound) or idle (past max_idle_time).',
    labelNames: ['component_id', 'reason'] as const,
    registers: [registry],
  });
  return {
    evictionsOf(componentId) {
      return (reason, count) => evictions.inc({ component_id: componentId, reason }, count);
    },
  };
}
