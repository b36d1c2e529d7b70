import type { LimiterDecision, LimiterDecision__Output } from '@sluice/proto';
import type { LimiterResult } from '../check/component.js';

/**
 * How a kind of limiter writes the details of its decision in a LimiterDecision (check.proto):
 * the member of the `details` oneof it fills, and that member's message.
 */
export interface LimiterDetails {
  /** The member of LimiterDecision's `details` oneof (check.proto's members). */
  readonly field: NonNullable<LimiterDecision['details']>;
  /** Its message type, under `aperture.flowcontrol.check.v1.LimiterDecision` (the registry's test checks it is the member's). */
  readonly message: string;
  /** The message in wire shape (a field at its default may be undefined). */
  wire(r: LimiterResult): object;
  /** The member as a client decodes it (every field set). */
  output(r: LimiterResult): Partial<LimiterDecision__Output>;
  /**
   * Its message is `label`, `workload_index`, `tokens_info`, `priority` in that order (some may
   * be absent), and `wire` writes them from the result's label, workloadIndex, counts and
   * priority: the answer writer keeps the bytes around the counts and writes only the counts
   * of each decision (limiter-decision-wire.ts). It checks the message's shape.
   */
  readonly counted?: boolean;
}

/** A result's token counts as a TokensInfo in wire shape. */
export const tokensWire = (r: LimiterResult) => ({ remaining: r.remaining, current: r.current, consumed: r.tokens });
/** A result's token counts as a TokensInfo as a client decodes it. */
export const tokensOutput = (r: LimiterResult) => ({ remaining: r.remaining ?? 0, current: r.current ?? 0, consumed: r.tokens ?? 0 });

/** RateLimiterInfo: the bucket's label and its token counts. */
export const RATE_LIMITER_INFO: LimiterDetails = {
  field: 'rate_limiter_info',
  message: 'RateLimiterInfo',
  wire: (r) => ({ label: r.label, tokens_info: tokensWire(r) }),
  output: (r) => ({ rate_limiter_info: { label: r.label ?? '', tokens_info: tokensOutput(r) } }),
  counted: true,
};

/** SchedulerInfo: the workload, its priority and the token counts. */
export const SCHEDULER_INFO: LimiterDetails = {
  field: 'load_scheduler_info',
  message: 'SchedulerInfo',
  wire: (r) => ({ workload_index: r.workloadIndex, tokens_info: tokensWire(r), priority: r.priority }),
  output: (r) => ({ load_scheduler_info: { workload_index: r.workloadIndex ?? '', tokens_info: tokensOutput(r), priority: r.priority ?? 0 } }),
  counted: true,
};

/** QuotaSchedulerInfo: the bucket's label, the workload, its priority and the token counts. */
export const QUOTA_SCHEDULER_INFO: LimiterDetails = {
  field: 'quota_scheduler_info',
  message: 'QuotaSchedulerInfo',
  wire: (r) => ({ label: r.label, workload_index: r.workloadIndex, tokens_info: tokensWire(r), priority: r.priority }),
  output: (r) => ({
    quota_scheduler_info: { label: r.label ?? '', workload_index: r.workloadIndex ?? '', tokens_info: tokensOutput(r), priority: r.priority ?? 0 },
  }),
  counted: true,
};

/** SamplerInfo: the label the decision was sticky on. */
export const SAMPLER_INFO: LimiterDetails = {
  field: 'sampler_info',
  message: 'SamplerInfo',
  wire: (r) => ({ label: r.label }),
  output: (r) => ({ sampler_info: { label: r.label ?? '' } }),
};
