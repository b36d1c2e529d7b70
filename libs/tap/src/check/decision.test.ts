import assert from 'node:assert/strict';
import { test } from 'node:test';
import { serviceClient, type CheckHTTPResponse, type CheckHTTPResponse__Output } from '@sluice/proto';
import { decisionOf as decide, grpcCodeOfStatus, retryAfterSeconds } from './decision.js';

const checkHttp = serviceClient('flowControlHttp').service.CheckHTTP;

/** The decision on an answer as the tap gets it: through the wire and the loader (defaults, oneof names). */
function decisionOf(answer: CheckHTTPResponse, startedAt?: number): ReturnType<typeof decide> {
  return decide(checkHttp.responseDeserialize(checkHttp.responseSerialize(answer)) as CheckHTTPResponse__Output, startedAt);
}

test('ok answers carry their headers; an empty answer lets the request through', () => {
  assert.deepEqual(decisionOf({ http_response: 'ok_response', ok_response: { headers: [{ key: 'baggage', value: 'a=1' }] } }),
    { kind: 'ok', headers: [{ key: 'baggage', value: 'a=1' }] });
  assert.deepEqual(decisionOf({}), { kind: 'ok', headers: [] });
});

test('denials keep the agent Retry-After, or get one from the wait time', () => {
  const kept = decisionOf({ http_response: 'denied_response', denied_response: { status: 429, headers: [{ key: 'Retry-After', value: '7' }], body: 'b' }, check_response: { wait_time: { seconds: 2, nanos: 0 } } });
  assert.deepEqual(kept, { kind: 'denied', status: 429, headers: [{ key: 'Retry-After', value: '7' }], body: 'b', waitMs: 2000 });
  const derived = decisionOf({ http_response: 'denied_response', denied_response: { status: 503, headers: [], body: '' }, check_response: { wait_time: { seconds: 0, nanos: 1 } } });
  assert.deepEqual(derived, { kind: 'denied', status: 503, headers: [{ key: 'retry-after', value: '1' }], body: '', waitMs: 1e-6 });
});

test('a rejected check without an HTTP answer is denied by its reason', () => {
  const rate = decisionOf({ check_response: { decision_type: 'DECISION_TYPE_REJECTED', reject_reason: 'REJECT_REASON_RATE_LIMITED', wait_time: { seconds: 3, nanos: 0 } } });
  assert.deepEqual(rate, { kind: 'denied', status: 429, headers: [{ key: 'content-type', value: 'application/json' }, { key: 'retry-after', value: '3' }],
    body: JSON.stringify({ code: 8, message: 'request rejected: RATE_LIMITED', details: [] }), waitMs: 3000 });
  assert.equal((decisionOf({ check_response: { decision_type: 'DECISION_TYPE_REJECTED', reject_reason: 'REJECT_REASON_NO_TOKENS' } }) as { status: number }).status, 503);
  assert.equal((decisionOf({ check_response: { decision_type: 'DECISION_TYPE_REJECTED', reject_reason: 'REJECT_REASON_REGULATED' } }) as { status: number }).status, 403);
  assert.equal(decisionOf({ check_response: { decision_type: 'DECISION_TYPE_ACCEPTED' } }).kind, 'ok');
});

test('an accepted check with expect_end and a flow id carries the flow to end; without either, none', () => {
  const d = decisionOf({ ok_response: { headers: [] }, flow_id: 'f-1', check_response: { expect_end: true } }, 42);
  assert.deepEqual(d, { kind: 'ok', headers: [], flowEnd: { flowId: 'f-1', startedAt: 42 } });
  assert.equal((decisionOf({ ok_response: { headers: [] }, flow_id: 'f-1', check_response: { expect_end: false } }) as { flowEnd?: unknown }).flowEnd, undefined);
  assert.equal((decisionOf({ ok_response: { headers: [] }, flow_id: '', check_response: { expect_end: true } }) as { flowEnd?: unknown }).flowEnd, undefined);
});

test('grpcCodeOfStatus: the gateway mapping read backwards', () => {
  assert.deepEqual([429, 503, 403, 400, 504, 500, 418].map(grpcCodeOfStatus), [8, 14, 7, 3, 4, 13, 9]);
});

test('retryAfterSeconds rounds up and ignores absent or non-positive waits', () => {
  assert.equal(retryAfterSeconds({ seconds: 1, nanos: 1 }), 2);
  assert.equal(retryAfterSeconds({ seconds: 4, nanos: 0 }), 4);
  assert.equal(retryAfterSeconds({ seconds: 0, nanos: 0 }), 0);
  assert.equal(retryAfterSeconds(null), 0);
  assert.equal(retryAfterSeconds(undefined), 0);
});

test('headers the tap cannot pass on are dropped from ok answers and denials: bad names, control characters, framing', () => {
  const bad = [
    { key: 'bad key', value: 'x' }, { key: '', value: 'x' }, { key: 'x-split', value: 'a\r\nx-injected: 1' },
    { key: 'Content-Length', value: '0' }, { key: 'transfer-encoding', value: 'chunked' }, { key: 'Connection', value: 'close' },
  ];
  const good = [{ key: 'baggage', value: 'a=1' }, { key: 'X-Tier', value: 'gold\tplus' }];
  assert.deepEqual(decisionOf({ http_response: 'ok_response', ok_response: { headers: [...bad, ...good] } }), { kind: 'ok', headers: good });
  assert.deepEqual(decisionOf({ http_response: 'denied_response', denied_response: { status: 429, headers: [...bad, { key: 'retry-after', value: '2' }], body: '' } }),
    { kind: 'denied', status: 429, headers: [{ key: 'retry-after', value: '2' }], body: '' });
});
