import { SluiceError, GrpcCode, ErrorCode } from '@sluice/errors';
import type { FlowObserver, FlowRequest, FlowSink } from '@sluice/flowcontrol';
import type { CheckHTTPRequest__Output, JsonObject } from '@sluice/proto';
import type { LabelMatcher } from '@sluice/selectors';
import { httpSample, httpSampleJson } from './http-sample.js';
import { PREVIEW_MAX_BYTES, PREVIEWS_MAX_TOTAL_BYTES, SAMPLE_OVERHEAD_BYTES } from './preview-config.js';
import { mapInSlices } from './slices.js';

export type PreviewKind = 'http' | 'labels';

export interface PreviewSpec {
  kind: PreviewKind;
  controlPoint: string;
  /** `any`: flows of every service. */
  service: string;
  samples: number;
  matcher: LabelMatcher;
  waitMs: number;
}

/**
 * A running preview: `result` settles with the samples when enough were seen, at the wait's end,
 * or when cancelled; `jsonTexts` with the same samples as JSON texts (what the HTTP route sends).
 * Either is built in slices that yield to the event loop, once asked for.
 */
export interface ActivePreview {
  readonly result: Promise<JsonObject[]>;
  jsonTexts(): Promise<string[]>;
  cancel(): void;
}

export interface PreviewRegistryOptions {
  /** Previews running at once at most (default 100). */
  maxActive?: number;
  /** Bytes of samples one preview holds at most (default PREVIEW_MAX_BYTES). */
  maxBytesPerPreview?: number;
  /** Bytes of samples all previews hold together at most (default PREVIEWS_MAX_TOTAL_BYTES). */
  maxTotalBytes?: number;
}

/**
 * What a preview keeps of a flow until it answers: the decoded request as it came (HTTP) or a copy
 * of its labels, with the time the flow was seen (epoch milliseconds).
 */
type RawSample = { http: CheckHTTPRequest__Output; arrival_unix_ms: number } | { labels: Record<string, string>; arrival_unix_ms: number };

interface Entry {
  readonly spec: PreviewSpec;
  readonly raw: RawSample[];
  bytes: number;
  done: boolean;
  timer: NodeJS.Timeout | undefined;
  finish(): void;
}

/** Bytes an HTTP sample counts against the budgets: its strings (UTF-16 code units) and a fixed overhead. */
export function httpSampleBytes(req: CheckHTTPRequest__Output): number {
  const r = req.request;
  if (r === null || r === undefined) return SAMPLE_OVERHEAD_BYTES;
  let n = SAMPLE_OVERHEAD_BYTES + (r.body?.length ?? 0) + (r.path?.length ?? 0) + (r.host?.length ?? 0) + (r.method?.length ?? 0);
  const headers = r.headers ?? {};
  for (const name of Object.keys(headers)) n += name.length + (headers[name]?.length ?? 0) + 16;
  return n;
}

function labelsBytes(labels: Readonly<Record<string, string>>): number {
  let n = SAMPLE_OVERHEAD_BYTES;
  for (const key of Object.keys(labels)) n += key.length + labels[key].length + 16;
  return n;
}

function toJson(raw: RawSample): JsonObject {
  return 'labels' in raw ? raw : { ...httpSample(raw.http), arrival_unix_ms: raw.arrival_unix_ms };
}

function toJsonText(raw: RawSample): string {
  if ('labels' in raw) return JSON.stringify(raw);
  const text = httpSampleJson(raw.http);
  return `${text.slice(0, -1)},"arrival_unix_ms":${raw.arrival_unix_ms}}`;
}

/** The previews of one control point: the engine hands it the flows of that control point. */
class ControlPointPreviews implements FlowSink {
  constructor(readonly entries: readonly Entry[], private readonly budget: ByteBudget) {}

  /**
   * On the check path: no parsing, no copying of bodies. An HTTP sample is the decoded request
   * itself (a reference); it is parsed when the preview answers.
   */
  observe(request: FlowRequest, labels: Readonly<Record<string, string>>, classifiedLabels: Readonly<Record<string, string>>): void {
    const list = this.entries;
    let arrival: number | undefined;
    for (let i = 0; i < list.length; i++) {
      const e = list[i];
      if (e.done) continue;
      const spec = e.spec;
      if (spec.service !== 'any' && !request.services.includes(spec.service)) continue;
      if (spec.kind === 'http' && request.http === undefined) continue;
      if (!spec.matcher.matches(labels)) continue;
      const size = spec.kind === 'http' ? httpSampleBytes(request.http as CheckHTTPRequest__Output) : labelsBytes(classifiedLabels);
      if (e.raw.length > 0 && e.bytes + size > this.budget.perPreview) {
        e.finish(); // full by bytes: answer with what it has
        continue;
      }
      if (!this.budget.reserve(size)) continue; // all previews together are full: skip this one
      arrival ??= Date.now();
      e.raw.push(spec.kind === 'http'
        ? { http: request.http as CheckHTTPRequest__Output, arrival_unix_ms: arrival }
        : { labels: { ...classifiedLabels }, arrival_unix_ms: arrival });
      e.bytes += size;
      if (e.raw.length >= spec.samples || e.bytes >= this.budget.perPreview) e.finish();
    }
  }
}

/** Bytes of samples held by all previews of a registry. */
class ByteBudget {
  used = 0;
  constructor(readonly perPreview: number, readonly total: number) {}

  reserve(n: number): boolean {
    if (this.used + n > this.total) return false;
    this.used += n;
    return true;
  }

  release(n: number): void {
    this.used = Math.max(0, this.used - n);
  }
}

/**
 * The previews running now, by control point. As a flow observer of the
 * engine it copies matching flows to them; a control point without a
 * preview costs the engine one Map lookup. Bounded in count (maxActive),
 * and in bytes per preview and for all previews together; samples are
 * turned into their JSON shape only when a preview answers, in slices
 * that yield to the event loop.
 */
export class PreviewRegistry implements FlowObserver {
  private readonly byControlPoint = new Map<string, ControlPointPreviews>();
  private active = 0;
  readonly maxActive: number;
  private readonly budget: ByteBudget;
  private watchListeners: ((controlPoint: string) => void)[] = [];

  constructor(opts: number | PreviewRegistryOptions = {}) {
    const o = typeof opts === 'number' ? { maxActive: opts } : opts;
    this.maxActive = o.maxActive ?? 100;
    this.budget = new ByteBudget(Math.max(1, o.maxBytesPerPreview ?? PREVIEW_MAX_BYTES), Math.max(1, o.maxTotalBytes ?? PREVIEWS_MAX_TOTAL_BYTES));
  }

  sinkFor(controlPoint: string): FlowSink | undefined {
    return this.byControlPoint.get(controlPoint);
  }

  /** Whether a preview runs at the control point. */
  watches(controlPoint: string): boolean {
    return this.byControlPoint.has(controlPoint);
  }

  /**
   * Calls `listener` when the first preview of a control point starts or its
   * last one ends (the engine then tells the tap to send every header while
   * previews run); answers the function that stops it.
   */
  onWatchChange(listener: (controlPoint: string) => void): () => void {
    this.watchListeners = [...this.watchListeners, listener];
    return () => {
      this.watchListeners = this.watchListeners.filter((l) => l !== listener);
    };
  }

  private watchChanged(controlPoint: string): void {
    for (const l of this.watchListeners) l(controlPoint);
  }

  /** Previews running now. */
  get size(): number {
    return this.active;
  }

  /** Bytes of samples held now (running previews, and answers still being built). */
  get bytesHeld(): number {
    return this.budget.used;
  }

  start(spec: PreviewSpec): ActivePreview {
    if (this.active >= this.maxActive) {
      throw new SluiceError(ErrorCode.TOO_MANY_PREVIEWS, `too many previews running (${this.maxActive}); try again later`, { grpcCode: GrpcCode.RESOURCE_EXHAUSTED });
    }
    let resolve!: (samples: RawSample[]) => void;
    const raw = new Promise<RawSample[]>((r) => { resolve = r; });
    const entry: Entry = {
      spec,
      raw: [],
      bytes: 0,
      done: false,
      timer: undefined,
      finish: () => {
        if (entry.done) return;
        entry.done = true;
        if (entry.timer !== undefined) clearTimeout(entry.timer);
        this.remove(entry);
        this.budget.release(entry.bytes);
        resolve(entry.raw);
      },
    };
    const build = <T>(convert: (r: RawSample) => T): Promise<T[]> => raw.then((samples) => mapInSlices(samples, convert));
    let result: Promise<JsonObject[]> | undefined;
    this.active++;
    const before = this.byControlPoint.get(spec.controlPoint);
    this.byControlPoint.set(spec.controlPoint, new ControlPointPreviews([...(before?.entries ?? []), entry], this.budget));
    if (before === undefined) this.watchChanged(spec.controlPoint);
    entry.timer = setTimeout(entry.finish, Math.max(0, spec.waitMs));
    return {
      get result() {
        result ??= build(toJson);
        return result;
      },
      jsonTexts: () => build(toJsonText),
      cancel: entry.finish,
    };
  }

  private remove(entry: Entry): void {
    this.active--;
    const cp = entry.spec.controlPoint;
    const rest = (this.byControlPoint.get(cp)?.entries ?? []).filter((e) => e !== entry);
    if (rest.length === 0) {
      this.byControlPoint.delete(cp);
      this.watchChanged(cp);
    } else this.byControlPoint.set(cp, new ControlPointPreviews(rest, this.budget));
  }
}
