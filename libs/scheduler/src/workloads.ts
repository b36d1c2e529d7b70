import { compileLabelMatcher, type FlowLabels, type LabelMatcher } from '@sluice/selectors';
import type { SchedulerParameters, WorkloadParameters } from './parameters.js';

/** The workload a flow falls in. */
export interface MatchedWorkload {
  /** The workload's index in `workloads` as a string, or `default`. */
  readonly index: string;
  readonly name: string;
  readonly parameters: WorkloadParameters;
}

const hasOwn = Object.prototype.hasOwnProperty;

/** The value of an own, string-valued label. */
export function labelOf(labels: FlowLabels, key: string): string | undefined {
  if (!hasOwn.call(labels, key)) return undefined;
  const v: unknown = labels[key];
  return typeof v === 'string' ? v : undefined;
}

/**
 * The workloads of a scheduler with their label matchers compiled once: the
 * first that matches a flow is its workload (or the one the workload label
 * names), else the default.
 */
export class WorkloadTable {
  private readonly entries: { matched: MatchedWorkload; matcher: LabelMatcher | undefined }[];
  private readonly byName = new Map<string, MatchedWorkload>();
  readonly fallback: MatchedWorkload;

  constructor(private readonly p: SchedulerParameters) {
    this.entries = p.workloads.map((w, i) => {
      const lm = w.label_matcher;
      const trivial = lm === undefined || (typeof lm === 'object' && lm !== null && Object.keys(lm).length === 0);
      const matched: MatchedWorkload = { index: String(i), name: w.name, parameters: w.parameters };
      if (!this.byName.has(w.name)) this.byName.set(w.name, matched);
      return { matched, matcher: trivial ? undefined : compileLabelMatcher(lm, `parameters.workloads[${i}].label_matcher`) };
    });
    this.fallback = { index: 'default', name: 'default', parameters: p.default_workload_parameters };
  }

  classify(labels: FlowLabels): MatchedWorkload {
    if (this.p.workload_label_key !== undefined) {
      const name = labelOf(labels, this.p.workload_label_key);
      const named = name === undefined ? undefined : this.byName.get(name);
      if (named !== undefined) return named;
    }
    for (const e of this.entries) if (e.matcher === undefined || e.matcher.matches(labels)) return e.matched;
    return this.fallback;
  }

  get size(): number {
    return this.entries.length;
  }
}
