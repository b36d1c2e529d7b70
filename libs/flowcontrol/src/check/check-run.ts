import type { CancelSource } from './call-cancellation.js';
import type { Classifier, ComponentIdentity, DecideContext, FlowComponent, Limiter, LimiterKind, LimiterResult } from './component.js';
import type { ComponentSet } from './component-index.js';
import type { ClassifierRecord } from './decision.js';
import type { FlowRequest } from './flow-request.js';

/*
 * The pieces of one check that the engine (engine.ts) runs: its state, its DecideContext, a
 * limiter's or classifier's call guarded so that a throw never fails the flow, and the kind check
 * of a component at registration.
 */

export /** Per-check state of the limiter run. */
interface RunState {
  readonly request: FlowRequest;
  readonly set: ComponentSet;
  readonly labels: Readonly<Record<string, string>>;
  readonly addedLabels: Record<string, string> | undefined;
  readonly hiddenLabels: ReadonlySet<string> | undefined;
  readonly classifiers: readonly ClassifierRecord[];
  readonly fluxMeters: readonly string[];
  readonly ctx: CheckContext;
  /** The limiters run so far, in the order they ran (their records in `records`, at the same index). */
  readonly limiters: Limiter[];
  /** The decision's limiter records as they are made (an asynchronous one's result set when it lands). */
  readonly records: RunRecord[];
}

/** A limiter record while its check runs: the result of an asynchronous limiter is set when it lands. */
export interface RunRecord {
  readonly kind: LimiterKind;
  readonly identity: ComponentIdentity;
  result: LimiterResult;
}

/**
 * A component is a classifier, a flux meter, or a limiter carrying its kind (group, reject reason,
 * status, details, reads): anything else is refused when it is registered, never filed under a
 * default group.
 */
export function checkComponentKind(component: FlowComponent): void {
  const kind: unknown = component.kind;
  if (kind === 'classifier' || kind === 'flux_meter') return;
  const k = kind as Partial<LimiterKind> | undefined;
  if (typeof k !== 'object' || k === null || typeof k.name !== 'string' || !Number.isInteger(k.group) || typeof k.reads !== 'function'
    || typeof k.details !== 'object' || typeof k.rejectReason !== 'string' || ![403, 429, 503].includes(k.deniedStatus as number)) {
    throw new TypeError(`a component of unknown kind ${JSON.stringify(typeof kind === 'string' ? kind : typeof kind)}: want a classifier, a flux meter, or a limiter with its LimiterKind`);
  }
}

/** The DecideContext of one check: one object, and the cancel signal only when a limiter reads it. */
export class CheckContext implements DecideContext {
  constructor(
    readonly nowMs: number,
    readonly deadlineMs: number | undefined,
    readonly costLabels: Readonly<Record<string, string>>,
    private readonly cancel: AbortSignal | CancelSource | undefined,
    readonly realTime: boolean,
  ) {}

  get signal(): AbortSignal | undefined {
    const c = this.cancel;
    return c === undefined || c instanceof AbortSignal ? c : c.signal;
  }
}

export const FAILED_OPEN: LimiterResult = Object.freeze({ accepted: true, waitMs: 0, failedOpen: true });

export function decideSafely(limiter: Limiter, st: RunState): LimiterResult | Promise<LimiterResult> {
  try {
    return limiter.decide(st.labels, st.ctx);
  } catch {
    return FAILED_OPEN;
  }
}

export function runClassifier(c: Classifier, request: FlowRequest, records: ClassifierRecord[]): Readonly<Record<string, string>> | undefined {
  const id = c.identity;
  try {
    const out = c.classify(request.labels, request);
    records.push({ policy_name: id.policy_name, policy_hash: id.policy_hash, classifier_index: id.classifier_index, failed: false });
    return out;
  } catch {
    records.push({ policy_name: id.policy_name, policy_hash: id.policy_hash, classifier_index: id.classifier_index, failed: true });
    return undefined;
  }
}

export function define(obj: Record<string, string>, key: string, value: string): void {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}

export function copyLabels(labels: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of Object.keys(labels)) define(out, key, labels[key]);
  return out;
}
