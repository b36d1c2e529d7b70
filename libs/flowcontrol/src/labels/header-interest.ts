import type { HeaderInterest__Output } from '@sluice/proto';
import { PolicyClassifier } from '../classifiers/classifier.js';
import type { FlowComponent } from '../check/component.js';
import type { FlowObserver } from '../check/flow-observer.js';
import { headerInterestName, noReads, readLabelMatcher, type FlowReads } from './flow-reads.js';

export { headerInterestName, noReads, readLabel, readLabelMatcher, type FlowReads } from './flow-reads.js';

/** Classifier attributes that come from the request's own fields (not headers, not the body). */
const FIELD_ATTRIBUTES: ReadonlySet<string> = new Set([
  'request.http.method', 'request.http.path', 'request.http.host', 'request.http.scheme', 'request.http.protocol', 'request.http.size',
  'source.address', 'source.port', 'destination.address', 'destination.port',
]);

const HEADER_ATTRIBUTE_PREFIX = 'request.http.headers.';

/**
 * What a caller of CheckHTTP (the tap) must send of a control point's
 * requests: every header and the body (`all`), or the headers named (in
 * their label form: lower-cased, `-` as `_`) and the body when `body`.
 * `generation` changes whenever the answer changes.
 */
export type HeaderInterest = HeaderInterest__Output;

/** An attribute path a classifier rule reads (`request.http.headers.<name>`, `request.http.body`, …). */
function readAttribute(reads: FlowReads, path: unknown): void {
  if (typeof path !== 'string') {
    reads.all = true;
    return;
  }
  if (FIELD_ATTRIBUTES.has(path)) return;
  if (path === 'request.http.body') reads.body = true;
  else if (path === 'request.http.bearer') reads.headers.add(headerInterestName('authorization'));
  else if (path.startsWith(HEADER_ATTRIBUTE_PREFIX)) reads.headers.add(headerInterestName(path.slice(HEADER_ATTRIBUTE_PREFIX.length)));
  else reads.all = true;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * The rules of a PolicyClassifier, read through their runtime shape (the
 * class keeps them private): a shape other than `{from: string}[]` reads
 * everything.
 */
function readClassifier(reads: FlowReads, c: PolicyClassifier): void {
  const rules: unknown = (c as unknown as { rules?: unknown }).rules;
  if (!Array.isArray(rules)) {
    reads.all = true;
    return;
  }
  for (const rule of rules) readAttribute(reads, isObject(rule) ? rule.from : undefined);
}

/**
 * What one registration reads: its selector's label filter, and what the
 * component itself reads: a classifier its attributes, and baggage, which its
 * answer rewrites; a flux meter nothing more; a limiter what its kind says
 * (LimiterKind.reads: a rate limiter its label key, and its tokens label key
 * when it takes costs from request labels; a sampler its label key; a load
 * scheduler its workload filters and label keys). The cost (tokens label) of
 * an HTTP flow otherwise comes from classifier outputs only, which need what
 * the classifier reads.
 */
export function readsOf(component: FlowComponent, labelMatcher: unknown): FlowReads {
  const reads = noReads();
  readLabelMatcher(reads, labelMatcher);
  if (component.kind === 'classifier') {
    reads.baggage = true;
    if (component instanceof PolicyClassifier) readClassifier(reads, component);
    else reads.all = true;
  } else if (component.kind !== 'flux_meter') {
    component.kind.reads(component, reads);
  }
  return reads;
}

/** A flow observer that says which control points it watches and when that changes (the preview registry). */
export interface WatchingObserver extends FlowObserver {
  watches(controlPoint: string): boolean;
  /** Calls `listener` with a control point whose watching began or ended; answers the function that stops it. */
  onWatchChange(listener: (controlPoint: string) => void): () => void;
}

export function isWatchingObserver(o: FlowObserver): o is WatchingObserver {
  const w = o as Partial<WatchingObserver>;
  return typeof w.watches === 'function' && typeof w.onWatchChange === 'function';
}

interface Cached {
  interest: HeaderInterest;
  stale: boolean;
}

function sameInterest(a: HeaderInterest, b: HeaderInterest): boolean {
  if (a.all !== b.all || a.body !== b.body || a.headers.length !== b.headers.length) return false;
  for (let i = 0; i < a.headers.length; i++) if (a.headers[i] !== b.headers[i]) return false;
  return true;
}

/**
 * The header interest of every control point, kept by the engine: what its
 * registrations read, everything while an observer watches it (a preview).
 * Computed when first asked after a change; the generation changes only
 * when the answer does. Generations start at the clock in microseconds, so
 * that an agent restarted never hands out a generation a tap still holds
 * from before (unless more than a million interests changed per second).
 */
export class HeaderInterests {
  private readonly reads = new Map<string, Map<object, FlowReads>>();
  private readonly cache = new Map<string, Cached>();
  private watchers: WatchingObserver[] = [];
  private nextGeneration: number;
  /**
   * The interest of every control point that nothing reads or watches: shared (nothing is kept per control
   * point), renewed whenever a control point falls back to it.
   */
  private empty: HeaderInterest;

  constructor(now: () => number = Date.now) {
    this.nextGeneration = Math.floor(now() * 1000);
    this.empty = this.newEmpty();
  }

  private newEmpty(): HeaderInterest {
    return Object.freeze({ generation: this.nextGeneration++, all: false, headers: Object.freeze([]) as unknown as string[], body: false });
  }

  /** A registration at `controlPoint` (under `token`, which `removed` names) reading `reads`. */
  added(controlPoint: string, token: object, reads: FlowReads): void {
    let m = this.reads.get(controlPoint);
    if (m === undefined) {
      m = new Map();
      this.reads.set(controlPoint, m);
    }
    m.set(token, reads);
    this.changed(controlPoint);
  }

  removed(controlPoint: string, token: object): void {
    const m = this.reads.get(controlPoint);
    if (m === undefined || !m.delete(token)) return;
    if (m.size === 0) this.reads.delete(controlPoint);
    this.changed(controlPoint);
  }

  /** Follow what `observer` watches, when it says (a preview registry); answers the function that stops it. */
  watch(observer: FlowObserver): () => void {
    if (!isWatchingObserver(observer)) return () => undefined;
    this.watchers = [...this.watchers, observer];
    const stop = observer.onWatchChange((cp) => this.changed(cp));
    for (const cp of this.cache.keys()) this.changed(cp);
    return () => {
      stop();
      this.watchers = this.watchers.filter((w) => w !== observer);
      for (const cp of this.cache.keys()) this.changed(cp);
    };
  }

  /** Something `controlPoint`'s interest depends on changed. */
  changed(controlPoint: string): void {
    const c = this.cache.get(controlPoint);
    if (c !== undefined) c.stale = true;
  }

  /**
   * The interest of `controlPoint` now (the same object until it changes).
   * Only control points that something reads or watches are kept.
   */
  of(controlPoint: string): HeaderInterest {
    const c = this.cache.get(controlPoint);
    if (c !== undefined && !c.stale) return c.interest;
    const next = this.compute(controlPoint);
    if (next === this.empty) {
      // Back to nothing from something: a newer empty interest, so that generations of one control point only
      // grow (the callers of other empty control points ask again once, unfiltered: a rare cost, nothing wrong).
      if (c !== undefined && c.interest !== this.empty && c.interest.generation > this.empty.generation) this.empty = this.newEmpty();
      // Kept only while registrations read the control point (they are bounded; control point names are not).
      if (this.reads.has(controlPoint)) this.cache.set(controlPoint, { interest: this.empty, stale: false });
      else this.cache.delete(controlPoint);
      return this.empty;
    }
    if (c !== undefined && sameInterest(c.interest, next)) {
      c.stale = false;
      return c.interest;
    }
    next.generation = this.nextGeneration++;
    this.cache.set(controlPoint, { interest: next, stale: false });
    return next;
  }

  private compute(controlPoint: string): HeaderInterest {
    for (const w of this.watchers) {
      let watched = true;
      try {
        watched = w.watches(controlPoint);
      } catch {
        // an observer that cannot say gets everything
      }
      if (watched) return { generation: 0, all: true, headers: [], body: true };
    }
    const regs = this.reads.get(controlPoint);
    if (regs === undefined) return this.empty;
    const headers = new Set<string>();
    let body = false;
    let baggage = false;
    for (const r of regs.values()) {
      if (r.all) return { generation: 0, all: true, headers: [], body: true };
      for (const h of r.headers) headers.add(h);
      body ||= r.body;
      baggage ||= r.baggage;
    }
    if (baggage) headers.add('baggage');
    if (headers.size === 0 && !body) return this.empty;
    return { generation: 0, all: false, headers: [...headers].sort(), body };
  }
}
