import type { EnvoyAuth_CheckResponse, EnvoyCore_HeaderValueOption, EnvoyType_StatusCode, HeaderValue } from '@sluice/proto';
import { encodeCheckResponse, refusedCheckResponseWire, type CheckHTTPAnswer, type CheckResponseWire } from '../wire/check-response-wire.js';

/** The dynamic metadata field (of the ext_authz filter's namespace) carrying the decision to access logs. */
export const ENVOY_CHECK_RESPONSE_METADATA = 'aperture.check_response';

/** google.rpc.Code values of the answers. */
const OK = 0;
const INVALID_ARGUMENT = 3;
const UNAVAILABLE = 14;

/** Headers Envoy sets on the request (or the denial), replacing any of the same name. */
function headerOptions(headers: readonly HeaderValue[] | null | undefined): EnvoyCore_HeaderValueOption[] {
  return (headers ?? []).map((h) => ({ header: { key: h.key ?? '', value: h.value ?? '' }, append_action: 'OVERWRITE_IF_EXISTS_OR_ADD' }));
}

/** The decision as `dynamic_metadata["aperture.check_response"]`: the CheckResponse's protobuf bytes, base64. */
function decisionMetadata(checkResponse: CheckResponseWire): EnvoyAuth_CheckResponse['dynamic_metadata'] {
  const b64 = encodeCheckResponse(checkResponse).toString('base64');
  return { fields: { [ENVOY_CHECK_RESPONSE_METADATA]: { stringValue: b64 } } };
}

/**
 * The ext_authz answer of a CheckHTTP answer. Accepted: `status.code` OK and
 * `ok_response` with the headers to set (the baggage of classifier labels).
 * Rejected: `status.code` UNAVAILABLE and `denied_response` with the status
 * (429, 503, 403), `Retry-After` and the JSON body; a request the agent
 * refuses (a request target it cannot read as one path, headers past the
 * bound) is INVALID_ARGUMENT with a 400 or 431 denial. Envoy denies on any
 * code but OK. `dynamic_metadata` carries the decision for access logs; a
 * decision flux meters measure says expect_end (the access log ends it).
 */
export function toEnvoyCheckResponse(answer: CheckHTTPAnswer): EnvoyAuth_CheckResponse {
  const cr = answer.check_response ?? undefined;
  if (cr !== undefined && Array.isArray(cr.flux_meter_infos) && cr.flux_meter_infos.length > 0) cr.expect_end = true;
  const dynamic_metadata = cr === undefined ? null : decisionMetadata(cr);
  const ok = answer.ok_response;
  if (ok !== null && ok !== undefined) {
    return { status: { code: OK, message: '' }, ok_response: { headers: headerOptions(ok.headers) }, dynamic_metadata };
  }
  const denied = answer.denied_response;
  const status = denied?.status ?? 503;
  const code = status === 400 || status === 431 ? INVALID_ARGUMENT : UNAVAILABLE;
  return {
    status: { code, message: code === UNAVAILABLE ? 'request rejected' : 'request refused' },
    denied_response: { status: { code: status as EnvoyType_StatusCode }, headers: headerOptions(denied?.headers), body: denied?.body ?? '' },
    dynamic_metadata,
  };
}

/** The ext_authz answer refusing a request before any decision (headers past the bound): a denial with `status`. */
export function envoyRefusal(status: number, controlPoint: string, reason: string): EnvoyAuth_CheckResponse {
  const body = JSON.stringify({ code: INVALID_ARGUMENT, message: `request refused at control point ${controlPoint}: ${reason}`, details: [], reason: 'BAD_REQUEST_HEADERS' });
  return toEnvoyCheckResponse({
    denied_response: { status, headers: [{ key: 'content-type', value: 'application/json' }], body },
    check_response: refusedCheckResponseWire(controlPoint, performance.timeOrigin + performance.now()),
  });
}
