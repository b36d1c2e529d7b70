import { test } from 'node:test';
import assert from 'node:assert/strict';
import { messageType, serviceClient, wireSerializer } from '@sluice/proto';
import { checkAnswer, checkResponseWire, encodeCheckAnswer, encodeCheckHTTPResponse, encodeCheckHTTPStreamResponse, encodeCheckResponse } from './check-response-wire.js';
import { limiterDecisionBytes } from './limiter-decision-wire.js';
import { toCheckResponse } from './check-response.js';
import { toCheckHTTPResponse } from '../checkhttp/checkhttp-decide.js';
import type { CheckDecision, LimiterRecord } from '../check/decision.js';
import { TEST_KINDS } from '../testing/test-support.js';

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

const accepted = (i: number): LimiterRecord => ({ kind: TEST_KINDS.rate_limiter, identity: id(i), result: { accepted: true, waitMs: 0, tokens: 1, label: 'alice', remaining: 1e12 - i, current: 1e12 - i + 1 } });

const CASES: Record<string, CheckDecision> = {
  'no limiters': decision(),
  'ten accepting rate limiters': decision({ limiters: Array.from({ length: 10 }, (_, i) => accepted(i)) }),
  'a rate limiter rejects with a wait': decision({
    accepted: false, rejectReason: 'REJECT_REASON_RATE_LIMITED', deniedStatus: 429, waitMs: 1500.25,
    limiters: [accepted(0), { kind: TEST_KINDS.rate_limiter, identity: id(1), result: { accepted: false, waitMs: 1500.25, tokens: 1, label: 'alice', remaining: 0, current: 0 } }],
  }),
  'a scheduler rejects, a sampler rejects, a key is not found': decision({
    accepted: false, rejectReason: 'REJECT_REASON_NO_TOKENS', deniedStatus: 503,
    limiters: [
      { kind: TEST_KINDS.scheduler, identity: id(2), result: { accepted: false, waitMs: 0, workloadIndex: '1', priority: 50, tokens: 3, remaining: -2, current: 1 } },
      { kind: TEST_KINDS.sampler, identity: id(3), result: { accepted: false, waitMs: 0, label: 'gold' } },
      { kind: TEST_KINDS.rate_limiter, identity: id(4), result: { accepted: true, waitMs: 0, keyNotFound: true } },
    ],
  }),
  'a sampler rejects': decision({ accepted: false, rejectReason: 'REJECT_REASON_REGULATED', deniedStatus: 403, limiters: [{ kind: TEST_KINDS.sampler, identity: id(5), result: { accepted: false, waitMs: 0, label: '' } }] }),
  'classifiers and flux meters': decision({
    classifiers: [{ policy_name: 'c', policy_hash: 'ch', classifier_index: 0, failed: false }, { policy_name: 'c', policy_hash: 'ch', classifier_index: 1, failed: true }],
    fluxMeters: ['fm-a', 'fm-b'], services: [], labels: {},
  }),
};

for (const [name, d] of Object.entries(CASES)) {
  test(`Check answer in wire shape reads back as the full message (${name}), the first time and again`, () => {
    for (const expectEnd of [false, true, false]) {
      const full = toCheckResponse(d, expectEnd);
      const wire = checkResponseWire(d, expectEnd);
      assert.equal(wire.limiter_decisions?.length, d.limiters.length);
      const lean = check.responseDeserialize(encodeCheckResponse(wire));
      assert.deepEqual(lean, check.responseDeserialize(check.responseSerialize(full)));
      assert.equal((lean as { expect_end: boolean }).expect_end, expectEnd);
      const spliced = check.responseDeserialize(Buffer.from(encodeCheckAnswer(checkAnswer(d, expectEnd))));
      assert.deepEqual(spliced, lean, 'decisions written behind the rest read back the same');
    }
  });
}

test('Check answers with decisions written behind the rest, answer after answer: labels, heads and kinds change, each reads back as the full message', () => {
  const identities = [id(300), id(301), id(302)];
  const labels = ['alice', 'bob', 'ü-€-😀', '', 'x'.repeat(300)];
  let views = 0;
  let previous: Buffer | undefined;
  for (let i = 0; i < 40; i++) {
    const label = labels[i % labels.length];
    const rejectedBy = i % 7 === 3 ? 1 : -1;
    const limiters: LimiterRecord[] = identities.map((identity, j): LimiterRecord => {
      if (j === 2 && i % 4 === 1) return { kind: TEST_KINDS.sampler, identity, result: { accepted: true, waitMs: 0, label } };
      if (j === 2 && i % 4 === 2) return { kind: TEST_KINDS.rate_limiter, identity, result: { accepted: true, waitMs: 0, keyNotFound: true } };
      const rejected = j === rejectedBy;
      return { kind: TEST_KINDS.rate_limiter, identity, result: { accepted: !rejected, waitMs: rejected ? 250 * i : 0, tokens: rejected ? 0 : 1 + j, label, remaining: 100 - i, current: 101 - i + j / 4 } };
    });
    const d = decision(rejectedBy < 0 ? { limiters } : { limiters, accepted: false, rejectReason: 'REJECT_REASON_RATE_LIMITED', deniedStatus: 429, waitMs: 250 * i });
    const bytes = encodeCheckAnswer(checkAnswer(d));
    if (previous !== undefined && bytes.buffer === previous.buffer && bytes.byteOffset === previous.byteOffset) views++;
    assert.deepEqual(check.responseDeserialize(Buffer.from(bytes)), check.responseDeserialize(check.responseSerialize(toCheckResponse(d))), `answer ${i}`);
    previous = bytes;
  }
  assert.ok(views > 30, 'answers with decisions are written where the previous one was (a caller that keeps one copies it)');
  const none = encodeCheckAnswer(checkAnswer(decision()));
  assert.deepEqual(none, encodeCheckResponse(checkResponseWire(decision())), 'no decisions: the response as encodeCheckResponse writes it');
});

test('the wire shape names rejections by their numbers in check.proto', () => {
  const w = checkResponseWire(decision({
    accepted: false, rejectReason: 'REJECT_REASON_RATE_LIMITED', deniedStatus: 429, waitMs: 1500.25,
    limiters: [accepted(30), { kind: TEST_KINDS.rate_limiter, identity: id(31), result: { accepted: false, waitMs: 1500.25, tokens: 1, label: 'alice', remaining: 0, current: 0 } }],
  }));
  assert.equal(w.decision_type, 1);
  assert.equal(w.reject_reason, 1);
  assert.equal(w.denied_response_status_code, 429);
  const limiter = messageType('aperture.flowcontrol.check.v1.LimiterDecision');
  const [first, second] = (w.limiter_decisions ?? []).map((b) => limiter.toObject(limiter.decode(b)));
  assert.equal(second?.dropped, true);
  assert.equal(second?.denied_response_status_code, 429);
  assert.equal(Object.hasOwn(first ?? {}, 'dropped'), false, 'a default is not written');
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

test('a limiter\'s decisions: the same one is the same bytes; each change reads back as changed', () => {
  const identity = id(9);
  const rec = (remaining: number, over: Partial<LimiterRecord['result']> = {}, kind: LimiterRecord['kind'] = TEST_KINDS.rate_limiter): LimiterRecord =>
    ({ kind, identity, result: { accepted: true, waitMs: 0, tokens: 1, label: 'alice', remaining, current: remaining + 1, workloadIndex: '0', priority: 1, ...over } });
  const limiter = messageType('aperture.flowcontrol.check.v1.LimiterDecision');
  const decode = (b: Uint8Array) => limiter.toObject(limiter.decode(b), { defaults: true, enums: String, longs: Number });
  const first = limiterDecisionBytes(rec(5));
  assert.equal(limiterDecisionBytes(rec(5)), first, 'the same decision again: the same bytes');
  assert.deepEqual(decode(limiterDecisionBytes(rec(4))).rate_limiter_info.tokens_info, { remaining: 4, current: 5, consumed: 1 });
  assert.equal(decode(limiterDecisionBytes(rec(4, { label: 'bob' }))).rate_limiter_info.label, 'bob');
  identity.policy_hash = 'new-hash';
  assert.equal(decode(limiterDecisionBytes(rec(4))).policy_hash, 'new-hash', 'a policy hash changed in place');
  const rejected = decode(limiterDecisionBytes(rec(4, { accepted: false, waitMs: 1500 })));
  assert.equal(rejected.dropped, true);
  assert.equal(rejected.denied_response_status_code, 'TooManyRequests');
  assert.deepEqual(rejected.wait_time, { seconds: 1, nanos: 500_000_000 });
  const waitedLess = decode(limiterDecisionBytes(rec(4, { accepted: false, waitMs: 250 })));
  assert.deepEqual(waitedLess.wait_time, { seconds: 0, nanos: 250_000_000 }, 'another wait is another head');
  assert.equal(decode(limiterDecisionBytes(rec(4))).dropped, false, 'accepted again');
  assert.equal(decode(limiterDecisionBytes(rec(4, { keyNotFound: true }))).reason, 'LIMITER_REASON_KEY_NOT_FOUND');
  const sampler = decode(limiterDecisionBytes(rec(4, { accepted: false }, TEST_KINDS.sampler)));
  assert.equal(sampler.denied_response_status_code, 'Forbidden', 'another kind');
  assert.deepEqual(sampler.sampler_info, { label: 'alice' });
  assert.equal(sampler.rate_limiter_info, undefined);
  const scheduler = decode(limiterDecisionBytes(rec(4, { workloadIndex: '2', priority: 50 }, TEST_KINDS.scheduler)));
  assert.deepEqual(scheduler.load_scheduler_info, { workload_index: '2', tokens_info: { remaining: 4, current: 5, consumed: 1 }, priority: 50 });
});

test('a rate limiter\'s decision written in one buffer is the bytes protobufjs writes of it', () => {
  const encode = wireSerializer('aperture.flowcontrol.check.v1.LimiterDecision');
  const labels = ['alice', '', 'ü-€-😀', 'x'.repeat(300)];
  const counts: Array<[number, number, number]> = [[1e12 - 1, 1e12, 1], [0, 0, 0], [0.25, -3, 2.5], [Number.MAX_VALUE, Number.MIN_VALUE, 7]];
  let n = 0;
  for (const label of labels) {
    for (const [remaining, current, tokens] of counts) {
      for (const accepted of [true, false]) {
        const identity = id(100 + n++);
        const waitMs = accepted ? 0 : 1250;
        const rec: LimiterRecord = { kind: TEST_KINDS.rate_limiter, identity, result: { accepted, waitMs, tokens, label, remaining, current } };
        const expected = encode({
          ...identity, dropped: accepted ? undefined : true, denied_response_status_code: accepted ? undefined : 429,
          wait_time: accepted ? {} : { seconds: 1, nanos: 250_000_000 },
          rate_limiter_info: { label, tokens_info: { remaining, current, consumed: tokens } },
        });
        assert.deepEqual(limiterDecisionBytes(rec), expected, `${label.slice(0, 10)} ${remaining} ${accepted}`);
        const again: LimiterRecord = { ...rec, result: { ...rec.result, remaining: remaining + 1 } };
        const expectedAgain = limiter.decode(limiterDecisionBytes(again));
        assert.equal(limiter.toObject(expectedAgain).rate_limiter_info.tokens_info.remaining, remaining + 1, 'the kept head with new counts');
      }
    }
  }
  const keyNotFound = limiterDecisionBytes({ kind: TEST_KINDS.rate_limiter, identity: id(99), result: { accepted: true, waitMs: 0, keyNotFound: true } });
  assert.deepEqual(limiter.toObject(limiter.decode(keyNotFound), { defaults: true }).rate_limiter_info, { label: '', tokens_info: { remaining: 0, current: 0, consumed: 0 } }, 'absent counts: the general path, as the full message has them');
});

test('a rate limiter\'s kept prefix follows its label: each decision is the bytes protobufjs writes of it', () => {
  const encode = wireSerializer('aperture.flowcontrol.check.v1.LimiterDecision');
  const identity = id(200);
  const labels = ['alice', 'alice', 'bob', 'ü-€-😀', '', 'x'.repeat(300), 'alice'];
  labels.forEach((label, i) => {
    const result = { accepted: true, waitMs: 0, tokens: 1, label, remaining: 10 - i, current: 11 - i };
    const expected = encode({ ...identity, wait_time: {}, rate_limiter_info: { label, tokens_info: { remaining: 10 - i, current: 11 - i, consumed: 1 } } });
    assert.deepEqual(limiterDecisionBytes({ kind: TEST_KINDS.rate_limiter, identity, result }), expected, `decision ${i} (label ${label.slice(0, 10)})`);
  });
});

const limiter = messageType('aperture.flowcontrol.check.v1.LimiterDecision');

test('a counted decision of every counted kind (rate limiter, scheduler, quota scheduler) is the bytes protobufjs writes of it', () => {
  const encode = wireSerializer('aperture.flowcontrol.check.v1.LimiterDecision');
  const kinds = [TEST_KINDS.rate_limiter, TEST_KINDS.scheduler, TEST_KINDS.quota_scheduler];
  const labels = ['alice', '', 'ü-€-😀', 'x'.repeat(300), undefined];
  const workloads = ['0', 'default', '', undefined];
  const priorities = [100, 0, 0.5, undefined];
  let n = 0;
  for (const kind of kinds) {
    const identity = id(300 + n++);
    // one identity through every combination: the kept prefix follows what changes, each decision is its own bytes
    for (const label of labels) {
      for (const workloadIndex of workloads) {
        for (const priority of priorities) {
          for (const [remaining, current, tokens] of [[1e12 - n, 1e12, 1], [0, 0, 0], [-3, Number.MAX_VALUE, 2.5]]) {
            const result = { accepted: true, waitMs: 0, tokens, remaining, current, label, workloadIndex, priority };
            const expected = encode({ ...identity, wait_time: {}, [kind.details.field]: kind.details.wire(result) });
            assert.deepEqual(limiterDecisionBytes({ kind, identity, result }), expected, `${kind.name} ${label?.slice(0, 10)} ${workloadIndex} ${priority} ${remaining}`);
          }
        }
      }
    }
    const rejected = { accepted: false, waitMs: 1250, tokens: 0, label: 'alice', workloadIndex: '0', priority: 100 };
    const expected = encode({
      ...identity, dropped: true, denied_response_status_code: kind.deniedStatus === 429 ? 429 : 503, wait_time: { seconds: 1, nanos: 250_000_000 },
      [kind.details.field]: kind.details.wire(rejected),
    });
    assert.deepEqual(limiterDecisionBytes({ kind, identity, result: rejected }), expected, `${kind.name}: no counts, the general path`);
  }
});
