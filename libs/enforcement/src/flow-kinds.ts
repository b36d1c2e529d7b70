import { checkLimiterKind } from '@sluice/flowcontrol';
import { PUBLISHED_KIND_NAMES, type PublishedKindName } from '@sluice/policies';
import { classifierFlowKind, fluxMeterFlowKind, rateLimiterFlowKind, samplerFlowKind } from './builders.js';
import type { FlowKindEntry } from './flow-kind-entry.js';
import { loadSchedulerFlowKind } from './load-scheduler.js';
import { podScalerFlowKind } from './pod-scaler.js';
import { quotaSchedulerFlowKind } from './quota-scheduler.js';

export { flowKindEntry, type FlowKindEntry } from './flow-kind-entry.js';

/**
 * The agent's registry: one entry per published flow-control kind, each declared in the kind's
 * own module (flowKindEntry: its kind, the engine's limiter kind, its builder). The enforcement
 * builds from it, and the engine's index, decisions, wire encoder and header interest read the
 * limiter kind each built limiter carries. A new kind is its module and one line here.
 */
const ENTRIES = [
  rateLimiterFlowKind,
  samplerFlowKind,
  classifierFlowKind,
  fluxMeterFlowKind,
  loadSchedulerFlowKind,
  podScalerFlowKind,
  quotaSchedulerFlowKind,
] as const;

/** Published kinds without an entry: a kind missing from ENTRIES does not compile (below), and checkFlowKinds fails at start. */
type Missing = Exclude<PublishedKindName, (typeof ENTRIES)[number]['kind']>;
const complete: [Missing] extends [never] ? true : { missing: Missing } = true;
void complete;

/** The registry by kind; flowKind() throws for a name it does not hold. */
export const FLOW_KINDS: { readonly [K in PublishedKindName]: FlowKindEntry<K> } = Object.freeze(
  Object.fromEntries(ENTRIES.map((e) => [e.kind, e])) as { [K in PublishedKindName]: FlowKindEntry<K> },
);

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
 * its own name with a builder, and that each limiter kind is named after its entry and has every
 * piece the engine reads (checkLimiterKind: reject reason, denied status, details the wire
 * encoder writes); throws UnknownFlowKindError for the first kind missing, an Error for a piece
 * missing. Run when the agent's enforcement starts.
 */
export function checkFlowKinds(registry: Readonly<Record<string, FlowKindEntry>> = FLOW_KINDS, published: readonly string[] = PUBLISHED_KIND_NAMES): void {
  for (const kind of published) {
    const entry = Object.hasOwn(registry, kind) ? registry[kind] : undefined;
    if (entry === undefined || entry.kind !== kind) throw new UnknownFlowKindError(kind);
    if (typeof entry.build !== 'function') throw new Error(`flow-control kind ${kind}: its entry has no builder`);
    if (entry.limiter !== undefined) {
      if (entry.limiter.name !== kind) throw new Error(`flow-control kind ${kind}: its limiter kind is named ${JSON.stringify(entry.limiter.name)}`);
      checkLimiterKind(entry.limiter);
    }
  }
  for (const kind of Object.keys(registry)) {
    if (!published.includes(kind)) throw new Error(`flow-control kind ${JSON.stringify(kind)} is in the agent's registry but has no published contract`);
  }
}
