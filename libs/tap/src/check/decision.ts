import type { FlowToEnd } from './flow-end.js';
import type { Duration__Output, HeaderValue__Output } from '@sluice/proto';
import type { CheckAnswer } from './stream-answer.js';

export type Decision =
  | { kind: 'ok'; headers: HeaderValue__Output[]; flowEnd?: FlowToEnd }
  | { kind: 'denied'; status: number; headers: HeaderValue__Output[]; body: string; waitMs?: number };

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const BAD_VALUE = /[^\t\x20-\x7e\x80-\xff]/;
const FRAMING = /^(?:connection|keep-alive|transfer-encoding|content-length|upgrade|te|trailer|proxy-connection)$/i;

function usable(h: HeaderValue__Output): boolean {
  return TOKEN.test(h.key) && !FRAMING.test(h.key) && !BAD_VALUE.test(h.value);
}

/**
 * The agent's headers the tap can pass on: a name that is not an HTTP token or
 * a value with control characters would make Node throw, and the framing and
 * connection headers are the tap's own (one on the way up would desynchronize
 * the workload's connection).
 */
export function usableHeaders(headers: HeaderValue__Output[]): HeaderValue__Output[] {
  return headers.every(usable) ? headers : headers.filter(usable);
}

/** Statuses a denial may carry; anything else from the agent becomes 403. */
function denialStatus(status: number): number {
  return Number.isInteger(status) && status >= 400 && status <= 599 ? status : 403;
}

/** Milliseconds of a wait (0 when none). */
export function waitMilliseconds(wait: Duration__Output | null | undefined): number {
  if (wait === null || wait === undefined) return 0;
  const ms = Number(wait.seconds) * 1000 + Number(wait.nanos) / 1e6;
  return Number.isFinite(ms) && ms > 0 ? ms : 0;
}

/** Whole seconds of a wait, rounded up (0 when none). */
export function retryAfterSeconds(wait: Duration__Output | null | undefined): number {
  const ms = waitMilliseconds(wait);
  return ms > 0 ? Math.ceil(ms / 1000) : 0;
}

/** The denial's wait in milliseconds, as an optional member. */
function waitOf(wait: Duration__Output | null | undefined): { waitMs?: number } {
  const ms = waitMilliseconds(wait);
  return ms > 0 ? { waitMs: ms } : {};
}

/**
 * What the tap does with the agent's answer: forward (with the headers the
 * agent adds) or answer the denial. A denial without Retry-After gets one
 * from the check's wait time, when there is a wait.
 */
export function decisionOf(response: CheckAnswer, startedAt?: number): Decision {
  const denied = response.denied_response;
  if (response.http_response === 'denied_response' && denied !== null && denied !== undefined) {
    const headers = [...usableHeaders(denied.headers ?? [])];
    if (!headers.some((h) => h.key.toLowerCase() === 'retry-after')) {
      const seconds = retryAfterSeconds(response.check_response?.wait_time);
      if (seconds > 0) headers.push({ key: 'retry-after', value: String(seconds) });
    }
    return { kind: 'denied', status: denialStatus(denied.status), headers, body: denied.body ?? '', ...waitOf(response.check_response?.wait_time) };
  }
  const check = response.check_response;
  if (response.http_response === undefined && check?.decision_type === 'DECISION_TYPE_REJECTED') {
    // An agent that filled only the check response: derive the HTTP denial from it.
    const seconds = retryAfterSeconds(check.wait_time);
    const status = REASON_STATUS[check.reject_reason ?? ''] ?? 403;
    const headers = [{ key: 'content-type', value: 'application/json' }];
    if (seconds > 0) headers.push({ key: 'retry-after', value: String(seconds) });
    const reason = (check.reject_reason ?? '').replace(/^REJECT_REASON_/, '') || 'REJECTED';
    const body = JSON.stringify({ code: grpcCodeOfStatus(status), message: `request rejected: ${reason}`, details: [] });
    return { kind: 'denied', status, headers, body, ...waitOf(check.wait_time) };
  }
  const headers = usableHeaders(response.ok_response?.headers ?? []);
  if (check?.expect_end === true && typeof response.flow_id === 'string' && response.flow_id.length > 0) {
    return { kind: 'ok', headers, flowEnd: { flowId: response.flow_id, startedAt: startedAt ?? performance.now() } };
  }
  return { kind: 'ok', headers };
}

/** The gRPC code of a denial's HTTP status, as the gRPC-gateway maps them back (403 PERMISSION_DENIED, 429 RESOURCE_EXHAUSTED, 503 UNAVAILABLE). */
export function grpcCodeOfStatus(status: number): number {
  return GRPC_CODE_OF_STATUS[status] ?? (status >= 500 ? 13 : 9);
}

const GRPC_CODE_OF_STATUS: Readonly<Record<number, number>> = {
  400: 3, 401: 16, 403: 7, 404: 5, 409: 10, 412: 9, 429: 8, 499: 1, 501: 12, 503: 14, 504: 4,
};

const REASON_STATUS: Readonly<Record<string, number>> = {
  REJECT_REASON_RATE_LIMITED: 429,
  REJECT_REASON_NO_TOKENS: 503,
  REJECT_REASON_REGULATED: 403,
};
