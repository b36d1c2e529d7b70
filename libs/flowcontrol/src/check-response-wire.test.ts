import { test } from 'node:test';
import assert from 'node:assert/strict';
import { messageType, serviceClient } from '@sluice/proto';
import { checkResponseWire, encodeCheckHTTPResponse, encodeCheckHTTPStreamResponse, encodeCheckResponse } from './check-response-wire.js';
import { repeatedDecisionBytes } from './limiter-decision-wire.js';
import { toCheckResponse } from './check-response.js';
import { toCheckHTTPResponse } from './checkhttp-decide.js';
import type { CheckDecision, LimiterRecord } from './decision.js';

const check = serviceClient('flowControl').service.Check;
const checkHttp = serviceClient('flowControlHttp').service.CheckHTTP;

const id = (i: number) => ({ policy_name: `p${i}`, policy_hash: `h${i}`, component_id: `root.${i}` });

function decision(over: Partial<CheckDecision> = {}): CheckDecision {
  return {
    controlPoint: 'cp', services: ['svc-a', 'svc-b'], labels: { user: 'alice', tier: 'gold' }, addedLabels: undefined,
    startMs: 1_700_000_000_123.456, endMs: 1_700_000_000_124.5, accepted: true, rejectReason: 'REJECT_REASON_NONE', deniedStatus: 0,
    waitMs: 0, limiters: [], classifiers: [], fluxMeters: [], ...over,
  };
}

const accepted = (i: number): LimiterRecord => ({ kind: 'rate_limiter', identity: id(i), result: { accepted: true, waitMs: 0, tokens: 1, label: 'alice', remaining: 1e12 - i, current: 1e12 - i + 1 } });

const CASES: Record<string, CheckDecision> = {
  'no limiters': decision(),
  'ten accepting rate limiters': decision({ limiters: Array.from({ length: 10 }, (_, i) => accepted(i)) }),
  'a rate limiter rejects with a wait': decision({
    accepted: false, rejectReason: 'REJECT_REASON_RATE_LIMITED', deniedStatus: 429, waitMs: 1500.25,
    limiters: [accepted(0), { kind: 'rate_limiter', identity: id(1), result: { accepted: false, waitMs: 1500.25, tokens: 1, label: 'alice', remaining: 0, current: 0 } }],
  }),
  'a scheduler rejects, a sampler rejects, a key is not found': decision({
    accepted: false, rejectReason: 'REJECT_REASON_NO_TOKENS', deniedStatus: 503,
    limiters: [
      { kind: 'scheduler', identity: id(2), result: { accepted: false, waitMs: 0, workloadIndex: '1', priority: 50, tokens: 3, remaining: -2, current: 1 } },
      { kind: 'sampler', identity: id(3), result: { accepted: false, waitMs: 0, label: 'gold' } },
      { kind: 'rate_limiter', identity: id(4), result: { accepted: true, waitMs: 0, keyNotFound: true } },
    ],
  }),
  'a sampler rejects': decision({ accepted: false, rejectReason: 'REJECT_REASON_REGULATED', deniedStatus: 403, limiters: [{ kind: 'sampler', identity: id(5), result: { accepted: false, waitMs: 0, label: '' } }] }),
  'classifiers and flux meters': decision({
    classifiers: [{ policy_name: 'c', policy_hash: 'ch', classifier_index: 0, failed: false }, { policy_name: 'c', policy_hash: 'ch', classifier_index: 1, failed: true }],
    fluxMeters: ['fm-a', 'fm-b'], services: [], labels: {},
  }),
};

for (const [name, d] of Object.entries(CASES)) {
  test(`Check answer in wire shape reads back as the full message (${name}), its decisions in wire shape and repeated as bytes`, () => {
    const shapes: string[] = [];
    for (const expectEnd of [false, true, false]) {
      const full = toCheckResponse(d, expectEnd);
      const wire = checkResponseWire(d, expectEnd);
      shapes.push(wire.limiter_decisions?.[0] === undefined ? 'none' : wire.limiter_decisions[0] instanceof Uint8Array ? 'bytes' : 'objects');
      const lean = check.responseDeserialize(encodeCheckResponse(wire));
      assert.deepEqual(lean, check.responseDeserialize(check.responseSerialize(full)));
      assert.equal((lean as { expect_end: boolean }).expect_end, expectEnd);
    }
    assert.deepEqual(shapes, d.limiters.length === 0 ? ['none', 'none', 'none'] : ['objects', 'bytes', 'bytes'], 'the same decisions again are spliced as bytes');
  });
}

test('one limiter deciding otherwise puts the whole answer in wire shape', () => {
  const limiters = [accepted(20), accepted(21)];
  checkResponseWire(decision({ limiters }));
  assert.ok(checkResponseWire(decision({ limiters })).limiter_decisions?.[0] instanceof Uint8Array);
  const changed = [accepted(20), { ...accepted(21), result: { ...accepted(21).result, remaining: 3 } }];
  changed[1] = { ...changed[1] as LimiterRecord, identity: (limiters[1] as LimiterRecord).identity };
  const w = checkResponseWire(decision({ limiters: changed }));
  assert.ok(!(w.limiter_decisions?.[0] instanceof Uint8Array));
  const back = check.responseDeserialize(encodeCheckResponse(w)) as { limiter_decisions: Array<{ rate_limiter_info: { tokens_info: { remaining: number } } }> };
  assert.equal(back.limiter_decisions[1]?.rate_limiter_info.tokens_info.remaining, 3);
});

test('the wire shape names rejections by their numbers in check.proto', () => {
  const w = checkResponseWire(decision({
    accepted: false, rejectReason: 'REJECT_REASON_RATE_LIMITED', deniedStatus: 429, waitMs: 1500.25,
    limiters: [accepted(30), { kind: 'rate_limiter', identity: id(31), result: { accepted: false, waitMs: 1500.25, tokens: 1, label: 'alice', remaining: 0, current: 0 } }],
  }));
  assert.equal(w.decision_type, 1);
  assert.equal(w.reject_reason, 1);
  assert.equal(w.denied_response_status_code, 429);
  const [first, second] = w.limiter_decisions as Array<{ dropped?: boolean; denied_response_status_code?: number }>;
  assert.equal(second?.dropped, true);
  assert.equal(second?.denied_response_status_code, 429);
  assert.equal(first?.dropped, undefined, 'a default is left out');
  const back = check.responseDeserialize(encodeCheckResponse(w)) as { reject_reason: string; denied_response_status_code: string; limiter_decisions: Array<{ denied_response_status_code: string }> };
  assert.equal(back.reject_reason, 'REJECT_REASON_RATE_LIMITED');
  assert.equal(back.denied_response_status_code, 'TooManyRequests');
  assert.equal(back.limiter_decisions[1]?.denied_response_status_code, 'TooManyRequests');
});

test('a CheckHTTP answer carrying the wire shape reads back as with the full message', () => {
  const stream = serviceClient('flowControlHttp').service.CheckHTTPStream;
  const req = { control_point: 'cp', source: null, destination: null, request: null, ramp_mode: false, interest_generation: undefined };
  for (const d of Object.values(CASES)) {
    const answer = toCheckHTTPResponse(d, req as never, 'flow-1');
    const full = { ...answer, check_response: toCheckResponse(d, true) };
    assert.deepEqual(checkHttp.responseDeserialize(encodeCheckHTTPResponse(answer)), checkHttp.responseDeserialize(checkHttp.responseSerialize(full)));
    const streamed = stream.responseDeserialize(encodeCheckHTTPStreamResponse({ id: 7, response: answer, code: 0, message: '' }));
    assert.deepEqual(streamed, stream.responseDeserialize(stream.responseSerialize({ id: 7, response: full, code: 0, message: '' })));
  }
});

test('a limiter that decides alike is encoded once, on the second time; a changed result or policy hash is not the same decision', () => {
  const identity = id(9);
  const rec = (remaining: number, over: Partial<LimiterRecord['result']> = {}): LimiterRecord => ({ kind: 'rate_limiter', identity, result: { accepted: true, waitMs: 0, tokens: 1, label: 'alice', remaining, current: remaining, ...over } });
  const limiter = messageType('aperture.flowcontrol.check.v1.LimiterDecision');
  const decode = (b: Uint8Array | undefined) => limiter.toObject(limiter.decode(b ?? new Uint8Array()));
  assert.equal(repeatedDecisionBytes(rec(5)), undefined, 'a first decision');
  const first = repeatedDecisionBytes(rec(5));
  assert.ok(first instanceof Uint8Array, 'the same decision again');
  assert.equal(repeatedDecisionBytes(rec(5)), first, 'kept while it repeats');
  assert.equal(repeatedDecisionBytes(rec(4)), undefined, 'another result');
  assert.equal(decode(repeatedDecisionBytes(rec(4))).rate_limiter_info.tokens_info.remaining, 4);
  identity.policy_hash = 'new-hash';
  assert.equal(repeatedDecisionBytes(rec(4)), undefined, 'a new policy hash');
  assert.equal(decode(repeatedDecisionBytes(rec(4))).policy_hash, 'new-hash');
  assert.equal(repeatedDecisionBytes(rec(4, { accepted: false })), undefined, 'a rejection is not the acceptance before it');
  assert.equal(decode(repeatedDecisionBytes(rec(4, { accepted: false }))).dropped, true);
  assert.equal(repeatedDecisionBytes({ ...rec(4, { accepted: false }), kind: 'sampler' }), undefined, 'another kind');
  assert.equal(decode(repeatedDecisionBytes({ ...rec(4, { accepted: false }), kind: 'sampler' })).denied_response_status_code, 403);
  for (const over of [{ label: 'bob' }, { waitMs: 1 }, { keyNotFound: true }, { tokens: 2 }, { current: 7 }, { workloadIndex: '1' }, { priority: 2 }]) {
    repeatedDecisionBytes(rec(4));
    repeatedDecisionBytes(rec(4));
    assert.equal(repeatedDecisionBytes(rec(4, over)), undefined, `${JSON.stringify(over)} differs`);
  }
});
