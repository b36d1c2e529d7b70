import type { LimiterKind } from '@sluice/flowcontrol';
import type { PublishedKindName } from '@sluice/policies';
import type { ComponentBuilder } from './live-component.js';

/** What the agent does with one published flow-control kind: declared in the kind's own module, listed once in FLOW_KINDS. */
export interface FlowKindEntry<K extends PublishedKindName = PublishedKindName> {
  /** The published kind (its contract: @sluice/policies PUBLISHED_KINDS). */
  readonly kind: K;
  /**
   * The engine's kind of the limiter it builds: its group, reject reason, denied status, what it
   * reads of a flow and how its decision is written on the wire. Undefined for a kind that builds
   * no limiter (a classifier, a flux meter: the engine's own stages; a pod scaler: no flow component).
   */
  readonly limiter: LimiterKind | undefined;
  /** Builds its live component from a configuration the shared validator accepted. */
  readonly build: ComponentBuilder;
}

/** Declare a kind's entry (keeps its `kind` literal, which FLOW_KINDS checks against the published kinds). */
export function flowKindEntry<K extends PublishedKindName>(entry: FlowKindEntry<K>): FlowKindEntry<K> {
  return Object.freeze(entry);
}
