import assert from 'node:assert/strict';
import { test } from 'node:test';
import { serviceClient, type CheckHTTPStreamResponse, type CheckHTTPStreamResponse__Output, type CheckResponse } from '@sluice/proto';
import { decisionOf } from './decision.js';
import { decodeCheckAnswer, decodeStreamAnswer } from './stream-answer.js';

const stream = serviceClient('flowControlHttp').service.CheckHTTPStream;
const unary = serviceClient('flowControlHttp').service.CheckHTTP;

/** A check response as the agent fills it, with everything the tap does not read. */
const FULL_CHECK: CheckResponse = {
  start: { seconds: 1_700_000_000, nanos: 1 },
  end: { seconds: 1_700_000_000, nanos: 2 },
  services: ['bench-svc', 'other'],
  control_point: 'ingress',
  flow_label_keys: ['http.method', 'user'],
  telemetry_flow_labels: { user: 'alice' },
  classifier_infos: [{ policy_name: 'p', policy_hash: 'h', classifier_index: 1, error: 'ERROR_NONE' }],
  flux_meter_infos: [{ flux_meter_name: 'fm' }],
  limiter_decisions: [{
    policy_name: 'local', component_id: 'local-limiter-0', dropped: true, reason: 'LIMITER_REASON_KEY_NOT_FOUND',
    wait_time: { seconds: 4, nanos: 0 }, rate_limiter_info: { label: 'GET', tokens_info: { remaining: 1e12, current: 1e12, consumed: 1 } },
  }],
  denied_response_status_code: 'TooManyRequests',
};

const ANSWERS: Array<[string, CheckHTTPStreamResponse]> = [
  ['ok with headers and a full check response', { id: 1, code: 0, message: '', response: {
    ok_response: { headers: [{ key: 'baggage', value: 'a=1' }] }, check_response: { ...FULL_CHECK, decision_type: 'DECISION_TYPE_ACCEPTED' } } }],
  ['ok measured by a flux meter', { id: 2 ** 40, response: { ok_response: { headers: [] }, flow_id: 'f-9', check_response: { ...FULL_CHECK, expect_end: true } } }],
  ['denied with headers, body and wait', { id: 3, response: {
    denied_response: { status: 429, headers: [{ key: 'content-type', value: 'application/json' }], body: '{"code":8}' },
    check_response: { ...FULL_CHECK, decision_type: 'DECISION_TYPE_REJECTED', reject_reason: 'REJECT_REASON_RATE_LIMITED', wait_time: { seconds: 2, nanos: 500 } } } }],
  ['rejected without an HTTP answer', { id: 4, response: { check_response: { decision_type: 'DECISION_TYPE_REJECTED', reject_reason: 'REJECT_REASON_REGULATED' } } }],
  ['resend with the current interest', { id: 5, response: { resend_unfiltered: true, header_interest: { generation: 1_763_900_000_123, all: false, headers: ['user', 'baggage'], body: true } } }],
  ['an interest that wants everything', { id: 6, response: { ok_response: { headers: [] }, header_interest: { generation: 7, all: true } } }],
  ['an error for the id', { id: 7, code: 8, message: 'more than 10000 checks under way on this stream', response: null }],
  ['empty', {}],
];

/** The fields of an answer the tap reads (ask-agent, check-stream, decision). */
function read(m: CheckHTTPStreamResponse__Output | ReturnType<typeof decodeStreamAnswer>): unknown {
  const r = m.response;
  return {
    id: Number(m.id), code: m.code, message: m.message,
    response: r === null || r === undefined ? r : {
      resend_unfiltered: r.resend_unfiltered === true,
      header_interest: r.header_interest,
      flow_id: r.flow_id,
      decision: decisionOf(r, 1),
    },
  };
}

for (const [name, answer] of ANSWERS) {
  test(`a stream answer decoded for the tap reads as the whole message does: ${name}`, () => {
    const bytes = stream.responseSerialize(answer);
    const whole = stream.responseDeserialize(bytes) as CheckHTTPStreamResponse__Output;
    const lean = decodeStreamAnswer(bytes);
    assert.deepEqual(read(lean), read(whole));
    // Only the fields the tap reads are decoded from the check response.
    assert.deepEqual(Object.keys(lean.response?.check_response ?? {}).sort(), lean.response?.check_response ? ['decision_type', 'expect_end', 'reject_reason', 'wait_time'] : []);
  });
}

for (const [name, answer] of ANSWERS) {
  if (answer.response === null || answer.response === undefined) continue;
  test(`a unary answer decoded for the tap reads as the whole message does: ${name}`, () => {
    const bytes = unary.responseSerialize(answer.response);
    const whole = { id: 0, code: 0, message: '', response: unary.responseDeserialize(bytes) } as CheckHTTPStreamResponse__Output;
    assert.deepEqual(read({ id: 0, code: 0, message: '', response: decodeCheckAnswer(bytes) }), read(whole));
  });
}

test('malformed answer bytes throw, as the whole-message decoder does', () => {
  const bad = Buffer.from([0x12, 0x05, 0x0a]); // field 2, length 5, only one byte follows
  assert.throws(() => stream.responseDeserialize(bad));
  assert.throws(() => decodeStreamAnswer(bad));
  assert.throws(() => decodeCheckAnswer(bad));
});
