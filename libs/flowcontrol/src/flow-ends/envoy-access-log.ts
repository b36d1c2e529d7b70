import { messageType } from '@sluice/proto';
import type { SdkSpanReading } from './sdk-flow-span.js';
import type { AdmittedWorkload } from './inflight-flows.js';

/** A log record's attributes as the OTLP logs receiver hands them over (scalars only, as strings where Envoy sends strings). */
export type LogAttributes = ReadonlyMap<string, string | number | boolean>;

export const ENVOY_SOURCE = 'envoy';
const SOURCE = 'aperture.source';
const CHECK_RESPONSE = 'aperture.check_response';
const STATUS_CODE = 'http.status_code';
const AUTHZ_DURATION = 'authz_duration';
const RESPONSE_DURATION = 'RESPONSE_DURATION';
const DURATION = 'DURATION';
/** What Envoy writes for a command operator without a value. */
const MISSING = '-';
const MAX_CHECK_RESPONSE_LENGTH = 1 << 20;
const MAX_FLUX_METERS = 64;
const MAX_LIMITER_DECISIONS = 64;

/** What one Envoy access log record says of its flow: the reading, the response status and the schedulers' workloads. */
export interface EnvoyLogReading {
  readonly reading: SdkSpanReading;
  readonly statusCode: number;
  readonly workloads?: AdmittedWorkload[];
}

function numberOf(v: string | number | boolean | undefined): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (typeof v !== 'string' || v === '' || v === MISSING) return undefined;
  const n = Number(v);
  return Number.isFinite(n) ? n : undefined;
}

interface DecodedCheckResponse {
  control_point?: string;
  decision_type?: number;
  flux_meter_infos?: { flux_meter_name?: string }[];
  limiter_decisions?: { policy_name?: string; component_id?: string; dropped?: boolean; load_scheduler_info?: { workload_index?: string } | null }[];
}

/**
 * The workload's duration (ms) of an Envoy access log record: RESPONSE_DURATION
 * (request start to the first byte of the response) less authz_duration (the
 * ext_authz call) when both are there and the difference is positive, else
 * RESPONSE_DURATION, else DURATION (the whole stream).
 */
function workloadDurationMs(a: LogAttributes): number | undefined {
  const response = numberOf(a.get(RESPONSE_DURATION));
  const authz = numberOf(a.get(AUTHZ_DURATION));
  if (response !== undefined && authz !== undefined && response - authz > 0) return response - authz;
  return response ?? numberOf(a.get(DURATION));
}

/**
 * Read an Envoy OpenTelemetry access log record (the attributes of
 * deploy/istio's EnvoyFilter): `aperture.source` = `envoy`, the decision as
 * `aperture.check_response` (the CheckResponse's protobuf bytes, base64, from
 * the ext_authz dynamic metadata), `http.status_code` and the durations. A
 * record that is not Envoy's is `not_aperture`; one whose check response is
 * absent (`-`: ext_authz did not run) or unreadable, or without a duration,
 * is `malformed`.
 */
export function readEnvoyLog(a: LogAttributes): EnvoyLogReading {
  const notOurs = { reading: { kind: 'not_aperture' as const }, statusCode: 0 };
  if (a.get(SOURCE) !== ENVOY_SOURCE) return notOurs;
  const malformed = (reason: string): EnvoyLogReading => ({ reading: { kind: 'malformed', reason }, statusCode: 0 });
  const raw = a.get(CHECK_RESPONSE);
  if (typeof raw !== 'string' || raw === '' || raw === MISSING) return malformed(`${CHECK_RESPONSE} is missing`);
  if (raw.length > MAX_CHECK_RESPONSE_LENGTH) return malformed(`${CHECK_RESPONSE} is too long`);
  let cr: DecodedCheckResponse;
  try {
    const type = messageType('aperture.flowcontrol.check.v1.CheckResponse');
    cr = type.toObject(type.decode(Buffer.from(raw, 'base64')), { enums: Number, defaults: false }) as DecodedCheckResponse;
  } catch {
    return malformed(`${CHECK_RESPONSE} is not a base64 CheckResponse`);
  }
  const infos = cr.flux_meter_infos ?? [];
  if (infos.length > MAX_FLUX_METERS) return malformed('the check response names too many flux meters');
  const fluxMeters: string[] = [];
  for (const info of infos) {
    if (typeof info.flux_meter_name !== 'string' || info.flux_meter_name === '') return malformed('a flux meter info has no name');
    fluxMeters.push(info.flux_meter_name);
  }
  const durationMs = workloadDurationMs(a);
  if (durationMs === undefined || durationMs < 0) return malformed('the record has no RESPONSE_DURATION or DURATION');
  const statusCode = numberOf(a.get(STATUS_CODE)) ?? 0;
  const accepted = (cr.decision_type ?? 0) === 0;
  let workloads: AdmittedWorkload[] | undefined;
  for (const d of (cr.limiter_decisions ?? []).slice(0, MAX_LIMITER_DECISIONS)) {
    const index = d.load_scheduler_info?.workload_index;
    if (d.dropped === true || typeof index !== 'string' || index === '' || typeof d.policy_name !== 'string' || typeof d.component_id !== 'string') continue;
    (workloads ??= []).push({ policyName: d.policy_name, componentId: d.component_id, workloadIndex: index });
  }
  return {
    reading: {
      kind: 'flow',
      flow: {
        controlPoint: cr.control_point ?? '', fluxMeters, decisionType: accepted ? 'DECISION_TYPE_ACCEPTED' : 'DECISION_TYPE_REJECTED',
        flowStatus: statusCode >= 500 || statusCode === 0 ? 'Error' : 'OK', durationMs,
      },
    },
    statusCode,
    ...(workloads === undefined ? {} : { workloads }),
  };
}
