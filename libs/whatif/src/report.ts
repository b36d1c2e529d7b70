import type { FlowOutcome } from './sandbox.js';

/** A sample request in a report: when, which agent saw it, its labels. */
export interface ExampleFlow {
  arrival_unix_ms: number;
  agent?: string;
  labels: Record<string, string>;
  rejected_by?: string;
}

/** The outcomes of the flows of one group (a label value, a workload). */
export interface OutcomeGroup {
  flows: number;
  accepted: number;
  rejected: number;
  rejected_fraction: number;
  /** Rejections by reason and component: `REJECT_REASON_RATE_LIMITED by rate_limiter root.0` → count. */
  rejected_by: Record<string, number>;
  /** Workloads matched: `<component> <workload>` → count. */
  workloads: Record<string, number>;
  examples: { accepted: ExampleFlow[]; rejected: ExampleFlow[] };
}

export interface LabelValueOutcome extends OutcomeGroup {
  value: string;
}

export interface WorkloadOutcome extends OutcomeGroup {
  component_id: string;
  workload: string;
  priority?: number;
}

/** Rejections over time per label value, in equal buckets from the first sample. */
export interface Timeline {
  start_unix_ms: number;
  bucket_ms: number;
  series: { value: string; flows: number[]; rejected: number[] }[];
}

export interface OutcomeReport {
  label_key: string | null;
  flows: number;
  accepted: number;
  rejected: number;
  by_label: LabelValueOutcome[];
  by_workload: WorkloadOutcome[];
  timeline: Timeline;
}

/** Examples kept per outcome and group. */
export const EXAMPLES_PER_OUTCOME = 3;
/** Buckets of the timeline. */
export const TIMELINE_BUCKETS = 20;
/** The value of flows without the label key. */
export const NO_VALUE = '(no value)';
/** Label values listed at most (the busiest); the rest are summed as `(others)`. */
export const MAX_LABEL_VALUES = 50;

function emptyGroup(): OutcomeGroup {
  return { flows: 0, accepted: 0, rejected: 0, rejected_fraction: 0, rejected_by: {}, workloads: {}, examples: { accepted: [], rejected: [] } };
}

function bump(map: Record<string, number>, key: string): void {
  map[key] = (Object.hasOwn(map, key) ? map[key] : 0) + 1;
}

function add(g: OutcomeGroup, o: FlowOutcome): void {
  g.flows++;
  if (o.accepted) g.accepted++;
  else {
    g.rejected++;
    bump(g.rejected_by, `${o.rejectReason}${o.rejectedBy !== undefined ? ` by ${o.rejectedBy}` : ''}`);
  }
  for (const w of o.workloads) bump(g.workloads, `${w.component_id} ${w.workload}`);
  const list = o.accepted ? g.examples.accepted : g.examples.rejected;
  if (list.length < EXAMPLES_PER_OUTCOME) {
    list.push({
      arrival_unix_ms: o.arrivalMs, ...(o.agent !== undefined ? { agent: o.agent } : {}), labels: { ...o.labels },
      ...(o.rejectedBy !== undefined ? { rejected_by: o.rejectedBy } : {}),
    });
  }
}

function finish<T extends OutcomeGroup>(g: T): T {
  g.rejected_fraction = g.flows === 0 ? 0 : g.rejected / g.flows;
  return g;
}

function valueOf(o: FlowOutcome, key: string | null): string {
  if (key === null) return '(all)';
  return Object.hasOwn(o.labels, key) ? o.labels[key] : NO_VALUE;
}

/**
 * The outcomes grouped by the value of `labelKey` (the rate limiter's; null: one group) and by
 * workload, with a few example flows of each outcome, and rejections over time per value.
 */
export function summarize(outcomes: readonly FlowOutcome[], labelKey: string | null): OutcomeReport {
  const byValue = new Map<string, LabelValueOutcome>();
  const byWorkload = new Map<string, WorkloadOutcome>();
  let accepted = 0;
  for (const o of outcomes) {
    if (o.accepted) accepted++;
    const v = valueOf(o, labelKey);
    let g = byValue.get(v);
    if (g === undefined) byValue.set(v, (g = { value: v, ...emptyGroup() }));
    add(g, o);
    for (const w of o.workloads) {
      const k = `${w.component_id}\u0000${w.workload}`;
      let wg = byWorkload.get(k);
      if (wg === undefined) byWorkload.set(k, (wg = { component_id: w.component_id, workload: w.workload, ...(w.priority !== undefined ? { priority: w.priority } : {}), ...emptyGroup() }));
      add(wg, o);
    }
  }
  let values = [...byValue.values()].sort((a, b) => b.flows - a.flows || a.value.localeCompare(b.value));
  if (values.length > MAX_LABEL_VALUES) {
    const others: LabelValueOutcome = { value: '(others)', ...emptyGroup() };
    const kept = new Set(values.slice(0, MAX_LABEL_VALUES - 1).map((g) => g.value));
    for (const o of outcomes) if (!kept.has(valueOf(o, labelKey))) add(others, o);
    values = [...values.slice(0, MAX_LABEL_VALUES - 1), others];
  }
  return {
    label_key: labelKey,
    flows: outcomes.length,
    accepted,
    rejected: outcomes.length - accepted,
    by_label: values.map(finish),
    by_workload: [...byWorkload.values()].map(finish),
    timeline: timeline(outcomes, labelKey, new Set(values.map((g) => g.value))),
  };
}

function timeline(outcomes: readonly FlowOutcome[], labelKey: string | null, listed: ReadonlySet<string>): Timeline {
  let start = Infinity;
  let end = -Infinity;
  for (const o of outcomes) {
    start = Math.min(start, o.arrivalMs);
    end = Math.max(end, o.arrivalMs);
  }
  if (outcomes.length === 0) return { start_unix_ms: 0, bucket_ms: 0, series: [] };
  const bucketMs = Math.max(1, Math.ceil((end - start + 1) / TIMELINE_BUCKETS));
  const series = new Map<string, { value: string; flows: number[]; rejected: number[] }>();
  for (const o of outcomes) {
    const raw = valueOf(o, labelKey);
    const v = listed.has(raw) ? raw : '(others)';
    let s = series.get(v);
    if (s === undefined) series.set(v, (s = { value: v, flows: new Array<number>(TIMELINE_BUCKETS).fill(0), rejected: new Array<number>(TIMELINE_BUCKETS).fill(0) }));
    const i = Math.min(TIMELINE_BUCKETS - 1, Math.floor((o.arrivalMs - start) / bucketMs));
    s.flows[i]++;
    if (!o.accepted) s.rejected[i]++;
  }
  return { start_unix_ms: start, bucket_ms: bucketMs, series: [...series.values()].sort((a, b) => a.value.localeCompare(b.value)) };
}
