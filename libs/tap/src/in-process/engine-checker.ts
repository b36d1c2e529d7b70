import { decideCheckHttp, type CheckHttpDeps } from '@sluice/flowcontrol';
import {
  enumNumbers, type CheckResponse_DecisionType__Output, type CheckResponse_RejectReason__Output, type HeaderInterest__Output, type HeaderValue,
  type HeaderValue__Output,
} from '@sluice/proto';
import type { Checker } from '../check/ask-agent.js';
import { failed, type CheckOutcome } from '../check/unary-check.js';
import type { CheckAnswer } from '../check/stream-answer.js';
import type { CheckHTTPRequest } from '../check/types.js';

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

const NO_HEADERS = Object.freeze([]) as unknown as HeaderValue__Output[];

/** Header fields in wire shape as the decoded shape: the engine sets both members of each (check-response-wire.ts), so no copy is made. */
function headersOf(h: HeaderValue[] | undefined): HeaderValue__Output[] {
  return h === undefined ? NO_HEADERS : h as HeaderValue__Output[];
}

/** What decideCheckHttp answers: the CheckHTTP answer in wire shape. */
type WireAnswer = ReturnType<typeof decideCheckHttp> extends infer A ? Awaited<A> : never;

/**
 * The tap's reading of an in-process answer: the fields a decoded CheckHTTP answer
 * carries for the tap (stream-answer.ts), with the oneof's name set and the check
 * response's enums as their names, as the wire would give them.
 */
export function answerOf(w: WireAnswer): CheckAnswer {
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
 * A Checker deciding in this process, through the agent's engine, by the same path as the
 * agent's CheckHTTP service (decideCheckHttp: labels, services from the destination
 * address, header interest, flow ids for flux meters, the preview). It never throws: a
 * request the decision refuses (InvalidArgument) or an engine failure is a failed check
 * ('error'), a decision past the timeout a failed check ('deadline', the wait given up),
 * as they are for the gRPC client, and the tap's fail-open rules apply to them alike.
 */
export class EngineChecker implements Checker {
  readonly #deps: CheckHttpDeps;

  constructor(deps: CheckHttpDeps) {
    this.#deps = deps;
  }

  check(request: CheckHTTPRequest, timeoutMs: number): Promise<CheckOutcome> {
    let decided: WireAnswer | Promise<WireAnswer>;
    const controller = new AbortController();
    try {
      decided = decideCheckHttp(this.#deps, request, Date.now() + timeoutMs, controller.signal);
    } catch (err) {
      return Promise.resolve(failed('error', err));
    }
    if (!(decided instanceof Promise)) return Promise.resolve({ kind: 'answer', response: answerOf(decided) });
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        controller.abort();
        resolve(failed('deadline', new Error('deadline exceeded')));
      }, timeoutMs);
      decided.then(
        (answer) => { clearTimeout(timer); resolve({ kind: 'answer', response: answerOf(answer) }); },
        (err: unknown) => { clearTimeout(timer); resolve(failed('error', err)); },
      );
    });
  }
}
