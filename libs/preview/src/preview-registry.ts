import { SluiceError, GrpcCode } from '@sluice/errors';
import type { FlowObserver, FlowRequest, FlowSink } from '@sluice/flowcontrol';
import type { JsonObject } from '@sluice/proto';
import type { LabelMatcher } from '@sluice/selectors';
import { httpSample } from './http-sample.js';

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

/** A running preview: `result` settles with the samples when enough were seen, at the wait's end, or when cancelled. */
export interface ActivePreview {
  readonly result: Promise<JsonObject[]>;
  cancel(): void;
}

interface Entry {
  readonly spec: PreviewSpec;
  readonly samples: JsonObject[];
  done: boolean;
  timer: NodeJS.Timeout | undefined;
  finish(): void;
}

/** The previews of one control point: the engine hands it the flows of that control point. */
class ControlPointPreviews implements FlowSink {
  constructor(readonly entries: readonly Entry[]) {}

  observe(request: FlowRequest, labels: Readonly<Record<string, string>>, classifiedLabels: Readonly<Record<string, string>>): void {
    const list = this.entries;
    for (let i = 0; i < list.length; i++) {
      const e = list[i];
      if (e.done) continue;
      const spec = e.spec;
      if (spec.service !== 'any' && !request.services.includes(spec.service)) continue;
      if (spec.kind === 'http' && request.http === undefined) continue;
      if (!spec.matcher.matches(labels)) continue;
      e.samples.push(spec.kind === 'http' && request.http !== undefined ? httpSample(request.http) : { labels: { ...classifiedLabels } });
      if (e.samples.length >= spec.samples) e.finish();
    }
  }
}

/**
 * The previews running now, by control point. As a flow observer of the
 * engine it copies matching flows to them; a control point without a
 * preview costs the engine one Map lookup.
 */
export class PreviewRegistry implements FlowObserver {
  private readonly byControlPoint = new Map<string, ControlPointPreviews>();
  private active = 0;

  constructor(readonly maxActive = 100) {}

  sinkFor(controlPoint: string): FlowSink | undefined {
    return this.byControlPoint.get(controlPoint);
  }

  /** Whether a preview runs at the control point. */
  watches(controlPoint: string): boolean {
    return this.byControlPoint.has(controlPoint);
  }

  /** Previews running now. */
  get size(): number {
    return this.active;
  }

  start(spec: PreviewSpec): ActivePreview {
    if (this.active >= this.maxActive) {
      throw new SluiceError('SLUICE_ERR_TOO_MANY_PREVIEWS', `too many previews running (${this.maxActive}); try again later`, { grpcCode: GrpcCode.RESOURCE_EXHAUSTED });
    }
    let resolve!: (samples: JsonObject[]) => void;
    const result = new Promise<JsonObject[]>((r) => { resolve = r; });
    const entry: Entry = {
      spec,
      samples: [],
      done: false,
      timer: undefined,
      finish: () => {
        if (entry.done) return;
        entry.done = true;
        if (entry.timer !== undefined) clearTimeout(entry.timer);
        this.remove(entry);
        resolve(entry.samples);
      },
    };
    this.active++;
    this.byControlPoint.set(spec.controlPoint, new ControlPointPreviews([...(this.byControlPoint.get(spec.controlPoint)?.entries ?? []), entry]));
    entry.timer = setTimeout(entry.finish, Math.max(0, spec.waitMs));
    return { result, cancel: entry.finish };
  }

  private remove(entry: Entry): void {
    this.active--;
    const cp = entry.spec.controlPoint;
    const rest = (this.byControlPoint.get(cp)?.entries ?? []).filter((e) => e !== entry);
    if (rest.length === 0) this.byControlPoint.delete(cp);
    else this.byControlPoint.set(cp, new ControlPointPreviews(rest));
  }
}
