import { embeddedFieldWriter, enumNumbers, wireSerializer } from '@sluice/proto';
import type { Duration, LimiterDecision, LimiterDecision_LimiterReason, LimiterDecision_LimiterReason__Output, StatusCode, StatusCode__Output } from '@sluice/proto';
import type { LimiterResult } from './component.js';
import type { LimiterRecord } from './decision.js';
import { durationOf } from './proto-time.js';

const CHECK = 'aperture.flowcontrol.check.v1';
type Numbers<E> = Extract<E, number>;
const STATUS = enumNumbers<StatusCode__Output, Numbers<StatusCode>>(`${CHECK}.StatusCode`);
const LIMITER_REASON = enumNumbers<LimiterDecision_LimiterReason__Output, Numbers<LimiterDecision_LimiterReason>>(`${CHECK}.LimiterDecision.LimiterReason`);
const LIMITER_STATUS: Readonly<Record<LimiterRecord['kind'], Numbers<StatusCode>>> = {
  sampler: STATUS.Forbidden, rate_limiter: STATUS.TooManyRequests, scheduler: STATUS.ServiceUnavailable,
};
/** A zero Duration: present, no field written (reads back as 0 s). */
export const ZERO_DURATION: Duration = Object.freeze({}) as Duration;

type Kind = LimiterRecord['kind'];
const DECISION = `${CHECK}.LimiterDecision`;

/**
 * The fields of a limiter's decision other than its details (the oneof, written last), in
 * wire shape: enums as their numbers from check.proto, defaults undefined.
 */
function headWire(rec: LimiterRecord): LimiterDecision {
  const r = rec.result;
  return {
    policy_name: rec.identity.policy_name,
    policy_hash: rec.identity.policy_hash,
    component_id: rec.identity.component_id,
    dropped: r.accepted ? undefined : true,
    reason: r.keyNotFound === true ? LIMITER_REASON.LIMITER_REASON_KEY_NOT_FOUND : undefined,
    denied_response_status_code: r.accepted ? undefined : LIMITER_STATUS[rec.kind],
    wait_time: r.waitMs > 0 ? durationOf(r.waitMs) : ZERO_DURATION,
  };
}

/** Each kind's details field: its message in wire shape, its encoder, and the writer of a decision ending with it. */
const DETAILS: Readonly<Record<Kind, { wire(r: LimiterResult): object; encode(m: object): Buffer; write(head: Uint8Array, body: Uint8Array): Buffer }>> = {
  rate_limiter: {
    wire: (r) => ({ label: r.label, tokens_info: { remaining: r.remaining, current: r.current, consumed: r.tokens } }),
    encode: wireSerializer(`${DECISION}.RateLimiterInfo`),
    write: embeddedFieldWriter(DECISION, 'rate_limiter_info'),
  },
  scheduler: {
    wire: (r) => ({ workload_index: r.workloadIndex, tokens_info: { remaining: r.remaining, current: r.current, consumed: r.tokens }, priority: r.priority }),
    encode: wireSerializer(`${DECISION}.SchedulerInfo`),
    write: embeddedFieldWriter(DECISION, 'load_scheduler_info'),
  },
  sampler: {
    wire: (r) => ({ label: r.label }),
    encode: wireSerializer(`${DECISION}.SamplerInfo`),
    write: embeddedFieldWriter(DECISION, 'sampler_info'),
  },
};

const encodeHead = wireSerializer<LimiterDecision>(DECISION);

/** A limiter's previous decision: the encoding of its head (kept while the head says the same), its result and its bytes. */
interface Previous {
  policy_name: string;
  policy_hash: string;
  component_id: string;
  kind: Kind;
  accepted: boolean;
  keyNotFound: boolean | undefined;
  waitMs: number;
  head: Buffer;
  result: LimiterResult;
  bytes: Buffer;
}

/** Each limiter's previous decision (by its identity, which lives as long as the limiter). */
const previous = new WeakMap<LimiterRecord['identity'], Previous>();

function sameResult(a: LimiterResult, b: LimiterResult): boolean {
  return a.accepted === b.accepted && a.waitMs === b.waitMs && a.keyNotFound === b.keyNotFound && a.label === b.label
    && a.remaining === b.remaining && a.current === b.current && a.tokens === b.tokens
    && a.workloadIndex === b.workloadIndex && a.priority === b.priority;
}

/**
 * The bytes of a limiter's decision (a LimiterDecision of check.proto). Of one limiter's
 * decisions, the fields before the details (its identity, dropped, reason, status, wait)
 * mostly say the same call after call: their encoding is kept while they do, and only the
 * details (label and tokens) are encoded for each decision; a decision that says all its
 * previous one said is its bytes again. A policy's new hash (changed in place) is a new head.
 */
export function limiterDecisionBytes(rec: LimiterRecord): Buffer {
  const id = rec.identity;
  const r = rec.result;
  const details = DETAILS[rec.kind];
  const p = previous.get(id);
  if (p !== undefined && p.kind === rec.kind && p.accepted === r.accepted && p.keyNotFound === r.keyNotFound && p.waitMs === r.waitMs
    && p.policy_hash === id.policy_hash && p.policy_name === id.policy_name && p.component_id === id.component_id) {
    if (p.result === r || sameResult(p.result, r)) return p.bytes;
    p.result = r;
    p.bytes = details.write(p.head, details.encode(details.wire(r)));
    return p.bytes;
  }
  const head = encodeHead(headWire(rec));
  const bytes = details.write(head, details.encode(details.wire(r)));
  previous.set(id, {
    policy_name: id.policy_name, policy_hash: id.policy_hash, component_id: id.component_id,
    kind: rec.kind, accepted: r.accepted, keyNotFound: r.keyNotFound, waitMs: r.waitMs, head, result: r, bytes,
  });
  return bytes;
}
