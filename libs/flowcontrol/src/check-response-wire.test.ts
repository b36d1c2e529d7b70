import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serviceClient, wireSerializer } from '@sluice/proto';
import { checkResponseWire, encodeCheckResponse } from './check-response-wire.js';
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
  for (const expectEnd of [false, true]) {
    test(`Check answer in wire shape reads back as the full message (${name}, expect_end ${expectEnd})`, () => {
      const full = toCheckResponse(d, expectEnd);
      const lean = check.responseDeserialize(encodeCheckResponse(checkResponseWire(d, expectEnd)));
      assert.deepEqual(lean, check.responseDeserialize(check.responseSerialize(full)));
      assert.equal((lean as { expect_end: boolean }).expect_end, expectEnd);
      // the loader's own serializer takes the wire shape too (numbers for enums)
      assert.deepEqual(check.responseDeserialize(check.responseSerialize(checkResponseWire(d, expectEnd))), lean);
    });
  }
}

test('the wire shape names rejections by their numbers in check.proto', () => {
  const w = checkResponseWire(CASES['a rate limiter rejects with a wait'] as CheckDecision);
  assert.equal(w.decision_type, 1);
  assert.equal(w.reject_reason, 1);
  assert.equal(w.denied_response_status_code, 429);
  assert.equal(w.limiter_decisions?.[1]?.dropped, true);
  assert.equal(w.limiter_decisions?.[0]?.dropped, undefined, 'a default is left out');
  const back = check.responseDeserialize(encodeCheckResponse(w)) as { reject_reason: string; denied_response_status_code: string; limiter_decisions: Array<{ denied_response_status_code: string }> };
  assert.equal(back.reject_reason, 'REJECT_REASON_RATE_LIMITED');
  assert.equal(back.denied_response_status_code, 'TooManyRequests');
  assert.equal(back.limiter_decisions[1]?.denied_response_status_code, 'TooManyRequests');
});

test('a CheckHTTP answer carrying the wire shape reads back as with the full message', () => {
  const encodeHttp = wireSerializer('sluice.flowcontrol.checkhttp.v1.CheckHTTPResponse');
  const req = { control_point: 'cp', source: null, destination: null, request: null, ramp_mode: false, interest_generation: undefined };
  for (const d of Object.values(CASES)) {
    const answer = toCheckHTTPResponse(d, req as never, 'flow-1');
    const bytes = encodeHttp(answer);
    const full = { ...answer, check_response: toCheckResponse(d, true) };
    assert.deepEqual(checkHttp.responseDeserialize(bytes), checkHttp.responseDeserialize(checkHttp.responseSerialize(full)));
  }
});
