import type { HeaderInterest__Output } from '@sluice/proto';
import { PolicyClassifier } from './classifier.js';
import type { FlowComponent } from './component.js';
import type { FlowObserver } from './flow-observer.js';
import { HEADER_LABEL_PREFIX } from './http-labels.js';
import { RateLimiter } from './rate-limiter.js';
import { Sampler } from './sampler.js';

/**
 * What a caller of CheckHTTP (the tap) must send of a control point's
 * requests: every header and the body (`all`), or the headers named (in
 * their label form: lower-cased, `-` as `_`) and the body when `body`.
 * `generation` changes whenever the answer changes.
 */
export type HeaderInterest = HeaderInterest__Output;

/** What one registration reads of a flow. */
export interface FlowReads {
  /** Reads what cannot be bounded (an unknown component, a filter of unknown shape): send everything. */
  all: boolean;
  /** Header names in label form. */
  headers: Set<string>;
  /** The body (a classifier's attribute or JSON pointer). */
  body: boolean;
  /** The `baggage` header: a label that baggage may set is read, or a classifier adds labels (the answer rewrites baggage). */
  baggage: boolean;
}

/**
 * The labels every HTTP flow gets from the request's own fields, whatever
 * its headers (they win over baggage): reading them needs no header.
 */
const FIELD_LABELS: ReadonlySet<string> = new Set([
  'http.method', 'http.target', 'http.host', 'http.scheme', 'http.flavor', 'http.request_content_length',
]);

/** Classifier attributes that come from the request's own fields (not headers, not the body). */
const FIELD_ATTRIBUTES: ReadonlySet<string> = new Set([
  'request.http.method', 'request.http.path', 'request.http.host', 'request.http.scheme', 'request.http.protocol', 'request.http.size',
  'source.address', 'source.port', 'destination.address', 'destination.port',
]);

const HEADER_ATTRIBUTE_PREFIX = 'request.http.headers.';

/** A header name as its label writes it: lower-cased, `-` → `_`. */
export function headerInterestName(name: string): string {
  return name.toLowerCase().replaceAll('-', '_');
}

export function noReads(): FlowReads {
  return { all: false, headers: new Set(), body: false, baggage: false };
}

/**
 * A label a component reads: a header label needs its header; any label but
 * the request's own fields may also come from a baggage entry (baggage
 * entries become labels, and a header label is set from baggage when the
 * header is absent), so it needs `baggage` too.
 */
export function readLabel(reads: FlowReads, key: unknown): void {
  if (typeof key !== 'string') {
    reads.all = true;
    return;
  }
  if (FIELD_LABELS.has(key)) return;
  reads.baggage = true;
  if (key.startsWith(HEADER_LABEL_PREFIX)) reads.headers.add(headerInterestName(key.slice(HEADER_LABEL_PREFIX.length)));
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const MAX_DEPTH = 64;

function readExpression(reads: FlowReads, expr: unknown, depth: number): void {
  if (!isObject(expr) || depth > MAX_DEPTH) {
    reads.all = true;
    return;
  }
  for (const kind of Object.keys(expr)) {
    const v = expr[kind];
    switch (kind) {
      case 'all':
      case 'any': {
        const of = isObject(v) ? v.of : undefined;
        if (!Array.isArray(of)) reads.all = true;
        else for (const e of of) readExpression(reads, e, depth + 1);
        break;
      }
      case 'not':
        readExpression(reads, v, depth + 1);
        break;
      case 'label_equals':
      case 'label_exists':
      case 'label_matches':
        readLabel(reads, isObject(v) ? v.label : undefined);
        break;
      default:
        reads.all = true;
    }
  }
}

/**
 * The labels a label filter (`match_labels`, `match_expressions`,
 * `expression`) reads. Every part of the language names its labels, so a
 * valid filter is always bounded; a shape this reader does not know reads
 * everything.
 */
export function readLabelMatcher(reads: FlowReads, json: unknown): void {
  if (json === undefined) return;
  if (!isObject(json)) {
    reads.all = true;
    return;
  }
  for (const part of Object.keys(json)) {
    const v = json[part];
    if (v === undefined) continue;
    if (part === 'match_labels' && isObject(v)) {
      for (const key of Object.keys(v)) readLabel(reads, key);
    } else if (part === 'match_expressions' && Array.isArray(v)) {
      for (const req of v) readLabel(reads, isObject(req) ? req.key : undefined);
    } else if (part === 'expression') {
      readExpression(reads, v, 1);
    } else {
      reads.all = true;
    }
  }
}

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

/** A load scheduler's parameters (from @sluice/scheduler, read by shape: that library depends on this one). */
function readSchedulerParameters(reads: FlowReads, component: FlowComponent): void {
  const p: unknown = (component as { parameters?: unknown }).parameters;
  if (!isObject(p) || !Array.isArray(p.workloads)) {
    reads.all = true;
    return;
  }
  // tokens_label_key is not read: the cost of an HTTP flow comes from classifier outputs only.
  for (const key of ['priority_label_key', 'workload_label_key']) if (p[key] !== undefined) readLabel(reads, p[key]);
  const fairness = (params: unknown): void => {
    if (isObject(params) && params.fairness_key !== undefined) readLabel(reads, params.fairness_key);
  };
  fairness(p.default_workload_parameters);
  for (const w of p.workloads) {
    if (!isObject(w)) {
      reads.all = true;
      continue;
    }
    readLabelMatcher(reads, w.label_matcher);
    fairness(w.parameters);
  }
}

/**
 * What one registration reads: its selector's label filter, and what the
 * component itself reads (rate limiter: label_key, and tokens_label_key
 * when it takes costs from request labels; sampler: label_key; classifier:
 * its attributes, and baggage, which its answer rewrites; load scheduler:
 * workload filters, priority, workload and fairness label keys; flux meter:
 * nothing more). The cost (tokens label) of an HTTP flow otherwise comes
 * from classifier outputs only, which need what the classifier reads. A component
 * this function does not know reads everything.
 */
export function readsOf(component: FlowComponent, labelMatcher: unknown): FlowReads {
  const reads = noReads();
  readLabelMatcher(reads, labelMatcher);
  if (component instanceof RateLimiter) {
    if (component.labelKey !== undefined) readLabel(reads, component.labelKey);
    // The cost of an HTTP flow comes from classifier outputs only, unless the limiter opts into request labels.
    if (component.tokensFromRequestLabels) readLabel(reads, component.tokensLabelKey);
  } else if (component instanceof Sampler) {
    if (component.labelKey !== undefined) readLabel(reads, component.labelKey);
  } else if (component instanceof PolicyClassifier) {
    reads.baggage = true;
    readClassifier(reads, component);
  } else if (component.kind === 'flux_meter') {
    // reads its selector only
  } else if (component.kind === 'scheduler') {
    readSchedulerParameters(reads, component);
  } else {
    reads.all = true;
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
