import { FastCounter, type FastCounterChild } from '@sluice/telemetry';
import type { Registry } from 'prom-client';
import type { Classifier, ComponentIdentity, Limiter } from '../check/component.js';
import type { CheckDecision } from '../check/decision.js';

/**
 * Aperture's names of the flow-control counters (its dashboards and users' queries read them), with
 * its labels: per check, per control point; per limiter (rate limiter, sampler, scheduler workload)
 * and classifier that took part in a check.
 */
export const FLOWCONTROL_METRICS = {
  requests: 'flowcontrol_requests_total',
  decisions: 'flowcontrol_decisions_total',
  rejectReasons: 'flowcontrol_reject_reasons_total',
  rateLimiter: 'rate_limiter_counter_total',
  sampler: 'sampler_counter_total',
  classifier: 'classifier_counter_total',
  workloadRequests: 'workload_requests_total',
} as const;

/** Counts what the engine decides. */
export interface DecisionMetrics {
  record(decision: CheckDecision): void;
  /** Drops the series of a limiter or classifier that is gone (a policy removed or replaced). */
  forget(component: Limiter | Classifier): void;
}

const ACCEPTED = 'DECISION_TYPE_ACCEPTED';
const REJECTED = 'DECISION_TYPE_REJECTED';

/**
 * The children of one component (and workload), made when first counted: [flow accepted × 2 + this
 * component dropped it]; a combination that never happens has no series.
 */
interface Quad {
  readonly cells: (FastCounterChild | undefined)[];
  readonly make: (accepted: boolean, dropped: boolean) => FastCounterChild;
  /** Removes the series made. */
  readonly drop: () => void;
}

interface ControlPointCells {
  readonly requests: FastCounterChild;
  readonly accepted: FastCounterChild;
  readonly rejected: FastCounterChild;
  readonly reasons: Map<string, FastCounterChild>;
}

function counter<T extends string>(registry: Registry, name: string, help: string, labelNames: readonly T[]): FastCounter<T> {
  const existing = registry.getSingleMetric(name);
  if (existing instanceof FastCounter) return existing as FastCounter<T>;
  return new FastCounter<T>({ name, help, labelNames, registers: [registry] });
}

const byRegistry = new WeakMap<Registry, Map<string, DecisionMetrics>>();

/**
 * The decision counters of one registry and agent group (shared by every caller that asks again):
 * - `flowcontrol_requests_total{control_point, agent_group}`, `flowcontrol_decisions_total{control_point,
 *   decision_type, agent_group}`, `flowcontrol_reject_reasons_total{control_point, reject_reason, agent_group}`
 *   (rejections only);
 * - `rate_limiter_counter_total{policy_name, policy_hash, component_id, decision_type, limiter_dropped}`,
 *   `sampler_counter_total{..., decision_type, sampler_dropped}` and `workload_requests_total{...,
 *   decision_type, workload_index, limiter_dropped}` for each limiter a check ran (`decision_type` is the
 *   check's, `*_dropped` whether this limiter turned the flow away);
 * - `classifier_counter_total{policy_name, policy_hash, classifier_index}` for each classifier that ran.
 * Label children are resolved once per control point and component: a check adds to plain numbers.
 */
export function decisionMetrics(registry: Registry, agentGroup: string): DecisionMetrics {
  let perGroup = byRegistry.get(registry);
  if (perGroup === undefined) byRegistry.set(registry, (perGroup = new Map()));
  let m = perGroup.get(agentGroup);
  if (m === undefined) perGroup.set(agentGroup, (m = createDecisionMetrics(registry, agentGroup)));
  return m;
}

function createDecisionMetrics(registry: Registry, agent_group: string): DecisionMetrics {
  const F = FLOWCONTROL_METRICS;
  const requests = counter(registry, F.requests, 'Checks the agent decided, per control point.', ['control_point', 'agent_group']);
  const decisions = counter(registry, F.decisions, 'Checks the agent decided, per control point and decision type.', ['control_point', 'decision_type', 'agent_group']);
  const reasons = counter(registry, F.rejectReasons, 'Rejected checks, per control point and reject reason.', ['control_point', 'reject_reason', 'agent_group']);
  const idLabels = ['policy_name', 'policy_hash', 'component_id', 'decision_type'] as const;
  const rateLimiter = counter(registry, F.rateLimiter, 'Checks a rate limiter took part in, by the check\'s decision and whether the limiter dropped the flow.', [...idLabels, 'limiter_dropped']);
  const sampler = counter(registry, F.sampler, 'Checks a sampler took part in, by the check\'s decision and whether the sampler dropped the flow.', [...idLabels, 'sampler_dropped']);
  const workloads = counter(registry, F.workloadRequests, 'Checks a load scheduler took part in, per workload, by the check\'s decision and whether the scheduler dropped the flow.', [...idLabels, 'workload_index', 'limiter_dropped']);
  const classifiers = counter(registry, F.classifier, 'Times a classifier ran on a flow.', ['policy_name', 'policy_hash', 'classifier_index']);

  const controlPoints = new Map<string, ControlPointCells>();
  const quads = new WeakMap<ComponentIdentity, Quad>();
  const workloadQuads = new WeakMap<ComponentIdentity, Map<string, Quad>>();
  const classifierCells = new Map<string, FastCounterChild>();

  const quadOf = (c: FastCounter<string>, id: ComponentIdentity, dropped: string, extra: Record<string, string> = {}): Quad => {
    const labelsOf = (accepted: boolean, drop: boolean): Record<string, string> => ({
      policy_name: id.policy_name, policy_hash: id.policy_hash, component_id: id.component_id,
      decision_type: accepted ? ACCEPTED : REJECTED, ...extra, [dropped]: String(drop),
    });
    const cells: (FastCounterChild | undefined)[] = [undefined, undefined, undefined, undefined];
    return {
      cells,
      make: (accepted, drop) => c.child(labelsOf(accepted, drop)),
      drop: () => cells.forEach((cell, i) => { if (cell !== undefined) c.remove(labelsOf(i >= 2, i % 2 === 1)); }),
    };
  };
  const cellsOf = (cp: string): ControlPointCells => {
    let cells = controlPoints.get(cp);
    if (cells === undefined) {
      cells = {
        requests: requests.child({ control_point: cp, agent_group }),
        accepted: decisions.child({ control_point: cp, decision_type: ACCEPTED, agent_group }),
        rejected: decisions.child({ control_point: cp, decision_type: REJECTED, agent_group }),
        reasons: new Map(),
      };
      controlPoints.set(cp, cells);
    }
    return cells;
  };

  return {
    record(d) {
      const cells = cellsOf(d.controlPoint);
      cells.requests.inc();
      const ok = d.accepted ? 1 : 0;
      if (d.accepted) {
        cells.accepted.inc();
      } else {
        cells.rejected.inc();
        let r = cells.reasons.get(d.rejectReason);
        if (r === undefined) cells.reasons.set(d.rejectReason, (r = reasons.child({ control_point: d.controlPoint, reject_reason: d.rejectReason, agent_group })));
        r.inc();
      }
      const limiters = d.limiters;
      for (let i = 0; i < limiters.length; i++) {
        const l = limiters[i];
        const dropped = l.result.accepted ? 0 : 1;
        let q: Quad | undefined;
        // Schedulers admit by workload: their series are per workload.
        if (l.kind.counter === 'workload') {
          let byWorkload = workloadQuads.get(l.identity);
          if (byWorkload === undefined) workloadQuads.set(l.identity, (byWorkload = new Map()));
          const wl = l.result.workloadIndex ?? 'default';
          q = byWorkload.get(wl);
          if (q === undefined) byWorkload.set(wl, (q = quadOf(workloads, l.identity, 'limiter_dropped', { workload_index: wl })));
        } else {
          q = quads.get(l.identity);
          if (q === undefined) {
            q = l.kind.counter === 'sampler' ? quadOf(sampler, l.identity, 'sampler_dropped') : quadOf(rateLimiter, l.identity, 'limiter_dropped');
            quads.set(l.identity, q);
          }
        }
        const at = ok * 2 + dropped;
        (q.cells[at] ??= q.make(ok === 1, dropped === 1)).inc();
      }
      const ran = d.classifiers;
      for (let i = 0; i < ran.length; i++) {
        const c = ran[i];
        const key = classifierKey(c);
        let cell = classifierCells.get(key);
        if (cell === undefined) {
          cell = classifiers.child({ policy_name: c.policy_name, policy_hash: c.policy_hash, classifier_index: String(c.classifier_index) });
          classifierCells.set(key, cell);
        }
        cell.inc();
      }
    },
    forget(component) {
      if (component.kind === 'classifier') {
        const id = component.identity;
        if (classifierCells.delete(classifierKey(id))) classifiers.remove({ policy_name: id.policy_name, policy_hash: id.policy_hash, classifier_index: String(id.classifier_index) });
        return;
      }
      quads.get(component.identity)?.drop();
      quads.delete(component.identity);
      for (const q of workloadQuads.get(component.identity)?.values() ?? []) q.drop();
      workloadQuads.delete(component.identity);
    },
  };
}

function classifierKey(c: { policy_name: string; policy_hash: string; classifier_index: number }): string {
  return `${c.policy_name}\u0000${c.policy_hash}\u0000${c.classifier_index}`;
}
