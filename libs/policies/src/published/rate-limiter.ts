import { Type, type Static } from '@sinclair/typebox';
import { NonNegative, publishedComponent, publishedDecision, publishedKind, EXAMPLE_COMMON } from './common.js';

/** The parameters of a published rate limiter (also those of a local limiters file's entry). */
export const PublishedRateLimiterParameters = Type.Object({
  label_key: Type.Optional(Type.String({ description: 'The flow label whose value keys a bucket; absent: one bucket.' })),
  tokens_label_key: Type.Optional(Type.String({ description: 'The flow label giving a flow\'s tokens; default `tokens`.' })),
  interval_ms: Type.Number({ exclusiveMinimum: 0, description: 'The interval over which `fill_amount` tokens are added.' }),
  continuous_fill: Type.Boolean({ description: 'Add tokens continuously over the interval.' }),
  max_idle_time_ms: NonNegative('A bucket unused this long is dropped.'),
  lazy_sync: Type.Optional(Type.Object({
    enabled: Type.Boolean(),
    num_sync: Type.Integer({ minimum: 1, maximum: 1000 }),
  })),
});

export const PublishedRateLimiter = publishedComponent('rate_limiter', { parameters: PublishedRateLimiterParameters });
export type PublishedRateLimiter = Static<typeof PublishedRateLimiter>;

export const RateLimiterDecision = publishedDecision('rate_limiter', {
  bucket_capacity: NonNegative('Tokens a bucket holds at most.'),
  fill_amount: NonNegative('Tokens added per interval.'),
  pass_through: Type.Boolean({ description: 'Accept every flow.' }),
});
export type RateLimiterDecision = Static<typeof RateLimiterDecision>;

export const rateLimiterContract = publishedKind({
  component: PublishedRateLimiter,
  decision: RateLimiterDecision,
  example: {
    component: {
      ...EXAMPLE_COMMON, kind: 'rate_limiter', component_id: 'root.0', selectors: [{ control_point: 'ingress' }],
      parameters: { interval_ms: 1000, continuous_fill: true, max_idle_time_ms: 1000 },
    },
    decision: { kind: 'rate_limiter', bucket_capacity: 10, fill_amount: 5, pass_through: false },
  },
});
