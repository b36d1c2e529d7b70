import { serviceClient } from '@sluice/proto';

/** An attribute value of a received span (OTLP AnyValue, scalars only). */
export type SpanAttributeValue = string | number | boolean;

/** A span as the OTLP receiver hands it over. */
export interface ReceivedSpan {
  readonly attributes: ReadonlyMap<string, SpanAttributeValue>;
  /** Epoch ms; NaN when the span carries none. */
  readonly startTimeMs: number;
  readonly endTimeMs: number;
}

export const SDK_SOURCE_ATTRIBUTE = 'aperture.source';
export const SDK_CHECK_RESPONSE_ATTRIBUTE = 'aperture.check_response';
export const SDK_FLOW_STATUS_ATTRIBUTE = 'aperture.flow.status';
export const SDK_FLOW_START_ATTRIBUTE = 'aperture.flow_start_timestamp_ms';
export const SDK_WORKLOAD_START_ATTRIBUTE = 'aperture.workload_start_timestamp_ms';
export const SDK_FLOW_END_ATTRIBUTE = 'aperture.flow_end_timestamp_ms';
/** The HTTP status a gateway answered the flow with (Aperture's Lua plugin, Sluice's nginx handler). */
export const HTTP_STATUS_CODE_ATTRIBUTE = 'http.status_code';

/** What an Aperture SDK's span says about one flow. */
export interface SdkFlowEnd {
  readonly controlPoint: string;
  readonly fluxMeters: readonly string[];
  readonly decisionType: 'DECISION_TYPE_ACCEPTED' | 'DECISION_TYPE_REJECTED';
  readonly flowStatus: 'OK' | 'Error';
  /** The HTTP status of a gateway's span (`http.status_code`), as the flux meter's `response_status`; absent on SDK spans. */
  readonly responseStatus?: string;
  /** The workload's duration: flow end − workload start (or flow start, or the span's own times). */
  readonly durationMs: number;
}

export type SdkSpanReading = { kind: 'flow'; flow: SdkFlowEnd } | { kind: 'not_aperture' } | { kind: 'malformed'; reason: string };

const MAX_CHECK_RESPONSE_LENGTH = 1 << 20;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * A CheckResponse protobuf in base64, as Aperture's gateways (the nginx/Kong Lua plugin) put
 * on their spans what the agent's CheckHTTP answered in `dynamic_metadata`; undefined when not.
 */
function checkResponseFromBase64(raw: string): unknown {
  if (raw === '' || raw.length % 4 !== 0 || !BASE64.test(raw)) return undefined;
  try {
    return serviceClient('flowControl').service.Check.responseDeserialize(Buffer.from(raw, 'base64')) as unknown;
  } catch {
    return undefined;
  }
}
const MAX_FLUX_METERS = 64;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function field(o: Record<string, unknown>, camel: string, snake: string): unknown {
  return Object.prototype.hasOwnProperty.call(o, camel) ? o[camel] : Object.prototype.hasOwnProperty.call(o, snake) ? o[snake] : undefined;
}

function timestampMs(v: SpanAttributeValue | undefined): number | undefined {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  return Number.isFinite(n) && n > 0 ? n : undefined;
}

function decisionTypeOf(v: unknown): SdkFlowEnd['decisionType'] | undefined {
  if (v === undefined || v === 0 || v === 'DECISION_TYPE_ACCEPTED') return 'DECISION_TYPE_ACCEPTED';
  if (v === 1 || v === 'DECISION_TYPE_REJECTED') return 'DECISION_TYPE_REJECTED';
  return undefined;
}

/**
 * Read one span as an Aperture SDK flow end. The SDK (`@fluxninja/aperture-js`
 * 2.5) sets `aperture.source`, the check response as JSON (its proto-loader
 * shape: camelCase keys, enums as numbers; snake_case and enum names are
 * read too; Aperture's Lua gateway plugin sets it as the base64 CheckResponse
 * protobuf the agent's CheckHTTP answered, which is read as well), `aperture.flow.status` (`OK`/`Error`) and the flow start,
 * workload start and flow end times in epoch ms. A span with neither
 * `aperture.source` nor `aperture.check_response` is someone else's
 * (`not_aperture`); one that has them but cannot be read is `malformed`.
 */
export function readSdkSpan(span: ReceivedSpan): SdkSpanReading {
  const a = span.attributes;
  const raw = a.get(SDK_CHECK_RESPONSE_ATTRIBUTE);
  if (raw === undefined && !a.has(SDK_SOURCE_ATTRIBUTE)) return { kind: 'not_aperture' };
  if (typeof raw !== 'string') return { kind: 'malformed', reason: `${SDK_CHECK_RESPONSE_ATTRIBUTE} is missing or not a string` };
  if (raw.length > MAX_CHECK_RESPONSE_LENGTH) return { kind: 'malformed', reason: `${SDK_CHECK_RESPONSE_ATTRIBUTE} is too long` };
  let parsed: unknown;
  if (raw.trimStart().startsWith('{')) {
    try {
      parsed = JSON.parse(raw);
    } catch {
      return { kind: 'malformed', reason: `${SDK_CHECK_RESPONSE_ATTRIBUTE} is not JSON` };
    }
  } else {
    parsed = checkResponseFromBase64(raw);
    if (parsed === undefined) return { kind: 'malformed', reason: `${SDK_CHECK_RESPONSE_ATTRIBUTE} is neither JSON nor a base64 CheckResponse` };
  }
  if (!isObject(parsed)) return { kind: 'malformed', reason: `${SDK_CHECK_RESPONSE_ATTRIBUTE} is not an object` };
  const cp = field(parsed, 'controlPoint', 'control_point');
  const controlPoint = typeof cp === 'string' ? cp : '';
  const decisionType = decisionTypeOf(field(parsed, 'decisionType', 'decision_type'));
  if (decisionType === undefined) return { kind: 'malformed', reason: 'the check response has an unknown decision type' };
  const infos = field(parsed, 'fluxMeterInfos', 'flux_meter_infos') ?? [];
  if (!Array.isArray(infos) || infos.length > MAX_FLUX_METERS) return { kind: 'malformed', reason: 'the check response\'s flux meter infos are not a list' };
  const fluxMeters: string[] = [];
  for (const info of infos) {
    const name = isObject(info) ? field(info, 'fluxMeterName', 'flux_meter_name') : undefined;
    if (typeof name !== 'string' || name === '') return { kind: 'malformed', reason: 'a flux meter info has no name' };
    fluxMeters.push(name);
  }
  const status = a.get(SDK_FLOW_STATUS_ATTRIBUTE) ?? 'OK';
  if (status !== 'OK' && status !== 'Error') return { kind: 'malformed', reason: `${SDK_FLOW_STATUS_ATTRIBUTE} is neither OK nor Error` };
  const end = timestampMs(a.get(SDK_FLOW_END_ATTRIBUTE)) ?? (Number.isFinite(span.endTimeMs) ? span.endTimeMs : undefined);
  const start = timestampMs(a.get(SDK_WORKLOAD_START_ATTRIBUTE)) ?? timestampMs(a.get(SDK_FLOW_START_ATTRIBUTE))
    ?? (Number.isFinite(span.startTimeMs) ? span.startTimeMs : undefined);
  if (end === undefined || start === undefined || end < start) return { kind: 'malformed', reason: 'the flow\'s start and end times are missing or out of order' };
  const flow: SdkFlowEnd = { controlPoint, fluxMeters, decisionType, flowStatus: status, durationMs: end - start };
  const http = a.get(HTTP_STATUS_CODE_ATTRIBUTE);
  if (http === undefined) return { kind: 'flow', flow };
  const code = Number(http);
  if (typeof http === 'boolean' || !Number.isInteger(code) || code < 100 || code > 599) return { kind: 'malformed', reason: `${HTTP_STATUS_CODE_ATTRIBUTE} is not an HTTP status` };
  return { kind: 'flow', flow: { ...flow, responseStatus: String(code) } };
}
