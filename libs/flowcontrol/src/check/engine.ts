import { compileLabelMatcher, type LabelMatcher } from '@sluice/selectors';
import { epochNowMs } from '@sluice/tokenbucket';
import type { CancelSource } from './call-cancellation.js';
import type { ComponentSelector, FlowComponent, FluxMeter, Limiter, LimiterKind } from './component.js';
import { ANY_SERVICE, ControlPointComponents, EMPTY_SET, type Registration } from './component-index.js';
import { ControlPointRegistry, type ControlPointRegistryOptions } from './control-point-registry.js';
import { type CheckDecision, type ClassifierRecord, type LimiterRecord } from './decision.js';
import type { FlowObserver } from './flow-observer.js';
import type { FlowRequest } from './flow-request.js';
import { boundedDecision } from './bounded-decision.js';
import { HeaderInterests, readsOf, type HeaderInterest } from '../labels/header-interest.js';
import { CheckContext, FAILED_OPEN, checkComponentKind, copyLabels, decideSafely, define, runClassifier, type RunRecord, type RunState } from './check-run.js';

export interface EngineOptions {
  /** This agent's group (`agent_info.agent_group`); selectors of other groups are ignored. Default `default`. */
  agentGroup?: string;
  controlPoints?: ControlPointRegistryOptions;
  /**
   * Longest wait for a limiter that answers asynchronously (a remote
   * counter) when the caller gave no earlier deadline; past it the limiter
   * fails open. Default 1000 ms.
   */
  asyncDecisionTimeoutMs?: number;
  /** Clock in epoch milliseconds (fractional). Default epochNowMs (@sluice/tokenbucket), which the stores and schedulers share. */
  now?: () => number;
}

const NO_CLASSIFIERS: readonly ClassifierRecord[] = Object.freeze([]);
const NO_NAMES: readonly string[] = Object.freeze([]);
const NO_LIMITERS: readonly LimiterRecord[] = Object.freeze([]);
/** Labels an HTTP flow's cost may come from when no classifier added any: none. */
const NO_LABELS: Readonly<Record<string, string>> = Object.freeze({});
const UNSAFE_VALUE_CHARS = /[\s\\/;",]/g;


function isPromise<T>(v: T | Promise<T>): v is Promise<T> {
  return typeof (v as { then?: unknown }).then === 'function';
}


/**
 * The flow-control engine: components registered per (control point,
 * service), classifiers, then limiters in groups (samplers, rate limiters,
 * schedulers); the first group with a rejection decides, and tokens taken
 * by the limiters that accepted are given back.
 */
export class Engine {
  readonly agentGroup: string;
  readonly controlPoints: ControlPointRegistry;
  private readonly now: () => number;
  /** The engine runs on epochNowMs (DecideContext.realTime). */
  private readonly realTime: boolean;
  private readonly asyncTimeoutMs: number;
  private registrations: Registration[] = [];
  private readonly index = new Map<string, ControlPointComponents>();
  private observers: FlowObserver[] = [];
  private decisionListeners: ((d: CheckDecision) => void)[] = [];
  private fluxMetersByName: Map<string, FluxMeter> | undefined;
  private fluxMeterControlPoints: Map<string, Set<string>> | undefined;
  private limitersById: Map<string, Limiter> | undefined;
  private readonly interests = new HeaderInterests();

  constructor(opts: EngineOptions = {}) {
    this.agentGroup = opts.agentGroup ?? 'default';
    this.controlPoints = new ControlPointRegistry(opts.controlPoints);
    this.now = opts.now ?? epochNowMs;
    this.realTime = this.now === epochNowMs;
    this.asyncTimeoutMs = opts.asyncDecisionTimeoutMs ?? 1000;
  }

  /**
   * Apply `component` to the flows its selector picks. The label matcher is
   * compiled here (an invalid one throws InvalidArgumentError). Answers a
   * function that removes the registration. A selector of another agent
   * group registers nothing.
   */
  register(component: FlowComponent, selector: ComponentSelector): () => void {
    if (typeof selector.control_point !== 'string' || selector.control_point === '') {
      throw new TypeError('selector.control_point must be a non-empty string');
    }
    checkComponentKind(component);
    if ((selector.agent_group ?? 'default') !== this.agentGroup) return () => undefined;
    const lm = selector.label_matcher;
    const isTrivial = lm === undefined || (typeof lm === 'object' && lm !== null && !Array.isArray(lm) && Object.keys(lm).length === 0);
    const matcher: LabelMatcher | undefined = isTrivial ? undefined : compileLabelMatcher(lm, 'label_matcher');
    const reg: Registration = {
      controlPoint: selector.control_point,
      service: selector.service === undefined || selector.service === '' ? ANY_SERVICE : selector.service,
      entry: { component, matcher },
    };
    this.registrations = [...this.registrations, reg];
    this.reindex(reg.controlPoint);
    this.interests.added(reg.controlPoint, reg, readsOf(component, isTrivial ? undefined : lm));
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.registrations = this.registrations.filter((r) => r !== reg);
      this.reindex(reg.controlPoint);
      this.interests.removed(reg.controlPoint, reg);
    };
  }

  /**
   * Hands every decision to `listener` as it is made (the flow telemetry's pre-rollup batch);
   * a listener that throws loses that decision, the flow is decided all the same. Answers the
   * function that removes it.
   */
  addDecisionListener(listener: (d: CheckDecision) => void): () => void {
    this.decisionListeners = [...this.decisionListeners, listener];
    return () => { this.decisionListeners = this.decisionListeners.filter((l) => l !== listener); };
  }

  /** Copy flows to `observer` (the preview); answers the function that stops it. */
  addObserver(observer: FlowObserver): () => void {
    this.observers = [...this.observers, observer];
    const unwatch = this.interests.watch(observer);
    return () => {
      this.observers = this.observers.filter((o) => o !== observer);
      unwatch();
    };
  }

  /**
   * What a CheckHTTP caller must send of `controlPoint`'s requests for its
   * registrations and the observers watching it (see header-interest.ts).
   */
  headerInterest(controlPoint: string): HeaderInterest {
    return this.interests.of(controlPoint);
  }

  /** The registered flux meter of this name (the latest registration wins), for flow ends that name it. */
  fluxMeter(name: string): FluxMeter | undefined {
    if (this.fluxMetersByName === undefined) {
      const byName = new Map<string, FluxMeter>();
      for (const r of this.registrations) if (r.entry.component.kind === 'flux_meter') byName.set(r.entry.component.name, r.entry.component);
      this.fluxMetersByName = byName;
    }
    return this.fluxMetersByName.get(name);
  }

  /**
   * Whether a flux meter of this name is registered at `controlPoint` (one of its selectors names
   * it), for flow ends that name the meter and their control point: a meter measures only the
   * flows at its selectors' control points.
   */
  fluxMeterSelects(name: string, controlPoint: string): boolean {
    if (this.fluxMeterControlPoints === undefined) {
      const byName = new Map<string, Set<string>>();
      for (const r of this.registrations) {
        const c = r.entry.component;
        if (c.kind !== 'flux_meter') continue;
        let cps = byName.get(c.name);
        if (cps === undefined) byName.set(c.name, (cps = new Set()));
        cps.add(r.controlPoint);
      }
      this.fluxMeterControlPoints = byName;
    }
    return this.fluxMeterControlPoints.get(name)?.has(controlPoint) === true;
  }

  /** The registered limiter of this policy and component id (the latest registration wins), for flow ends that name it. */
  limiter(policyName: string, componentId: string): Limiter | undefined {
    if (this.limitersById === undefined) {
      const byId = new Map<string, Limiter>();
      for (const r of this.registrations) {
        const c = r.entry.component;
        if (c.kind !== 'classifier' && c.kind !== 'flux_meter') byId.set(`${c.identity.policy_name}\u0000${c.identity.component_id}`, c);
      }
      this.limitersById = byId;
    }
    return this.limitersById.get(`${policyName}\u0000${componentId}`);
  }

  private reindex(controlPoint: string): void {
    this.fluxMetersByName = undefined;
    this.fluxMeterControlPoints = undefined;
    this.limitersById = undefined;
    const regs = this.registrations.filter((r) => r.controlPoint === controlPoint);
    if (regs.length === 0) this.index.delete(controlPoint);
    else this.index.set(controlPoint, new ControlPointComponents(regs));
  }

  /**
   * Decide on one flow. Synchronous unless a limiter answers with a promise. `cancel`, aborted when
   * the caller goes away, reaches the limiters (a scheduler's waiting flow leaves its queue); a
   * CancelSource's signal is read only when a limiter asks for it.
   */
  check(request: FlowRequest, cancel?: AbortSignal | CancelSource): CheckDecision | Promise<CheckDecision> {
    const nowMs = this.now();
    const cp = request.controlPoint;
    this.controlPoints.record(cp, request.services, request.type ?? 'feature', nowMs);
    const comps = this.index.get(cp);
    const set = comps === undefined ? EMPTY_SET : comps.setFor(request.services);

    let labels = request.labels;
    let addedLabels: Record<string, string> | undefined;
    let hiddenLabels: Set<string> | undefined;
    let classifiers = NO_CLASSIFIERS;
    if (set.classifiers.length > 0) {
      const records: ClassifierRecord[] = [];
      for (const e of set.classifiers) {
        if (e.matcher !== undefined && !e.matcher.matches(request.labels)) continue;
        const out = runClassifier(e.component, request, records);
        if (out === undefined) continue;
        const hides = e.component.hiddenLabels;
        for (const key of Object.keys(out)) {
          const value = out[key];
          if (typeof value !== 'string') continue;
          addedLabels ??= {};
          define(addedLabels, key, value.replace(UNSAFE_VALUE_CHARS, '-'));
          // the rule that set the label last decides whether it may be seen
          if (hides?.has(key) === true) (hiddenLabels ??= new Set()).add(key);
          else hiddenLabels?.delete(key);
        }
      }
      classifiers = records;
      if (addedLabels !== undefined) {
        const merged = copyLabels(request.labels);
        for (const key of Object.keys(addedLabels)) define(merged, key, addedLabels[key]);
        labels = merged;
      }
    }

    let fluxMeters = NO_NAMES;
    if (set.fluxMeters.length > 0) {
      const names: string[] = [];
      for (const e of set.fluxMeters) if (e.matcher === undefined || e.matcher.matches(labels)) names.push(e.component.name);
      fluxMeters = names;
    }

    const observers = this.observers;
    for (let i = 0; i < observers.length; i++) {
      try {
        observers[i].sinkFor(cp)?.observe(request, request.labels, labels);
      } catch {
        // an observer (the preview) that fails loses its copy; the flow is decided all the same
      }
    }

    const state: RunState = {
      request, set, labels, addedLabels, hiddenLabels: hiddenLabels?.size === 0 ? undefined : hiddenLabels, classifiers, fluxMeters,
      ctx: new CheckContext(nowMs, request.deadlineMs, request.type === 'http' ? addedLabels ?? NO_LABELS : labels, cancel, this.realTime),
      limiters: [], records: [],
    };
    if (set.limiterGroups.length === 0) return this.finish(state, -1);
    return this.runGroups(state, 0);
  }

  private runGroups(st: RunState, from: number): CheckDecision | Promise<CheckDecision> {
    const groups = st.set.limiterGroups;
    for (let gi = from; gi < groups.length; gi++) {
      const groupStart = st.records.length;
      let pending: Promise<void>[] | undefined;
      const group = groups[gi];
      for (let li = 0; li < group.length; li++) {
        const e = group[li];
        const limiter = e.component;
        if (e.matcher !== undefined && !e.matcher.matches(st.labels)) continue;
        if (st.set.repeatsLimiter && st.limiters.includes(limiter)) continue;
        st.limiters.push(limiter);
        const r = decideSafely(limiter, st);
        if (isPromise(r)) {
          const rec: RunRecord = { kind: limiter.kind, identity: limiter.identity, result: FAILED_OPEN };
          st.records.push(rec);
          pending ??= [];
          pending.push(boundedDecision(r, this.asyncBudget(st)).then((res) => { rec.result = res; }));
        } else {
          st.records.push({ kind: limiter.kind, identity: limiter.identity, result: r });
        }
      }
      if (pending !== undefined) {
        return Promise.all(pending).then(() => this.afterGroup(st, gi, groupStart));
      }
      const rejected = this.rejectedIn(st, groupStart);
      if (rejected) return this.finish(st, gi);
    }
    return this.finish(st, -1);
  }

  private afterGroup(st: RunState, gi: number, groupStart: number): CheckDecision | Promise<CheckDecision> {
    if (this.rejectedIn(st, groupStart)) return this.finish(st, gi);
    return this.runGroups(st, gi + 1);
  }

  private rejectedIn(st: RunState, from: number): boolean {
    const records = st.records;
    for (let i = from; i < records.length; i++) if (!records[i].result.accepted) return true;
    return false;
  }

  private asyncBudget(st: RunState): number {
    const d = st.ctx.deadlineMs;
    const byDeadline = d === undefined ? Infinity : d - 10 - this.now();
    return Math.max(0, Math.min(this.asyncTimeoutMs, byDeadline));
  }

  /** Build the decision; `rejectGroup` is the index of the rejecting group, or -1. */
  private finish(st: RunState, rejectGroup: number): CheckDecision {
    let waitMs = 0;
    const records: readonly LimiterRecord[] = st.records;
    for (let i = 0; i < records.length; i++) {
      const r = records[i].result;
      if (r.waitMs > waitMs) waitMs = r.waitMs;
    }
    const accepted = rejectGroup < 0;
    if (!accepted) {
      for (let i = 0; i < records.length; i++) {
        const r = records[i].result;
        const l = st.limiters[i];
        if (r.accepted && r.tokens !== undefined && r.tokens > 0 && l.revert !== undefined) {
          try {
            l.revert(r, st.ctx);
          } catch {
            // a store that cannot take tokens back loses them; the decision stands
          }
        }
      }
    }
    // The kind of the limiter that turned the flow away says why (every limiter of the groups before it accepted).
    let kind: LimiterKind | undefined;
    if (!accepted) {
      for (let i = 0; i < records.length && kind === undefined; i++) if (!records[i].result.accepted) kind = records[i].kind;
    }
    const decision: { -readonly [K in keyof CheckDecision]: CheckDecision[K] } = {
      controlPoint: st.request.controlPoint,
      services: st.request.services,
      labels: st.labels,
      addedLabels: st.addedLabels,
      startMs: st.ctx.nowMs,
      endMs: this.now(),
      accepted,
      rejectReason: kind === undefined ? 'REJECT_REASON_NONE' : kind.rejectReason,
      deniedStatus: kind === undefined ? 0 : kind.deniedStatus,
      waitMs,
      limiters: records.length === 0 ? NO_LIMITERS : records,
      classifiers: st.classifiers,
      fluxMeters: st.fluxMeters,
    };
    // Set only when there are such labels (no spread of a temporary object on every check).
    if (st.hiddenLabels !== undefined) decision.hiddenLabels = st.hiddenLabels;
    const listeners = this.decisionListeners;
    for (let i = 0; i < listeners.length; i++) {
      try {
        listeners[i](decision);
      } catch {
        // telemetry that fails loses this decision; the flow is decided all the same
      }
    }
    return decision;
  }
}

