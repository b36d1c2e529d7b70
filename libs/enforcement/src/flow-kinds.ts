import { RATE_LIMITER_KIND, SAMPLER_KIND, type LimiterKind } from '@sluice/flowcontrol';
import { PUBLISHED_KIND_NAMES, type PublishedKindName } from '@sluice/policies';
import { LOAD_SCHEDULER_KIND, QUOTA_SCHEDULER_KIND } from '@sluice/scheduler';
import { buildClassifier, buildFluxMeter, buildRateLimiter, buildSampler } from './builders.js';
import type { ComponentBuilder } from './live-component.js';
import { buildLoadScheduler } from './load-scheduler.js';
import { buildPodScaler } from './pod-scaler.js';
import { buildQuotaScheduler } from './quota-scheduler.js';

/** What the agent does with one published flow-control kind. */
export interface FlowKindEntry {
  /** The published kind (its contract: @sluice/policies PUBLISHED_KINDS). */
  readonly kind: PublishedKindName;
  /**
   * The engine's kind of the limiter it builds: its group, reject reason, denied status, what it
   * reads of a flow and how its decision is written on the wire. Undefined for a kind that builds
   * no limiter (a classifier, a flux meter: the engine's own stages; a pod scaler: no flow component).
   */
  readonly limiter: LimiterKind | undefined;
  /** Builds its live component from a configuration the shared validator accepted. */
  readonly build: ComponentBuilder;
}

/**
 * The agent's registry: one entry per published flow-control kind, which the enforcement builds
 * from and the engine's index, decisions, wire encoder and header interest read through the
 * limiter kind each built limiter carries. Keyed by every published kind: a kind without an
 * entry does not compile, and flowKind() throws for a name it does not hold.
 */
export const FLOW_KINDS: { readonly [K in PublishedKindName]: FlowKindEntry & { readonly kind: K } } = {
  rate_limiter: { kind: 'rate_limiter', limiter: RATE_LIMITER_KIND, build: buildRateLimiter },
  sampler: { kind: 'sampler', limiter: SAMPLER_KIND, build: buildSampler },
  classifier: { kind: 'classifier', limiter: undefined, build: buildClassifier },
  flux_meter: { kind: 'flux_meter', limiter: undefined, build: buildFluxMeter },
  load_scheduler: { kind: 'load_scheduler', limiter: LOAD_SCHEDULER_KIND, build: buildLoadScheduler },
  pod_scaler: { kind: 'pod_scaler', limiter: undefined, build: buildPodScaler },
  quota_scheduler: { kind: 'quota_scheduler', limiter: QUOTA_SCHEDULER_KIND, build: buildQuotaScheduler },
};

/** A kind the agent's registry does not hold. */
export class UnknownFlowKindError extends Error {
  constructor(readonly kind: string) {
    super(`flow-control kind ${JSON.stringify(kind)} has no entry in the agent's registry (known: ${Object.keys(FLOW_KINDS).join(', ')})`);
    this.name = 'UnknownFlowKindError';
  }
}

/** The registry entry of `kind`; throws UnknownFlowKindError for a kind it does not hold. */
export function flowKind(kind: string): FlowKindEntry {
  if (!Object.hasOwn(FLOW_KINDS, kind)) throw new UnknownFlowKindError(kind);
  return FLOW_KINDS[kind as PublishedKindName];
}

/**
 * Checks that `registry` holds an entry for every published kind (and nothing else), each under
 * its own name, and that each limiter kind is named after its entry; throws UnknownFlowKindError
 * for the first kind missing. Run when the agent's enforcement starts.
 */
export function checkFlowKinds(registry: Readonly<Record<string, FlowKindEntry>> = FLOW_KINDS, published: readonly string[] = PUBLISHED_KIND_NAMES): void {
  for (const kind of published) {
    const entry = Object.hasOwn(registry, kind) ? registry[kind] : undefined;
    if (entry === undefined || entry.kind !== kind) throw new UnknownFlowKindError(kind);
    if (entry.limiter !== undefined && entry.limiter.name !== kind) {
      throw new Error(`flow-control kind ${kind}: its limiter kind is named ${JSON.stringify(entry.limiter.name)}`);
    }
  }
  for (const kind of Object.keys(registry)) {
    if (!published.includes(kind)) throw new Error(`flow-control kind ${JSON.stringify(kind)} is in the agent's registry but has no published contract`);
  }
}
