import { messageType } from '@sluice/proto';
import type { LimiterKind, LimiterResult } from '../check/component.js';
import { limiterDecisionBytes } from '../wire/limiter-decision-wire.js';

const DECISION = 'aperture.flowcontrol.check.v1.LimiterDecision';
const DENIED_STATUSES: readonly number[] = [403, 429, 503];
const COUNTERS: readonly string[] = ['rate_limiter', 'sampler', 'workload'] satisfies readonly LimiterKind['counter'][];

/** A result with every field a LimiterResult has, so each kind's details write all they can. */
const SAMPLE: LimiterResult = Object.freeze({
  accepted: false, waitMs: 250, tokens: 3, label: 'gold', remaining: 1, current: 4, workloadIndex: '2', priority: 50,
});

/** JSON of a value with its objects' keys sorted. */
function canonical(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) => (x !== null && typeof x === 'object' && !Array.isArray(x)
    ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
    : x));
}

/**
 * Checks that a kind of limiter has every piece the engine reads, and that they fit check.proto:
 * a reject reason of CheckResponse.RejectReason (not NONE), a denied status, a group, a counter, and details
 * naming a member of LimiterDecision's `details` oneof and that member's message; its decision,
 * written by the wire encoder and read back, holds that member with what the details' `output`
 * says. Throws an Error naming the kind and the piece at fault.
 */
export function checkLimiterKind(kind: LimiterKind): void {
  const fail = (piece: string, message: string): never => {
    throw new Error(`limiter kind ${JSON.stringify(kind.name)}: ${piece} ${message}`);
  };
  if (typeof kind.name !== 'string' || kind.name === '') fail('name', 'is empty');
  if (!Number.isInteger(kind.group) || kind.group < 0) fail('group', `must be an integer >= 0, got ${String(kind.group)}`);
  const reasons = messageType('aperture.flowcontrol.check.v1.CheckResponse').lookupEnum('RejectReason').values;
  if (!Object.hasOwn(reasons, kind.rejectReason) || kind.rejectReason === 'REJECT_REASON_NONE') {
    fail('rejectReason', `must be a RejectReason of check.proto other than NONE, got ${JSON.stringify(kind.rejectReason)}`);
  }
  if (!DENIED_STATUSES.includes(kind.deniedStatus)) fail('deniedStatus', `must be one of ${DENIED_STATUSES.join(', ')}, got ${String(kind.deniedStatus)}`);
  if (!COUNTERS.includes(kind.counter)) fail('counter', `must be one of ${COUNTERS.join(', ')}, got ${JSON.stringify(kind.counter)}`);
  if (typeof kind.reads !== 'function') fail('reads', 'is not a function');
  const decisionType = messageType(DECISION);
  const details = kind.details;
  if (details === undefined) return fail('details', 'are missing');
  const field = decisionType.fields[details.field];
  if (field === undefined || field.partOf?.name !== 'details') fail('details.field', `${JSON.stringify(details.field)} is not a member of LimiterDecision's details oneof`);
  if (field.resolvedType?.name !== details.message) fail('details.message', `${JSON.stringify(details.message)} is not the type of ${details.field} (${field.resolvedType?.name ?? '?'})`);
  const bytes = limiterDecisionBytes({ kind, identity: { policy_name: 'p', policy_hash: 'h', component_id: `check.${kind.name}` }, result: SAMPLE });
  const read = decisionType.toObject(decisionType.decode(bytes), { oneofs: true, defaults: true, longs: Number, enums: String }) as Record<string, unknown>;
  if (read.details !== details.field) fail('details', `are written as ${String(read.details)}, not ${details.field}`);
  const want = canonical((details.output(SAMPLE) as Record<string, unknown>)[details.field]);
  const got = canonical(read[details.field]);
  if (want !== got) fail('details', `read back as ${got}, not ${want} (wire and output disagree)`);
}
