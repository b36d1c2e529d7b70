import protobuf from 'protobufjs';
import { checkProtos } from './check-protos.js';
import type { CheckHTTPResponse__Output, CheckHTTPStreamResponse__Output, CheckResponse__Output } from '@sluice/proto';

/*
 * The part of a CheckHTTPStreamResponse the tap reads, as protobufjs types
 * derived from checkhttp.proto and check.proto (their field numbers and
 * types come from the .proto files, not from here): the stream answer and the
 * HTTP answer whole, and of the check response only the fields that decide the
 * HTTP answer and the flow's end. Decoding skips, unread, what the tap never
 * looks at: the check response's services, flow label keys, timestamps,
 * limiter, classifier and flux meter details. The agent sends them for every
 * check, and decoding the whole message and turning it into an object with
 * every default took about three times as long as this (stream-answer.test.ts
 * checks that both read the same values).
 */
const CHECK_RESPONSE = 'aperture.flowcontrol.check.v1.CheckResponse';
const CHECK_FIELDS = ['decision_type', 'reject_reason', 'wait_time', 'expect_end'] as const;

/** A copy of `full` beside it, named `name`, with only `keep` fields (all when undefined) and field types renamed by `retype`. */
function leanCopy(root: protobuf.Root, full: string, name: string, keep?: readonly string[], retype: Record<string, string> = {}): protobuf.Type {
  const type = root.lookupType(full);
  const json = type.toJSON() as protobuf.IType;
  const fields: Record<string, protobuf.IField> = {};
  for (const [field, def] of Object.entries(json.fields)) {
    if (keep !== undefined && !keep.includes(field)) continue;
    fields[field] = { ...def, type: retype[field] ?? def.type };
  }
  const oneofs = keep === undefined ? json.oneofs : undefined;
  const lean = protobuf.Type.fromJSON(name, { fields, ...(oneofs !== undefined ? { oneofs } : {}) });
  (type.parent as protobuf.Namespace).add(lean);
  return lean;
}

function leanTypes(): { streamAnswer: protobuf.Type; answer: protobuf.Type } {
  const root = checkProtos();
  leanCopy(root, CHECK_RESPONSE, 'TapCheckResponse', CHECK_FIELDS);
  const answer = leanCopy(root, 'sluice.flowcontrol.checkhttp.v1.CheckHTTPResponse', 'TapAnswer', undefined, { check_response: `${CHECK_RESPONSE.slice(0, CHECK_RESPONSE.lastIndexOf('.'))}.TapCheckResponse` });
  const streamAnswer = leanCopy(root, 'sluice.flowcontrol.checkhttp.v1.CheckHTTPStreamResponse', 'TapStreamAnswer', undefined, { response: 'TapAnswer' });
  root.resolveAll();
  return { streamAnswer, answer };
}

/** The agent's answer to a check as the tap reads it: of check_response, only what decides the HTTP answer and the flow's end. */
export type CheckAnswer = Omit<CheckHTTPResponse__Output, 'check_response'> & {
  check_response: Pick<CheckResponse__Output, typeof CHECK_FIELDS[number]> | null;
};

/** A CheckHTTPStreamResponse as decodeStreamAnswer gives it. */
export type StreamAnswer = Omit<CheckHTTPStreamResponse__Output, 'response'> & { response: CheckAnswer | null };

const { streamAnswer: STREAM_ANSWER, answer: ANSWER } = leanTypes();

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
