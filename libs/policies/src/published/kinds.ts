import type { Static } from '@sinclair/typebox';
import { COMPONENT_KINDS } from '../components/index.js';
import type { ComponentKind } from '../components/kind.js';
import { classifierContract } from './classifier.js';
import { kindName, type PublishedKind } from './common.js';
import { fluxMeterContract } from './flux-meter.js';

/** The kinds a policy's resources publish (its classifiers and flux meters), beside those of its circuit's components. */
const RESOURCE_KINDS = [classifierContract, fluxMeterContract] as const;

/** The contracts a component kind publishes (`publishes` of defineKind), typed. */
type PublishesOf<K> = K extends { readonly publishes: infer P extends readonly PublishedKind[] } ? P[number] : never;

type Contract = (typeof RESOURCE_KINDS)[number] | PublishesOf<(typeof COMPONENT_KINDS)[number]>;

/**
 * Every flow-control kind the controller publishes: its configuration's schema and its
 * decision's. Read from the component kinds (COMPONENT_KINDS, each naming the contracts it
 * `publishes`) and the resources: a new kind is its modules and one line in COMPONENT_KINDS;
 * the types and the validator both sides use follow. A contract two components publish (the
 * load scheduler's) is listed once.
 */
export const PUBLISHED_KINDS: readonly Contract[] = [
  ...new Set([...(COMPONENT_KINDS as readonly ComponentKind[]).flatMap((k) => k.publishes ?? []), ...RESOURCE_KINDS]),
] as readonly PublishedKind[] as readonly Contract[];

/** What the controller publishes for a component (JSON under `N/config/…`). */
export type PublishedComponent = Static<Contract['component']>;
/** The live numbers of a component (JSON under `N/decisions/…`); a component without one runs in pass-through. */
export type PublishedDecision = Static<NonNullable<Contract['decision']>>;
export type PublishedKindName = PublishedComponent['kind'];

/** The contract of each published kind, by name. */
export const PUBLISHED_KIND_BY_NAME: ReadonlyMap<string, PublishedKind> = new Map(PUBLISHED_KINDS.map((k) => [kindName(k), k as PublishedKind]));

/** The names of every published kind. */
export const PUBLISHED_KIND_NAMES = [...PUBLISHED_KIND_BY_NAME.keys()] as readonly PublishedKindName[];

/** The names of the kinds that take decisions. */
export const PUBLISHED_DECISION_KINDS = PUBLISHED_KINDS.filter((k) => k.decision !== undefined).map(kindName) as readonly PublishedDecision['kind'][];
