import type { CheckDecision } from './decision.js';
import type { DeniedHttpResponse__Output, HeaderValue__Output } from '@sluice/proto';

const REASON_TEXT: Readonly<Record<string, string>> = {
  REJECT_REASON_RATE_LIMITED: 'RATE_LIMITED',
  REJECT_REASON_NO_TOKENS: 'NO_TOKENS',
  REJECT_REASON_REGULATED: 'REGULATED',
};

/** `Retry-After` seconds of a wait: rounded up to whole seconds; undefined for no wait. */
export function retryAfterSeconds(waitMs: number): number | undefined {
  return waitMs > 0 ? Math.ceil(waitMs / 1000) : undefined;
}

/** The HTTP answer to a rejected flow: its status, `Retry-After` and a JSON body. */
export function deniedHttpResponse(d: CheckDecision): DeniedHttpResponse__Output {
  const status = d.deniedStatus === 0 ? 503 : d.deniedStatus;
  const reason = REASON_TEXT[d.rejectReason] ?? 'REJECTED';
  const retry = retryAfterSeconds(d.waitMs);
  const headers: HeaderValue__Output[] = [{ key: 'content-type', value: 'application/json' }];
  if (retry !== undefined) headers.push({ key: 'retry-after', value: String(retry) });
  const body = JSON.stringify({
    code: status,
    message: `request rejected at control point ${d.controlPoint}: ${reason}`,
    reason,
    ...(retry !== undefined ? { retry_after_seconds: retry } : {}),
  });
  return { status, headers, body };
}
