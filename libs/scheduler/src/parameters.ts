import { InvalidArgumentError } from '@sluice/errors';

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

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function bad(path: string, rule: string): never {
  throw new InvalidArgumentError(`${path}: ${rule}`, path);
}

function optString(o: Record<string, unknown>, key: string, path: string): string | undefined {
  const v = o[key];
  if (v === undefined || v === '') return undefined;
  if (typeof v !== 'string') bad(`${path}.${key}`, 'want a string');
  return v;
}

function optNumber(o: Record<string, unknown>, key: string, path: string, min: number, exclusive = false): number | undefined {
  const v = o[key];
  if (v === undefined) return undefined;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < min || (exclusive && v === min)) {
    bad(`${path}.${key}`, `want a number ${exclusive ? '>' : '>='} ${min}`);
  }
  return v;
}

function workloadParameters(v: unknown, path: string): WorkloadParameters {
  if (v === undefined) return { priority: 1 };
  if (!isObject(v)) bad(path, 'want an object');
  const tokens = optNumber(v, 'tokens', path, 0);
  const timeout = optNumber(v, 'queue_timeout_ms', path, 0);
  const fairness = optString(v, 'fairness_key', path);
  return {
    priority: optNumber(v, 'priority', path, 0, true) ?? 1,
    ...(tokens !== undefined ? { tokens } : {}),
    ...(timeout !== undefined ? { queue_timeout_ms: timeout } : {}),
    ...(fairness !== undefined ? { fairness_key: fairness } : {}),
  };
}

/** Read and check published scheduler parameters; throws InvalidArgumentError naming the member at fault. */
export function parseSchedulerParameters(v: unknown, path = 'parameters'): SchedulerParameters {
  if (!isObject(v)) bad(path, 'want an object');
  const rawWorkloads = v.workloads ?? [];
  if (!Array.isArray(rawWorkloads)) bad(`${path}.workloads`, 'want a list');
  const workloads = (rawWorkloads as unknown[]).map((w, i): WorkloadSpec => {
    const wp = `${path}.workloads[${i}]`;
    if (!isObject(w)) bad(wp, 'want an object');
    const name = optString(w, 'name', wp) ?? String(i);
    if (w.label_matcher !== undefined && !isObject(w.label_matcher)) bad(`${wp}.label_matcher`, 'want an object');
    return {
      name,
      ...(w.label_matcher !== undefined ? { label_matcher: w.label_matcher } : {}),
      parameters: workloadParameters(w.parameters, `${wp}.parameters`),
    };
  });
  const priorityKey = optString(v, 'priority_label_key', path);
  const workloadKey = optString(v, 'workload_label_key', path);
  for (const b of ['workload_latency_based_tokens', 'dry_run'] as const) {
    if (v[b] !== undefined && typeof v[b] !== 'boolean') bad(`${path}.${b}`, 'want a boolean');
  }
  return {
    workloads,
    default_workload_parameters: workloadParameters(v.default_workload_parameters, `${path}.default_workload_parameters`),
    tokens_label_key: optString(v, 'tokens_label_key', path) ?? 'tokens',
    ...(priorityKey !== undefined ? { priority_label_key: priorityKey } : {}),
    ...(workloadKey !== undefined ? { workload_label_key: workloadKey } : {}),
    decision_deadline_margin_ms: optNumber(v, 'decision_deadline_margin_ms', path, 0) ?? 10,
    workload_latency_based_tokens: v.workload_latency_based_tokens !== false,
    dry_run: v.dry_run === true,
  };
}
