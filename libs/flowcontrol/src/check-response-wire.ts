import { enumNumbers, wireSerializer } from '@sluice/proto';
import type {
  CheckResponse, CheckResponse_DecisionType, CheckResponse_DecisionType__Output, CheckResponse_RejectReason, CheckResponse_RejectReason__Output,
  ClassifierInfo, ClassifierInfo_Error, ClassifierInfo_Error__Output, Duration, LimiterDecision, LimiterDecision_LimiterReason,
  LimiterDecision_LimiterReason__Output, StatusCode, StatusCode__Output,
} from '@sluice/proto';
import type { CheckDecision, LimiterRecord } from './decision.js';
import { durationOf, timestampOf } from './proto-time.js';

const CHECK = 'aperture.flowcontrol.check.v1';
type Numbers<E> = Extract<E, number>;
const DECISION_TYPE = enumNumbers<CheckResponse_DecisionType__Output, Numbers<CheckResponse_DecisionType>>(`${CHECK}.CheckResponse.DecisionType`);
const REJECT_REASON = enumNumbers<CheckResponse_RejectReason__Output, Numbers<CheckResponse_RejectReason>>(`${CHECK}.CheckResponse.RejectReason`);
const STATUS = enumNumbers<StatusCode__Output, Numbers<StatusCode>>(`${CHECK}.StatusCode`);
const LIMITER_REASON = enumNumbers<LimiterDecision_LimiterReason__Output, Numbers<LimiterDecision_LimiterReason>>(`${CHECK}.LimiterDecision.LimiterReason`);
const CLASSIFIER_ERROR = enumNumbers<ClassifierInfo_Error__Output, Numbers<ClassifierInfo_Error>>(`${CHECK}.ClassifierInfo.Error`);

const STATUS_OF_DENIAL: Readonly<Record<number, Numbers<StatusCode>>> = { 403: STATUS.Forbidden, 429: STATUS.TooManyRequests, 503: STATUS.ServiceUnavailable };
const LIMITER_STATUS: Readonly<Record<LimiterRecord['kind'], Numbers<StatusCode>>> = {
  sampler: STATUS.Forbidden, rate_limiter: STATUS.TooManyRequests, scheduler: STATUS.ServiceUnavailable,
};
/** A zero Duration: present, no field written (reads back as 0 s). */
const ZERO: Duration = Object.freeze({}) as Duration;
/** No elements: an empty repeated field (none written). */
const NONE = Object.freeze([]) as unknown as never[];

/**
 * A limiter's decision in wire shape. Every object of one kind has the same properties (a
 * default is undefined, not absent), so the encoder's property reads stay monomorphic.
 */
function limiterWire(rec: LimiterRecord): LimiterDecision {
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
    wait_time: r.waitMs > 0 ? durationOf(r.waitMs) : ZERO,
    rate_limiter_info: kind === 'rate_limiter' ? { label: r.label, tokens_info } : undefined,
    load_scheduler_info: kind === 'scheduler' ? { workload_index: r.workloadIndex, tokens_info, priority: r.priority } : undefined,
    sampler_info: kind === 'sampler' ? { label: r.label } : undefined,
  };
}

function classifierWire(c: CheckDecision['classifiers'][number]): ClassifierInfo {
  return {
    policy_name: c.policy_name, policy_hash: c.policy_hash, classifier_index: c.classifier_index,
    error: c.failed ? CLASSIFIER_ERROR.ERROR_EVAL_FAILED : undefined,
  };
}

/**
 * The CheckResponse of an engine decision in wire shape, for encodeCheckResponse (and
 * what a CheckHTTP answer carries): enums as their numbers from check.proto, scalars at
 * their proto3 default left undefined (a client reads back the same as from
 * toCheckResponse), sub-messages present as there.
 */
export function checkResponseWire(d: CheckDecision, expectEnd = false): CheckResponse {
  return {
    start: timestampOf(d.startMs),
    end: timestampOf(d.endMs),
    services: d.services as string[],
    control_point: d.controlPoint,
    flow_label_keys: Object.keys(d.labels),
    decision_type: d.accepted ? undefined : DECISION_TYPE.DECISION_TYPE_REJECTED,
    reject_reason: REJECT_REASON[d.rejectReason] || undefined,
    classifier_infos: d.classifiers.length === 0 ? NONE : d.classifiers.map(classifierWire),
    flux_meter_infos: d.fluxMeters.length === 0 ? NONE : d.fluxMeters.map((flux_meter_name) => ({ flux_meter_name })),
    limiter_decisions: d.limiters.length === 0 ? NONE : d.limiters.map(limiterWire),
    wait_time: d.waitMs > 0 ? durationOf(d.waitMs) : ZERO,
    denied_response_status_code: STATUS_OF_DENIAL[d.deniedStatus],
    expect_end: expectEnd ? true : undefined,
  };
}

/** The bytes of a CheckResponse in wire shape (checkResponseWire): check.proto's type, encoded without fromObject. */
export const encodeCheckResponse: (message: CheckResponse) => Buffer = wireSerializer<CheckResponse>(`${CHECK}.CheckResponse`);
