import { Type, type Static } from '@sinclair/typebox';
import { NonNegative, publishedComponent, publishedDecision, publishedKind, EXAMPLE_COMMON } from './common.js';
import { PublishedSchedulerParameters } from './load-scheduler.js';
import { PublishedRateLimiterParameters } from './rate-limiter.js';

/** flow_control.quota_scheduler: a rate limiter's token bucket (shared by the agent group) spent through a weighted-fair queue. */
export const PublishedQuotaScheduler = publishedComponent('quota_scheduler', {
  rate_limiter: PublishedRateLimiterParameters,
  scheduler: PublishedSchedulerParameters,
});
export type PublishedQuotaScheduler = Static<typeof PublishedQuotaScheduler>;

export const QuotaSchedulerDecision = publishedDecision('quota_scheduler', {
  bucket_capacity: NonNegative('Tokens a bucket holds at most.'),
  fill_amount: NonNegative('Tokens added per interval.'),
  pass_through: Type.Boolean({ description: 'Accept every flow.' }),
});
export type QuotaSchedulerDecision = Static<typeof QuotaSchedulerDecision>;

export const quotaSchedulerContract = publishedKind({
  component: PublishedQuotaScheduler,
  decision: QuotaSchedulerDecision,
  example: {
    component: {
      ...EXAMPLE_COMMON, kind: 'quota_scheduler', component_id: 'root.0', selectors: [{ control_point: 'ingress' }],
      rate_limiter: { interval_ms: 1000, continuous_fill: true, max_idle_time_ms: 1000 }, scheduler: { workloads: [] },
    },
    decision: { kind: 'quota_scheduler', bucket_capacity: 10, fill_amount: 5, pass_through: false },
  },
});
