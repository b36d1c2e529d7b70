import type { FlowRequest } from './flow-request.js';

/** A flow as an observer (the preview) sees it. */
export interface ObservedFlow {
  readonly request: FlowRequest;
  /** The labels before classification (what preview filters match against). */
  readonly labels: Readonly<Record<string, string>>;
  /** The labels after classification. */
  readonly classifiedLabels: Readonly<Record<string, string>>;
}

/**
 * Something that wants copies of flows at some control points. The engine
 * asks `watches` once per flow (a Map lookup is the expected cost) and
 * calls `observe` only for watched control points.
 */
export interface FlowObserver {
  watches(controlPoint: string): boolean;
  observe(flow: ObservedFlow): void;
}
