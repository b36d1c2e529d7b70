import { Type, type Static } from '@sinclair/typebox';
import { NonNegative, PublishedLabelMatcher, publishedComponent, publishedDecision, publishedKind, EXAMPLE_COMMON } from './common.js';

/** What one workload's flows get, durations in milliseconds. */
export const PublishedWorkloadParameters = Type.Object({
  priority: Type.Optional(Type.Number({ exclusiveMinimum: 0, description: 'Higher goes first; default 1.' })),
  tokens: Type.Optional(NonNegative('Tokens a flow costs; absent: the tokens label, else the estimate, else 1.')),
  queue_timeout_ms: Type.Optional(NonNegative('Longest wait in the queue; absent: only the caller\'s deadline; 0: never waits.')),
  fairness_key: Type.Optional(Type.String({ description: 'A flow label: flows of equal priority share fairly by its value.' })),
});
export type PublishedWorkloadParameters = Static<typeof PublishedWorkloadParameters>;

export const PublishedWorkload = Type.Object({
  name: Type.Optional(Type.String({ description: 'Default: its index.' })),
  label_matcher: Type.Optional(PublishedLabelMatcher),
  parameters: Type.Optional(PublishedWorkloadParameters),
});

/** The weighted-fair queue's parameters (a load scheduler's `parameters`); absent members take their defaults. */
export const PublishedSchedulerParameters = Type.Object({
  workloads: Type.Optional(Type.Array(PublishedWorkload)),
  default_workload_parameters: Type.Optional(PublishedWorkloadParameters),
  tokens_label_key: Type.Optional(Type.String({ description: 'Default `tokens`.' })),
  priority_label_key: Type.Optional(Type.String()),
  workload_label_key: Type.Optional(Type.String()),
  decision_deadline_margin_ms: Type.Optional(NonNegative('Taken off the caller\'s deadline; default 10.')),
  workload_latency_based_tokens: Type.Optional(Type.Boolean({ description: 'Learn tokens from flow durations; default true.' })),
  dry_run: Type.Optional(Type.Boolean({ description: 'Decide and count, but accept every flow; default false.' })),
});
export type PublishedSchedulerParameters = Static<typeof PublishedSchedulerParameters>;

export const PublishedLoadScheduler = publishedComponent('load_scheduler', { parameters: PublishedSchedulerParameters });
export type PublishedLoadScheduler = Static<typeof PublishedLoadScheduler>;

export const LoadSchedulerDecision = publishedDecision('load_scheduler', {
  load_multiplier: NonNegative('The share of the incoming token rate admitted.'),
  pass_through: Type.Boolean({ description: 'Accept every flow.' }),
});
export type LoadSchedulerDecision = Static<typeof LoadSchedulerDecision>;

export const loadSchedulerContract = publishedKind({
  component: PublishedLoadScheduler,
  decision: LoadSchedulerDecision,
  example: {
    component: { ...EXAMPLE_COMMON, kind: 'load_scheduler', component_id: 'root.0', selectors: [{ control_point: 'ingress' }], parameters: { workloads: [] } },
    decision: { kind: 'load_scheduler', load_multiplier: 0.5, pass_through: false },
  },
});
