import type { CheckDecision } from './decision.js';

/** The flow telemetry counter of limiter decisions, rolled up from each check's decision. */
export const LIMITER_DECISIONS_METRIC = 'sluice_limiter_decisions_total';

export const LIMITER_DECISIONS_HELP = 'Flows a limiter decided, per control point, policy, component, component kind (rate_limiter, scheduler, sampler), decision type and whether this limiter dropped the flow.';

/**
 * The series one check's decision counts in: one per limiter that decided it, labelled
 * control_point, policy_name, component_id, component_kind, decision_type (of the whole flow)
 * and limiter_dropped (whether this limiter refused it). Value 1 each.
 */
export function decisionSeries(d: CheckDecision, emit: (metric: string, labels: Readonly<Record<string, string>>, value: number) => void): void {
  const decisionType = d.accepted ? 'DECISION_TYPE_ACCEPTED' : 'DECISION_TYPE_REJECTED';
  for (const l of d.limiters) {
    emit(LIMITER_DECISIONS_METRIC, {
      control_point: d.controlPoint,
      policy_name: l.identity.policy_name,
      component_id: l.identity.component_id,
      component_kind: l.kind.name,
      decision_type: decisionType,
      limiter_dropped: l.result.accepted ? 'false' : 'true',
    }, 1);
  }
}
