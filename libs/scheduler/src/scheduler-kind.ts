import { readLabel, readLabelMatcher, SCHEDULER_INFO, type FlowReads, type Limiter, type LimiterKind } from '@sluice/flowcontrol';
import type { SchedulerParameters, WorkloadParameters } from './parameters.js';

/** What a scheduler's workloads read of a flow: their label filters, the priority and workload label keys, the fairness keys. */
export function readSchedulerParameters(p: SchedulerParameters, into: FlowReads): void {
  // tokens_label_key is not read: the cost of an HTTP flow comes from classifier outputs only.
  if (p.priority_label_key !== undefined) readLabel(into, p.priority_label_key);
  if (p.workload_label_key !== undefined) readLabel(into, p.workload_label_key);
  const fairness = (w: WorkloadParameters): void => {
    if (w.fairness_key !== undefined) readLabel(into, w.fairness_key);
  };
  fairness(p.default_workload_parameters);
  for (const w of p.workloads) {
    readLabelMatcher(into, w.label_matcher);
    fairness(w.parameters);
  }
}

/**
 * The load scheduler's kind: the last group, 503 NO_TOKENS, SchedulerInfo; it reads what its
 * workloads read. A limiter of this kind carries its parsed `parameters`.
 */
export const LOAD_SCHEDULER_KIND: LimiterKind = {
  name: 'load_scheduler',
  group: 2,
  rejectReason: 'REJECT_REASON_NO_TOKENS',
  deniedStatus: 503,
  counter: 'workload',
  details: SCHEDULER_INFO,
  reads(limiter: Limiter, into: FlowReads) {
    const p = (limiter as { parameters?: SchedulerParameters }).parameters;
    if (p === undefined || !Array.isArray(p.workloads)) into.all = true;
    else readSchedulerParameters(p, into);
  },
};
