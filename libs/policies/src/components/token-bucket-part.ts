import type { PublishedDecision } from '../published.js';
import type { InPort } from '../schema/ports.js';
import type { KindCompiled, KindContext, SignalValue } from './kind.js';

/** The in-ports of a token bucket (rate limiter, quota scheduler). */
export interface BucketInPorts {
  bucket_capacity?: InPort;
  fill_amount?: InPort;
  pass_through?: InPort;
}

/** The bucket parameters as written in a policy (rate limiter's `parameters`, quota scheduler's `rate_limiter`). */
export interface BucketSpec {
  interval?: string;
  continuous_fill?: boolean;
  max_idle_time?: string;
  lazy_sync?: { enabled?: boolean; num_sync?: number };
}

/** Declares a bucket's three in-ports, in the order the runtime of `bucketCompiled` reads them. */
export function bucketInputs(ports: BucketInPorts, ctx: KindContext): void {
  const at = `${ctx.path}.in_ports`;
  ctx.input(ports.bucket_capacity, `${at}.bucket_capacity`, { minimum: 0, finite: true });
  ctx.input(ports.fill_amount, `${at}.fill_amount`, { minimum: 0, finite: true });
  ctx.input(ports.pass_through, `${at}.pass_through`);
}

/** The published bucket parameters, defaults filled (`label_key` and `tokens_label_key` given by the kind). */
export function bucketParameters(p: BucketSpec, labelKey: string | undefined, tokensLabelKey: string, ctx: KindContext) {
  return {
    ...(labelKey === undefined || labelKey === '' ? {} : { label_key: labelKey }),
    tokens_label_key: tokensLabelKey,
    interval_ms: ctx.durationMs(p.interval, '1s'),
    continuous_fill: p.continuous_fill ?? true,
    max_idle_time_ms: ctx.durationMs(p.max_idle_time, '7200s'),
    lazy_sync: { enabled: p.lazy_sync?.enabled ?? false, num_sync: p.lazy_sync?.num_sync ?? 4 },
  };
}

/** The decision of a kind whose decision is a bucket's (capacity, fill, pass-through). */
type BucketDecision = Extract<PublishedDecision, { bucket_capacity: number; fill_amount: number; pass_through: boolean }>;

/**
 * The runtime of a bucket: each tick decides capacity, fill and pass-through from the in-ports
 * (the last valid, non-negative value is kept; nothing is decided until both numbers are known).
 */
export function bucketCompiled(kind: BucketDecision['kind']): KindCompiled {
  return {
    createRuntime() {
      let capacity: number | undefined;
      let fill: number | undefined;
      let passThrough = false;
      return {
        tick(inputs: readonly SignalValue[]) {
          const [c, f, pt] = inputs;
          if (c !== null && c !== undefined && c >= 0 && Number.isFinite(c)) capacity = c;
          if (f !== null && f !== undefined && f >= 0 && Number.isFinite(f)) fill = f;
          if (pt !== null && pt !== undefined) passThrough = pt !== 0;
          if (capacity === undefined || fill === undefined) return { outputs: [] };
          return { outputs: [], decision: { kind, bucket_capacity: capacity, fill_amount: fill, pass_through: passThrough } };
        },
      };
    },
  };
}
