import { InvalidArgumentError, ErrorCode } from '@sluice/errors';
import type { Engine } from '../check/engine.js';
import type { LocalLimiterSpec } from './local-limiters-config.js';
import { LocalTokenBucketStore } from '@sluice/tokenbucket';
import { RateLimiter } from '../limiters/rate-limiter.js';
import type { RateLimiterMetrics } from '../limiters/rate-limiter-metrics.js';

export interface LocalLimitersOptions {
  /** Counts bucket evictions (rateLimiterMetrics of the process registry). */
  metrics?: RateLimiterMetrics;
}

/** A rate limiter of the local limiters file, ready to register. */
export function createLocalRateLimiter(spec: LocalLimiterSpec, opts: LocalLimitersOptions = {}): RateLimiter {
  const store = new LocalTokenBucketStore(
    { capacity: spec.bucket_capacity, fillAmount: spec.fill_amount, intervalMs: spec.interval, continuousFill: spec.continuous_fill },
    { maxIdleMs: spec.max_idle_time, maxKeys: spec.max_buckets, ...(opts.metrics !== undefined ? { onEvict: opts.metrics.evictionsOf(spec.name) } : {}) },
  );
  return new RateLimiter({
    identity: { policy_name: 'local', policy_hash: '', component_id: spec.name },
    store,
    ...(spec.label_key !== undefined ? { labelKey: spec.label_key } : {}),
    tokensLabelKey: spec.tokens_label_key,
    tokensFromRequestLabels: spec.tokens_from_request_labels,
    fractionalTokens: spec.fractional_tokens,
  });
}

/**
 * Register the local rate limiters on the engine (those of other agent
 * groups are skipped by the engine). All label matchers are compiled first,
 * so a bad one registers nothing; an error names the limiter
 * (`[1].label_matcher.match_expressions[0].operator`). Answers a function
 * that removes them all.
 */
export function applyLocalLimiters(engine: Engine, specs: readonly LocalLimiterSpec[], opts: LocalLimitersOptions = {}): () => void {
  const undo: (() => void)[] = [];
  try {
    specs.forEach((spec, i) => {
      try {
        undo.push(engine.register(createLocalRateLimiter(spec, opts), {
          control_point: spec.control_point,
          service: spec.service,
          agent_group: spec.agent_group,
          label_matcher: spec.label_matcher,
        }));
      } catch (err) {
        if (err instanceof InvalidArgumentError) {
          const field = `[${i}].${err.field ?? 'label_matcher'}`;
          throw new InvalidArgumentError(`[${i}].${err.message}`, field, ErrorCode.LOCAL_LIMITERS);
        }
        throw err;
      }
    });
  } catch (err) {
    for (const u of undo) u();
    throw err;
  }
  return () => { for (const u of undo) u(); };
}
