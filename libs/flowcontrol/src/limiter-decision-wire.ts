import { enumNumbers, wireSerializer } from '@sluice/proto';
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

/**
 * A limiter's decision in wire shape: enums as their numbers from check.proto, defaults
 * undefined. Every object has the same properties (a default is undefined, not absent), so
 * the encoder's property reads stay monomorphic.
 */
export function limiterWire(rec: LimiterRecord): LimiterDecision {
  const r = rec.result;
  const tokens_info = { remaining: r.remaining, current: r.current, consumed: r.tokens };
  const kind = rec.kind;
  return {
    policy_name: rec.identity.policy_name,
    policy_hash: rec.identity.policy_hash,
    component_id: rec.identity.component_id,
    dropped: r.accepted ? undefined : true,
    reason: r.keyNotFound === true ? LIMITER_REASON.LIMITER_REASON_KEY_NOT_FOUND : undefined,
    denied_response_status_code: r.accepted ? undefined : LIMITER_STATUS[kind],
    wait_time: r.waitMs > 0 ? durationOf(r.waitMs) : ZERO_DURATION,
    rate_limiter_info: kind === 'rate_limiter' ? { label: r.label, tokens_info } : undefined,
    load_scheduler_info: kind === 'scheduler' ? { workload_index: r.workloadIndex, tokens_info, priority: r.priority } : undefined,
    sampler_info: kind === 'sampler' ? { label: r.label } : undefined,
  };
}

const encodeLimiterDecision = wireSerializer<LimiterDecision>(`${CHECK}.LimiterDecision`);

/** A limiter's previous decision, and its bytes once it repeated. */
interface Previous {
  policy_name: string;
  policy_hash: string;
  component_id: string;
  kind: LimiterRecord['kind'];
  result: LimiterResult;
  bytes: Buffer | undefined;
}

/** Each limiter's previous decision (by its identity, which lives as long as the limiter). */
const previous = new WeakMap<LimiterRecord['identity'], Previous>();

function sameResult(a: LimiterResult, b: LimiterResult): boolean {
  return a.accepted === b.accepted && a.waitMs === b.waitMs && a.keyNotFound === b.keyNotFound && a.label === b.label
    && a.remaining === b.remaining && a.current === b.current && a.tokens === b.tokens
    && a.workloadIndex === b.workloadIndex && a.priority === b.priority;
}

/**
 * The bytes of a limiter's decision when it says what the limiter's previous decision said (a
 * limiter far from its limit answers alike call after call: a full bucket, the same label),
 * encoded the second time in a row and kept while it repeats; undefined otherwise (the
 * decision is remembered for the next call). A policy's new hash (changed in place) is a new
 * decision.
 */
export function repeatedDecisionBytes(rec: LimiterRecord): Buffer | undefined {
  const id = rec.identity;
  const p = previous.get(id);
  if (p === undefined) {
    previous.set(id, { policy_name: id.policy_name, policy_hash: id.policy_hash, component_id: id.component_id, kind: rec.kind, result: rec.result, bytes: undefined });
    return undefined;
  }
  if (p.kind === rec.kind && p.policy_hash === id.policy_hash && p.policy_name === id.policy_name && p.component_id === id.component_id
    && (p.result === rec.result || sameResult(p.result, rec.result))) {
    p.bytes ??= encodeLimiterDecision(limiterWire(rec));
    return p.bytes;
  }
  p.policy_name = id.policy_name;
  p.policy_hash = id.policy_hash;
  p.component_id = id.component_id;
  p.kind = rec.kind;
  p.result = rec.result;
  p.bytes = undefined;
  return undefined;
}
