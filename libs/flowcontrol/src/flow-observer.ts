import type { FlowRequest } from './flow-request.js';

/**
 * Something that wants copies of flows at some control points. The engine
 * asks `watches` once per flow (a Map lookup is the expected cost) and
 * calls `observe` only for watched control points.
 */
export interface FlowObserver {
  watches(controlPoint: string): boolean;
  /**
   * A flow at a watched control point: the request, its labels before
   * classification (what preview filters match against) and after.
   * Separate arguments, so that the hot path allocates nothing.
   */
  observe(request: FlowRequest, labels: Readonly<Record<string, string>>, classifiedLabels: Readonly<Record<string, string>>): void;
}
