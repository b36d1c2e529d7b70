import type { CheckDecision, LimiterRecord } from '../check/decision.js';
import { durationOf, timestampOf } from './proto-time.js';
import type { CheckResponse__Output, ClassifierInfo__Output, LimiterDecision__Output, StatusCode__Output } from '@sluice/proto';

const STATUS_NAME: Readonly<Record<number, StatusCode__Output>> = { 0: 'Empty', 403: 'Forbidden', 429: 'TooManyRequests', 503: 'ServiceUnavailable' };
const ZERO_DURATION = Object.freeze({ seconds: 0, nanos: 0 });
const NO_TELEMETRY_LABELS: Record<string, string> = Object.freeze({}) as Record<string, string>;

function limiterMessage(rec: LimiterRecord): LimiterDecision__Output {
  const r = rec.result;
  const msg: LimiterDecision__Output = {
    policy_name: rec.identity.policy_name,
    policy_hash: rec.identity.policy_hash,
    component_id: rec.identity.component_id,
    dropped: !r.accepted,
    reason: r.keyNotFound === true ? 'LIMITER_REASON_KEY_NOT_FOUND' : 'LIMITER_REASON_UNSPECIFIED',
    denied_response_status_code: r.accepted ? 'Empty' : STATUS_NAME[rec.kind.deniedStatus],
    wait_time: r.waitMs > 0 ? durationOf(r.waitMs) : ZERO_DURATION,
  };
  return Object.assign(msg, rec.kind.details.output(r));
}

/**
 * The wire CheckResponse of an engine decision, every field set (so typed as
 * a client decodes it; there is no cache lookup).
 */
export function toCheckResponse(d: CheckDecision, expectEnd = false): CheckResponse__Output {
  const classifier_infos: ClassifierInfo__Output[] = d.classifiers.length === 0 ? [] : d.classifiers.map((c) => ({
    policy_name: c.policy_name, policy_hash: c.policy_hash, classifier_index: c.classifier_index, error: c.failed ? 'ERROR_EVAL_FAILED' : 'ERROR_NONE',
  }));
  return {
    start: timestampOf(d.startMs),
    end: timestampOf(d.endMs),
    services: d.services as string[],
    control_point: d.controlPoint,
    flow_label_keys: Object.keys(d.labels),
    telemetry_flow_labels: NO_TELEMETRY_LABELS,
    decision_type: d.accepted ? 'DECISION_TYPE_ACCEPTED' : 'DECISION_TYPE_REJECTED',
    reject_reason: d.rejectReason,
    classifier_infos,
    flux_meter_infos: d.fluxMeters.length === 0 ? [] : d.fluxMeters.map((flux_meter_name) => ({ flux_meter_name })),
    limiter_decisions: d.limiters.length === 0 ? [] : d.limiters.map(limiterMessage),
    wait_time: d.waitMs > 0 ? durationOf(d.waitMs) : ZERO_DURATION,
    denied_response_status_code: STATUS_NAME[d.deniedStatus] ?? 'Empty',
    cache_lookup_response: null,
    expect_end: expectEnd,
  };
}
