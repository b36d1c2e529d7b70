import type { Static } from '@sinclair/typebox';
import { classifierContract } from './classifier.js';
import { kindName, type PublishedKind } from './common.js';
import { fluxMeterContract } from './flux-meter.js';
import { loadSchedulerContract } from './load-scheduler.js';
import { podScalerContract } from './pod-scaler.js';
import { quotaSchedulerContract } from './quota-scheduler.js';
import { rateLimiterContract } from './rate-limiter.js';
import { samplerContract } from './sampler.js';

/**
 * Every flow-control kind the controller publishes: its configuration's schema and its
 * decision's. A new kind is one module (its schemas) and one line here; the types and the
 * validator both sides use follow.
 */
export const PUBLISHED_KINDS = [
  rateLimiterContract,
  samplerContract,
  classifierContract,
  fluxMeterContract,
  loadSchedulerContract,
  podScalerContract,
  quotaSchedulerContract,
] as const;

type Contract = (typeof PUBLISHED_KINDS)[number];

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
