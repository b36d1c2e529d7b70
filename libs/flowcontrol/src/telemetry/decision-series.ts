import type { ComponentIdentity } from '../check/component.js';
import type { CheckDecision } from '../check/decision.js';

/** The flow telemetry counter of limiter decisions, rolled up from each check's decision. */
export const LIMITER_DECISIONS_METRIC = 'sluice_limiter_decisions_total';

export const LIMITER_DECISIONS_HELP = 'Flows a limiter decided, per control point, policy, component, component kind (rate_limiter, scheduler, sampler), decision type and whether this limiter dropped the flow.';

const ACCEPTED = 'DECISION_TYPE_ACCEPTED';
const REJECTED = 'DECISION_TYPE_REJECTED';

function labelsOf(controlPoint: string, identity: ComponentIdentity, kind: string, flowAccepted: boolean, limiterAccepted: boolean): Record<string, string> {
  return {
    control_point: controlPoint,
    policy_name: identity.policy_name,
    component_id: identity.component_id,
    component_kind: kind,
    decision_type: flowAccepted ? ACCEPTED : REJECTED,
    limiter_dropped: limiterAccepted ? 'false' : 'true',
  };
}

/**
 * The series one check's decision counts in: one per limiter that decided it, labelled
 * control_point, policy_name, component_id, component_kind, decision_type (of the whole flow)
 * and limiter_dropped (whether this limiter refused it). Value 1 each.
 */
export function decisionSeries(d: CheckDecision, emit: (metric: string, labels: Readonly<Record<string, string>>, value: number) => void): void {
  for (const l of d.limiters) emit(LIMITER_DECISIONS_METRIC, labelsOf(d.controlPoint, l.identity, l.kind.name, d.accepted, l.result.accepted), 1);
}

/** Where decisionCounter counts: interns a series once (answering its cell), adds to a cell. */
export interface DecisionSeriesCounter<C> {
  series(metric: string, labels: Readonly<Record<string, string>>): C;
  add(cell: C, value: number): void;
}

/** The four series of one limiter at one control point: by flow accepted (2) and limiter accepted (1). */
interface LimiterCells<C> {
  readonly kind: string;
  readonly cells: (C | undefined)[];
}

/**
 * decisionSeries without a label object or key per check: the cell of each (limiter, control
 * point, decision type, limiter_dropped) is interned on first use and kept in a cache keyed by the
 * limiter's identity object (a WeakMap, so a removed component's entry goes with it) and the
 * control point, and each check adds 1 to its cells: two lookups and an addition per limiter.
 */
export function decisionCounter<C>(): (d: CheckDecision, emit: unknown, counter: DecisionSeriesCounter<C>) => void {
  const byIdentity = new WeakMap<ComponentIdentity, Map<string, LimiterCells<C>>>();
  return (d, _emit, counter) => {
    const limiters = d.limiters;
    for (let i = 0; i < limiters.length; i++) {
      const l = limiters[i];
      let byCp = byIdentity.get(l.identity);
      if (byCp === undefined) byIdentity.set(l.identity, byCp = new Map());
      let entry = byCp.get(d.controlPoint);
      if (entry === undefined || entry.kind !== l.kind.name) byCp.set(d.controlPoint, entry = { kind: l.kind.name, cells: [undefined, undefined, undefined, undefined] });
      const slot = (d.accepted ? 2 : 0) + (l.result.accepted ? 1 : 0);
      let cell = entry.cells[slot];
      if (cell === undefined) {
        cell = counter.series(LIMITER_DECISIONS_METRIC, labelsOf(d.controlPoint, l.identity, l.kind.name, d.accepted, l.result.accepted));
        entry.cells[slot] = cell;
      }
      counter.add(cell, 1);
    }
  };
}
