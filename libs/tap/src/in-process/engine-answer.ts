import { deniedHttpResponse, durationOf, okResponseHeaders, type CheckDecision, type CheckHTTPAnswer, type CheckHttpShape, type HeaderInterest } from '@sluice/flowcontrol';
import {
  enumNumbers, type CheckHTTPRequest__Output, type CheckResponse_DecisionType__Output, type CheckResponse_RejectReason__Output, type Duration__Output,
  type HeaderInterest__Output, type HeaderValue, type HeaderValue__Output,
} from '@sluice/proto';
import type { CheckAnswer } from '../check/stream-answer.js';

/*
 * The tap's reading (stream-answer.ts's CheckAnswer) of what the engine decided in this process:
 * of a decision, directly (answerOfDecision); of an answer given without deciding, from its wire
 * shape (answerOf). Both read the same as the gRPC answer of the same decision would, decoded.
 */

/** The names of an enum of check.proto by number (a field left at 0 is undefined in wire shape). */
function namesOf<N extends string>(fullName: string): (n: unknown) => N {
  const byNumber = new Map<number, N>();
  for (const [name, n] of Object.entries(enumNumbers<N>(`aperture.flowcontrol.check.v1.${fullName}`))) byNumber.set(n as number, name as N);
  const zero = byNumber.get(0) as N;
  const names = new Set<string>(byNumber.values());
  return (n) => (typeof n === 'number' ? byNumber.get(n) ?? zero : typeof n === 'string' && names.has(n) ? n as N : zero);
}

const DECISION_TYPE = namesOf<CheckResponse_DecisionType__Output>('CheckResponse.DecisionType');
const REJECT_REASON = namesOf<CheckResponse_RejectReason__Output>('CheckResponse.RejectReason');
const ACCEPTED = DECISION_TYPE('DECISION_TYPE_ACCEPTED');
const REJECTED = DECISION_TYPE('DECISION_TYPE_REJECTED');

const NO_HEADERS = Object.freeze([]) as unknown as HeaderValue__Output[];
/** The ok_response of an accepted flow that goes on with no header added (read, never written, by the tap). */
const OK_NO_HEADERS = Object.freeze({ headers: NO_HEADERS }) as { headers: HeaderValue__Output[] };
/** No wait, as a decoded wire answer reads it. */
const NO_WAIT: Duration__Output = Object.freeze({ seconds: 0, nanos: 0 });

/** Header fields in wire shape as the decoded shape: the engine sets both members of each (check-response-wire.ts), so no copy is made. */
function headersOf(h: HeaderValue[] | undefined): HeaderValue__Output[] {
  return h === undefined || h.length === 0 ? NO_HEADERS : h as HeaderValue__Output[];
}

/**
 * The tap's reading of a CheckHTTP answer in wire shape: the fields a decoded answer carries for
 * the tap, with the oneof's name set and the check response's enums as their names, as the wire
 * would give them.
 */
export function answerOf(w: CheckHTTPAnswer): CheckAnswer {
  const c = w.check_response;
  const wait = c?.wait_time;
  return {
    ok_response: w.ok_response === undefined || w.ok_response === null ? null : { headers: headersOf(w.ok_response.headers) },
    denied_response: w.denied_response === undefined || w.denied_response === null ? null : {
      status: w.denied_response.status ?? 0,
      headers: headersOf(w.denied_response.headers),
      body: w.denied_response.body ?? '',
    },
    ...(w.denied_response !== undefined && w.denied_response !== null ? { http_response: 'denied_response' as const }
      : w.ok_response !== undefined && w.ok_response !== null ? { http_response: 'ok_response' as const } : {}),
    check_response: c === undefined || c === null ? null : {
      decision_type: DECISION_TYPE(c.decision_type),
      reject_reason: REJECT_REASON(c.reject_reason),
      wait_time: wait === undefined || wait === null ? null : { seconds: Number(wait.seconds ?? 0), nanos: wait.nanos ?? 0 },
      expect_end: c.expect_end === true,
    },
    flow_id: w.flow_id ?? '',
    // The engine's interest is in decoded shape already (flowcontrol header-interest.ts).
    header_interest: (w.header_interest ?? null) as HeaderInterest__Output | null,
    ...(w.resend_unfiltered === true ? { resend_unfiltered: true } : {}),
  };
}

/**
 * The tap's reading of a decision, as answerOf reads the wire answer of it (toCheckHTTPResponse)
 * but without making that answer: the wire's timestamps, services, label keys, classifier, flux
 * meter and encoded limiter decisions are never read by the tap. A denial is the engine's HTTP
 * denial; an accepted flow goes on with the baggage the classifiers' labels add (none made when
 * no classifier added a label); a flow id when flux meters measure the flow.
 */
export function answerOfDecision(d: CheckDecision, req: CheckHTTPRequest__Output, flowId: string | undefined, interest: HeaderInterest | undefined): CheckAnswer {
  const check_response = {
    decision_type: d.accepted ? ACCEPTED : REJECTED,
    reject_reason: REJECT_REASON(d.rejectReason),
    wait_time: d.waitMs > 0 ? durationOf(d.waitMs) : NO_WAIT,
    expect_end: flowId !== undefined,
  };
  const header_interest = interest ?? null;
  if (!d.accepted) {
    const denied = deniedHttpResponse(d);
    return {
      ok_response: null,
      denied_response: { status: denied.status, headers: headersOf(denied.headers), body: denied.body },
      http_response: 'denied_response',
      check_response,
      flow_id: '',
      header_interest,
    };
  }
  const headers = okResponseHeaders(d, req);
  return {
    ok_response: headers.length === 0 ? OK_NO_HEADERS : { headers: headers as HeaderValue__Output[] },
    denied_response: null,
    http_response: 'ok_response',
    check_response,
    flow_id: flowId ?? '',
    header_interest,
  };
}

/** decideCheckHttpAs's shaping for the tap: decisions read directly, early answers from their wire shape. */
export const TAP_SHAPE: CheckHttpShape<CheckAnswer> = { decided: answerOfDecision, early: answerOf };
