import type { FlowRequest } from './flow-request.js';

/** Where the flows of one watched control point go. */
export interface FlowSink {
  /**
   * A flow at the watched control point: the request, its labels before
   * classification (what preview filters match against) and after.
   * Separate arguments, so that the hot path allocates nothing.
   */
  observe(request: FlowRequest, labels: Readonly<Record<string, string>>, classifiedLabels: Readonly<Record<string, string>>): void;
}

/**
 * Something that wants copies of flows at some control points. The engine
 * asks `sinkFor` once per flow (one Map lookup is the expected cost) and
 * hands the flow to the sink it answers, if any.
 */
export interface FlowObserver {
  sinkFor(controlPoint: string): FlowSink | undefined;
}
