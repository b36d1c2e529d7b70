import protobuf from 'protobufjs';
import type { CheckHTTPResponse__Output, CheckHTTPStreamResponse__Output, CheckResponse__Output } from '@sluice/proto';

/*
 * The part of a CheckHTTPStreamResponse the tap reads, as a protobufjs type
 * with the field numbers of checkhttp.proto and check.proto. Decoding an
 * answer with it skips, unread, what the tap never looks at: the check
 * response's services, flow label keys, timestamps, limiter, classifier and
 * flux meter details. The agent sends them for every check, and decoding the
 * whole message and turning it into an object with every default took about
 * three times as long as this (stream-answer.test.ts checks that both read
 * the same values).
 */
const LEAN_SCHEMA = {
  nested: {
    StreamAnswer: {
      fields: { id: { type: 'uint64', id: 1 }, response: { type: 'Answer', id: 2 }, code: { type: 'int32', id: 3 }, message: { type: 'string', id: 4 } },
    },
    Answer: {
      oneofs: { http_response: { oneof: ['ok_response', 'denied_response'] }, _resend_unfiltered: { oneof: ['resend_unfiltered'] } },
      fields: {
        ok_response: { type: 'OkHttpResponse', id: 1 },
        denied_response: { type: 'DeniedHttpResponse', id: 2 },
        check_response: { type: 'CheckResponse', id: 3 },
        flow_id: { type: 'string', id: 4 },
        header_interest: { type: 'HeaderInterest', id: 5 },
        resend_unfiltered: { type: 'bool', id: 6 },
      },
    },
    HeaderValue: { fields: { key: { type: 'string', id: 1 }, value: { type: 'string', id: 2 } } },
    OkHttpResponse: { fields: { headers: { rule: 'repeated', type: 'HeaderValue', id: 1 } } },
    DeniedHttpResponse: { fields: { status: { type: 'int32', id: 1 }, headers: { rule: 'repeated', type: 'HeaderValue', id: 2 }, body: { type: 'string', id: 3 } } },
    HeaderInterest: { fields: { generation: { type: 'uint64', id: 1 }, all: { type: 'bool', id: 2 }, headers: { rule: 'repeated', type: 'string', id: 3 }, body: { type: 'bool', id: 4 } } },
    Duration: { fields: { seconds: { type: 'int64', id: 1 }, nanos: { type: 'int32', id: 2 } } },
    CheckResponse: {
      fields: {
        decision_type: { type: 'DecisionType', id: 8 },
        reject_reason: { type: 'RejectReason', id: 9 },
        wait_time: { type: 'Duration', id: 13 },
        expect_end: { type: 'bool', id: 16 },
      },
    },
    DecisionType: { values: { DECISION_TYPE_ACCEPTED: 0, DECISION_TYPE_REJECTED: 1 } },
    RejectReason: {
      values: {
        REJECT_REASON_NONE: 0, REJECT_REASON_RATE_LIMITED: 1, REJECT_REASON_NO_TOKENS: 2, REJECT_REASON_NOT_SAMPLED: 3,
        REJECT_REASON_NO_MATCHING_RAMP: 4, REJECT_REASON_REGULATED: 5,
      },
    },
  },
};

/** The agent's answer to a check as the tap reads it: of check_response, only what decides the HTTP answer and the flow's end. */
export type CheckAnswer = Omit<CheckHTTPResponse__Output, 'check_response'> & {
  check_response: Pick<CheckResponse__Output, 'decision_type' | 'reject_reason' | 'wait_time' | 'expect_end'> | null;
};

/** A CheckHTTPStreamResponse as decodeStreamAnswer gives it. */
export type StreamAnswer = Omit<CheckHTTPStreamResponse__Output, 'response'> & { response: CheckAnswer | null };

const LEAN_ROOT = protobuf.Root.fromJSON(LEAN_SCHEMA);
const STREAM_ANSWER = LEAN_ROOT.lookupType('StreamAnswer');
const ANSWER = LEAN_ROOT.lookupType('Answer');

/** The same conversion as @sluice/proto's loader: numbers for 64-bit integers, names for enums, defaults filled in, oneof names set. */
const TO_OBJECT: protobuf.IConversionOptions = { longs: Number, enums: String, defaults: true, oneofs: true };

/**
 * Decodes a CheckHTTPStreamResponse from the wire into the decoded
 * (`__Output`) shape for the fields the tap reads (id, code, message, the
 * HTTP answer, check_response's decision type, reject reason, wait time and
 * expect_end, flow_id, header_interest, resend_unfiltered); the check
 * response's other fields are left out. Throws on malformed bytes, as the
 * loader's deserializer does (gRPC then ends the call with INTERNAL).
 */
export function decodeStreamAnswer(bytes: Buffer): StreamAnswer {
  return STREAM_ANSWER.toObject(STREAM_ANSWER.decode(bytes), TO_OBJECT) as StreamAnswer;
}

/** Decodes a unary CheckHTTPResponse the same way (the fields the tap reads). */
export function decodeCheckAnswer(bytes: Buffer): CheckAnswer {
  return ANSWER.toObject(ANSWER.decode(bytes), TO_OBJECT) as CheckAnswer;
}
