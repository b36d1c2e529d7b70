import type { CheckDecision } from '../check/decision.js';
import type { DeniedHttpResponse__Output, HeaderValue__Output } from '@sluice/proto';

/** The gRPC code of a denial status (the gateway's mapping read backwards): errors carry gRPC codes everywhere. */
const GRPC_CODE: Readonly<Record<number, number>> = { 403: 7, 429: 8, 503: 14 };

const REASON_TEXT: Readonly<Record<string, string>> = {
  REJECT_REASON_RATE_LIMITED: 'RATE_LIMITED',
  REJECT_REASON_NO_TOKENS: 'NO_TOKENS',
  REJECT_REASON_REGULATED: 'REGULATED',
};

/** `Retry-After` seconds of a wait: rounded up to whole seconds; undefined for no wait. */
export function retryAfterSeconds(waitMs: number): number | undefined {
  return waitMs > 0 ? Math.ceil(waitMs / 1000) : undefined;
}

/**
 * The HTTP answer to a rejected flow: its status, `Retry-After` and a JSON
 * body in the error shape, `{code: <gRPC code>, message, details: []}`, plus
 * `reason` and `retry_after_seconds`.
 */
export function deniedHttpResponse(d: CheckDecision): DeniedHttpResponse__Output {
  const status = d.deniedStatus === 0 ? 503 : d.deniedStatus;
  const reason = REASON_TEXT[d.rejectReason] ?? 'REJECTED';
  const retry = retryAfterSeconds(d.waitMs);
  const headers: HeaderValue__Output[] = [{ key: 'content-type', value: 'application/json' }];
  if (retry !== undefined) headers.push({ key: 'retry-after', value: String(retry) });
  const body = JSON.stringify({
    code: GRPC_CODE[status] ?? (status >= 500 ? 14 : 7),
    message: `request rejected at control point ${d.controlPoint}: ${reason}`,
    details: [],
    reason,
    ...(retry !== undefined ? { retry_after_seconds: retry } : {}),
  });
  return { status, headers, body };
}
