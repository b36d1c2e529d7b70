import { InvalidArgumentError } from '@sluice/errors';
import { contractProblems, PublishedSchedulerParameters, type PublishedWorkloadParameters } from '@sluice/policies';

/** What one workload's flows get: Aperture's `Workload.Parameters`, durations in milliseconds. */
export interface WorkloadParameters {
  /** Higher goes first; > 0. Default 1. */
  priority: number;
  /** Tokens a flow costs; undefined: the tokens label, else the estimate, else 1. */
  tokens?: number;
  /** Longest wait in the queue; undefined: only the caller's deadline bounds it; 0: never waits. */
  queue_timeout_ms?: number;
  /** A flow label: flows of equal priority share fairly by its value (absent: by workload). */
  fairness_key?: string;
}

export interface WorkloadSpec {
  name: string;
  /** A label filter (the preview's language); absent matches every flow. */
  label_matcher?: unknown;
  parameters: WorkloadParameters;
}

/** A load scheduler's published parameters (normalised by the policy compiler). */
export interface SchedulerParameters {
  workloads: WorkloadSpec[];
  default_workload_parameters: WorkloadParameters;
  /** Default `tokens`. */
  tokens_label_key: string;
  priority_label_key?: string;
  workload_label_key?: string;
  /** Taken off the caller's deadline so the answer arrives before it. Default 10 ms. */
  decision_deadline_margin_ms: number;
  /** Learn each workload's tokens from flow durations. Default true. */
  workload_latency_based_tokens: boolean;
  /** Decide and count, but accept every flow and queue none. */
  dry_run: boolean;
}

function nonEmpty(v: string | undefined): string | undefined {
  return v === undefined || v === '' ? undefined : v;
}

function workloadParameters(v: PublishedWorkloadParameters | undefined): WorkloadParameters {
  const fairness = nonEmpty(v?.fairness_key);
  return {
    priority: v?.priority ?? 1,
    ...(v?.tokens !== undefined ? { tokens: v.tokens } : {}),
    ...(v?.queue_timeout_ms !== undefined ? { queue_timeout_ms: v.queue_timeout_ms } : {}),
    ...(fairness !== undefined ? { fairness_key: fairness } : {}),
  };
}

/**
 * Read published scheduler parameters (checked with the load scheduler's published schema, the
 * shared validator) and fill in their defaults; throws InvalidArgumentError naming the member at fault.
 */
export function parseSchedulerParameters(v: unknown, path = 'parameters'): SchedulerParameters {
  const problems = contractProblems(PublishedSchedulerParameters, v, path);
  if (problems.length > 0) throw new InvalidArgumentError(`${problems[0].path}: ${problems[0].message}`, problems[0].path);
  const p = v as PublishedSchedulerParameters;
  const workloads = (p.workloads ?? []).map((w, i): WorkloadSpec => ({
    name: nonEmpty(w.name) ?? String(i),
    ...(w.label_matcher !== undefined ? { label_matcher: w.label_matcher } : {}),
    parameters: workloadParameters(w.parameters),
  }));
  const priorityKey = nonEmpty(p.priority_label_key);
  const workloadKey = nonEmpty(p.workload_label_key);
  return {
    workloads,
    default_workload_parameters: workloadParameters(p.default_workload_parameters),
    tokens_label_key: nonEmpty(p.tokens_label_key) ?? 'tokens',
    ...(priorityKey !== undefined ? { priority_label_key: priorityKey } : {}),
    ...(workloadKey !== undefined ? { workload_label_key: workloadKey } : {}),
    decision_deadline_margin_ms: p.decision_deadline_margin_ms ?? 10,
    workload_latency_based_tokens: p.workload_latency_based_tokens !== false,
    dry_run: p.dry_run === true,
  };
}
