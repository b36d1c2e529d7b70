import { elementTag, enumNumbers, wireSerializer } from '@sluice/proto';
import type {
  CheckHTTPResponse, CheckHTTPStreamResponse, CheckResponse, CheckResponse_DecisionType, CheckResponse_DecisionType__Output,
  CheckResponse_RejectReason, CheckResponse_RejectReason__Output, ClassifierInfo, ClassifierInfo_Error, ClassifierInfo_Error__Output,
  StatusCode, StatusCode__Output,
} from '@sluice/proto';
import type { CheckDecision, LimiterRecord } from '../check/decision.js';
import { limiterDecisionBytes, limiterDecisionsLength, writeLimiterDecisions, ZERO_DURATION } from './limiter-decision-wire.js';
import { decisionsBlockFor, offerDecisionsBlock, writeDecisionsBlock } from './limiter-decisions-block.js';
import { durationOf, timestampOf } from './proto-time.js';

/** A CheckResponse in wire shape whose limiter decisions are their encodings (limiterDecisionBytes). */
export type CheckResponseWire = Omit<CheckResponse, 'limiter_decisions'> & { limiter_decisions?: Uint8Array[] };
/** A CheckHTTP answer carrying a CheckResponseWire. */
export type CheckHTTPAnswer = Omit<CheckHTTPResponse, 'check_response'> & { check_response?: CheckResponseWire | null };
/** A CheckHTTPStream answer carrying a CheckHTTPAnswer. */
export type CheckHTTPStreamAnswer = Omit<CheckHTTPStreamResponse, 'response'> & { response?: CheckHTTPAnswer | null };

const CHECK = 'aperture.flowcontrol.check.v1';
type Numbers<E> = Extract<E, number>;
const DECISION_TYPE = enumNumbers<CheckResponse_DecisionType__Output, Numbers<CheckResponse_DecisionType>>(`${CHECK}.CheckResponse.DecisionType`);
const REJECT_REASON = enumNumbers<CheckResponse_RejectReason__Output, Numbers<CheckResponse_RejectReason>>(`${CHECK}.CheckResponse.RejectReason`);
const STATUS = enumNumbers<StatusCode__Output, Numbers<StatusCode>>(`${CHECK}.StatusCode`);
const CLASSIFIER_ERROR = enumNumbers<ClassifierInfo_Error__Output, Numbers<ClassifierInfo_Error>>(`${CHECK}.ClassifierInfo.Error`);
const STATUS_OF_DENIAL: Readonly<Record<number, Numbers<StatusCode>>> = { 403: STATUS.Forbidden, 429: STATUS.TooManyRequests, 503: STATUS.ServiceUnavailable };
/** No elements: an empty repeated field (none written). */
const NONE = Object.freeze([]) as unknown as never[];

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
export function checkResponseWire(d: CheckDecision, expectEnd = false): CheckResponseWire {
  const w = checkResponseHead(d, expectEnd);
  if (d.limiters.length > 0) w.limiter_decisions = d.limiters.map(limiterDecisionBytes);
  return w;
}

/** checkResponseWire but for the limiter decisions (none written). */
function checkResponseHead(d: CheckDecision, expectEnd: boolean): CheckResponseWire {
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
    limiter_decisions: NONE,
    wait_time: d.waitMs > 0 ? durationOf(d.waitMs) : ZERO_DURATION,
    denied_response_status_code: STATUS_OF_DENIAL[d.deniedStatus],
    expect_end: expectEnd ? true : undefined,
  };
}

/** The CheckResponse of a flow refused before the engine saw it (a malformed request): rejected, no component named. */
export function refusedCheckResponseWire(controlPoint: string, nowMs: number): CheckResponseWire {
  return {
    start: timestampOf(nowMs),
    end: timestampOf(nowMs),
    control_point: controlPoint,
    decision_type: DECISION_TYPE.DECISION_TYPE_REJECTED,
    wait_time: ZERO_DURATION,
  };
}

/**
 * A Check answer on its way to encodeCheckAnswer: the CheckResponse in wire shape but for its
 * limiter decisions, and the records they are written from when it is encoded.
 */
export interface CheckAnswer {
  readonly response: CheckResponseWire;
  readonly limiters: readonly LimiterRecord[];
}

/** The Check answer of an engine decision (see CheckAnswer). */
export function checkAnswer(d: CheckDecision, expectEnd = false): CheckAnswer {
  return { response: checkResponseHead(d, expectEnd), limiters: d.limiters };
}

const CHECKHTTP = 'sluice.flowcontrol.checkhttp.v1';
/** The limiter decisions are held as their bytes. */
const PRE_ENCODED = { preEncoded: [`${CHECK}.LimiterDecision`] };

/** The bytes of a CheckResponse in wire shape (checkResponseWire): check.proto's type, encoded without fromObject. */
export const encodeCheckResponse = wireSerializer<CheckResponseWire>(`${CHECK}.CheckResponse`, PRE_ENCODED);

/** The tag each limiter decision of a CheckResponse starts with (from check.proto). */
const DECISION_TAG = elementTag(`${CHECK}.CheckResponse`, 'limiter_decisions');
/** Where encodeCheckAnswer writes (and a view of it for the doubles); grows to the largest answer. */
let scratch = Buffer.allocUnsafe(4096);
let scratchView = new DataView(scratch.buffer, scratch.byteOffset, scratch.byteLength);

function scratchOf(length: number): Buffer {
  if (scratch.length < length) {
    scratch = Buffer.allocUnsafe(Math.max(length, scratch.length * 2));
    scratchView = new DataView(scratch.buffer, scratch.byteOffset, scratch.byteLength);
  }
  return scratch;
}

/**
 * The bytes of a Check answer: its response encoded as encodeCheckResponse does, then its limiter
 * decisions written behind it (a repeated field's elements may follow the other fields): those
 * of the same limiters as the previous answer that say the same but for their counts are that
 * answer's decisions with the counts written over (limiter-decisions-block.ts); others are each
 * written as its kept bytes or its kept prefix and counts (limiterDecisionsLength). No buffer
 * per decision and no copy of the answer by protobufjs's writer. With decisions, the bytes are a
 * view of a buffer that the next call overwrites: for grpc-js, which copies a response's
 * bytes behind its message prefix as soon as it has them (serializeMessage); a caller that
 * keeps them copies them.
 */
export function encodeCheckAnswer(a: CheckAnswer): Buffer {
  const head = encodeCheckResponse(a.response);
  const records = a.limiters;
  if (records.length === 0) return head;
  const block = decisionsBlockFor(records);
  if (block !== undefined) {
    const out = scratchOf(head.length + block.bytes.length);
    out.set(head, 0);
    return out.subarray(0, writeDecisionsBlock(block, records, out, scratchView, head.length));
  }
  const total = head.length + limiterDecisionsLength(records, DECISION_TAG);
  const out = scratchOf(total);
  out.set(head, 0);
  const end = writeLimiterDecisions(out, head.length);
  if (end !== total) throw new Error(`encodeCheckAnswer: wrote ${end} bytes of ${total}`);
  offerDecisionsBlock(records, out.subarray(head.length, end));
  return out.subarray(0, end);
}
/** The bytes of a CheckHTTP answer carrying a CheckResponseWire. */
export const encodeCheckHTTPResponse = wireSerializer<CheckHTTPAnswer>(`${CHECKHTTP}.CheckHTTPResponse`, PRE_ENCODED);
/** The bytes of a CheckHTTPStream answer carrying a CheckHTTPAnswer. */
export const encodeCheckHTTPStreamResponse = wireSerializer<CheckHTTPStreamAnswer>(`${CHECKHTTP}.CheckHTTPStreamResponse`, PRE_ENCODED);
