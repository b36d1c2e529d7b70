import { Type, type Static } from '@sinclair/typebox';
import { compileLabelMatcher } from '@sluice/selectors';
import { bool, duration, freeForm, list, num, obj, str } from '../schema/fields.js';
import { Selectors } from '../schema/selector.js';
import type { KindContext } from './kind.js';
import { publishByGroup } from './publish-by-group.js';
import type { PublishedSchedulerParameters, PublishedWorkloadParameters } from '../published/load-scheduler.js';

const WorkloadParameters = obj(
  {
    priority: Type.Optional(num('Priority of the workload\'s flows (> 0): a higher one leaves the queue first.', { default: 1, exclusiveMinimum: 0 })),
    tokens: Type.Optional(num('Tokens a flow of the workload costs (e.g. its expected milliseconds of work); unset: the tokens label, else the estimate from flow durations, else 1.', { minimum: 0 })),
    queue_timeout: Type.Optional(duration('Longest wait in the queue; unset: only the caller\'s deadline bounds it; 0s: never waits.', undefined, false)),
    fairness_key: Type.Optional(str('A flow label: flows of equal priority share fairly by its value; unset: by workload.')),
  },
  'What the flows of a workload get.',
  { title: 'WorkloadParameters' },
);

const Workload = obj(
  {
    name: Type.Optional(str('The workload\'s name (the workload label may name it); default its index.')),
    label_matcher: Type.Optional(freeForm('The flows of the workload (the preview\'s filter language); the first workload that matches a flow takes it.')),
    parameters: Type.Optional(WorkloadParameters),
  },
  'A class of flows with a priority, a cost and a queue timeout.',
  { title: 'Workload' },
);

export const SchedulerSchema = obj(
  {
    workloads: Type.Optional(list(Workload, 'Workloads, tried in order.')),
    default_workload_parameters: Type.Optional(WorkloadParameters),
    decision_deadline_margin: Type.Optional(duration('Taken off the caller\'s deadline so that the answer arrives before it.', '0.01s', false)),
    tokens_label_key: Type.Optional(str('The flow label giving a flow\'s tokens (a classifier output for HTTP flows).', { default: 'tokens' })),
    priority_label_key: Type.Optional(str('A flow label overriding the workload\'s priority.')),
    workload_label_key: Type.Optional(str('A flow label naming the workload of a flow (before the matchers).')),
  },
  'The weighted-fair queue of each agent: strict priority, fair sharing within a priority.',
  { title: 'Scheduler' },
);

export const LoadSchedulerParameters = obj(
  {
    workload_latency_based_tokens: Type.Optional(bool('Learn each workload\'s tokens per flow from flow durations when `tokens` is not given.', true)),
    scheduler: Type.Optional(SchedulerSchema),
    selectors: Selectors,
  },
  'Parameters of the load scheduler.',
  { title: 'LoadSchedulerParameters' },
);
export type LoadSchedulerParameters = Static<typeof LoadSchedulerParameters>;

type WorkloadParametersSpec = Static<typeof WorkloadParameters>;

function workloadParameters(p: WorkloadParametersSpec | undefined, ctx: KindContext): PublishedWorkloadParameters {
  return {
    priority: p?.priority ?? 1,
    ...(p?.tokens !== undefined ? { tokens: p.tokens } : {}),
    ...(p?.queue_timeout !== undefined ? { queue_timeout_ms: ctx.durationMs(p.queue_timeout, '0s') } : {}),
    ...(p?.fairness_key !== undefined && p.fairness_key !== '' ? { fairness_key: p.fairness_key } : {}),
  };
}

/**
 * The published parameters of a load scheduler (the agent's scheduler reads this shape): workloads
 * with their label matchers checked, durations in milliseconds, defaults filled in.
 */
export function publishedSchedulerParameters(p: LoadSchedulerParameters, dryRun: boolean, path: string, ctx: KindContext): PublishedSchedulerParameters {
  const s = p.scheduler ?? {};
  const workloads = (s.workloads ?? []).map((w, i) => {
    if (w.label_matcher !== undefined) {
      const at = `${path}.scheduler.workloads[${i}].label_matcher`;
      try {
        compileLabelMatcher(w.label_matcher, at);
      } catch (err) {
        const field = (err as { field?: unknown }).field;
        ctx.problem(typeof field === 'string' ? field : at, err instanceof Error ? err.message : String(err));
      }
    }
    return {
      name: w.name ?? String(i),
      ...(w.label_matcher !== undefined ? { label_matcher: w.label_matcher } : {}),
      parameters: workloadParameters(w.parameters, ctx),
    };
  });
  return {
    workloads,
    default_workload_parameters: workloadParameters(s.default_workload_parameters, ctx),
    tokens_label_key: s.tokens_label_key === undefined || s.tokens_label_key === '' ? 'tokens' : s.tokens_label_key,
    ...(s.priority_label_key !== undefined && s.priority_label_key !== '' ? { priority_label_key: s.priority_label_key } : {}),
    ...(s.workload_label_key !== undefined && s.workload_label_key !== '' ? { workload_label_key: s.workload_label_key } : {}),
    decision_deadline_margin_ms: ctx.durationMs(s.decision_deadline_margin, '0.01s'),
    workload_latency_based_tokens: p.workload_latency_based_tokens ?? true,
    dry_run: dryRun,
  };
}

/** Publish the load scheduler of a component for each agent group of its selectors. */
export function publishLoadScheduler(p: LoadSchedulerParameters, dryRun: boolean, path: string, ctx: KindContext, dryRunConfigKey?: { key: string | undefined; path: string }): void {
  const parameters = publishedSchedulerParameters(p, dryRun, path, ctx);
  // The dynamic configuration's boolean replaces `dry_run` in this component's published parameters.
  if (dryRunConfigKey !== undefined) ctx.configKey(dryRunConfigKey.key, dryRunConfigKey.path, 'boolean', { component_id: ctx.componentId, field: ['parameters', 'dry_run'] });
  publishByGroup(ctx, p.selectors, `${path}.selectors`, { kind: 'load_scheduler', parameters });
}
