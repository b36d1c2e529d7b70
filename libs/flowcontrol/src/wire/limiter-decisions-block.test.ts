import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serviceClient } from '@sluice/proto';
import { checkAnswer, encodeCheckAnswer } from './check-response-wire.js';
import { toCheckResponse } from './check-response.js';
import type { CheckDecision, LimiterRecord } from '../check/decision.js';
import { TEST_KINDS } from '../testing/test-support.js';
import { decisionsBlockFor } from './limiter-decisions-block.js';

const check = serviceClient('flowControl').service.Check;

function decision(limiters: LimiterRecord[], over: Partial<CheckDecision> = {}): CheckDecision {
  return {
    controlPoint: 'cp', services: ['svc'], labels: { user: 'alice' }, addedLabels: undefined, startMs: 1_700_000_000_000, endMs: 1_700_000_000_001,
    accepted: true, rejectReason: 'REJECT_REASON_NONE', deniedStatus: 0, waitMs: 0, limiters, classifiers: [], fluxMeters: [], ...over,
  };
}

/** The answer as encodeCheckAnswer writes it, read back, beside the full message's. */
function assertReadsBack(d: CheckDecision, what: string): void {
  const bytes = Buffer.from(encodeCheckAnswer(checkAnswer(d)));
  assert.deepEqual(check.responseDeserialize(bytes), check.responseDeserialize(check.responseSerialize(toCheckResponse(d))), what);
}

test('answers of the same limiters that differ only in counts are written from one kept block; every change of the rest reads back', () => {
  const ids = Array.from({ length: 4 }, (_, i) => ({ policy_name: `block-${i}`, policy_hash: 'h'.repeat(64), component_id: `root.${i}` }));
  let n = 0;
  const records = (over: Partial<LimiterRecord['result']> = {}, at = -1): LimiterRecord[] => ids.map((identity, i) => {
    n++;
    return { kind: TEST_KINDS.rate_limiter, identity, result: { accepted: true, waitMs: 0, tokens: 1 + i, label: 'alice', remaining: 1e12 - n + 0.25, current: 1e12 - n + 1.5, ...(i === at ? over : {}) } };
  });
  assertReadsBack(decision(records()), 'first answer');
  assert.ok(decisionsBlockFor(records()) !== undefined, 'kept after the first answer');
  for (let k = 0; k < 20; k++) assertReadsBack(decision(records()), `answer ${k} from the block`);
  assertReadsBack(decision(records({ label: 'bob' }, 2)), 'one label changed');
  assertReadsBack(decision(records({ accepted: false, waitMs: 1500, tokens: 0 }, 1), { accepted: false, rejectReason: 'REJECT_REASON_RATE_LIMITED', deniedStatus: 429, waitMs: 1500 }), 'one rejects');
  assertReadsBack(decision(records({ accepted: false, waitMs: 1500, tokens: 0 }, 1), { accepted: false, rejectReason: 'REJECT_REASON_RATE_LIMITED', deniedStatus: 429, waitMs: 1500 }), 'rejects again (its block)');
  assertReadsBack(decision(records({ accepted: false, waitMs: 750, tokens: 0 }, 1), { accepted: false, rejectReason: 'REJECT_REASON_RATE_LIMITED', deniedStatus: 429, waitMs: 750 }), 'another wait');
  ids[3].policy_hash = 'changed-in-place';
  assertReadsBack(decision(records()), 'a policy hash changed in place');
  assertReadsBack(decision(records({ keyNotFound: true, label: undefined, remaining: undefined, current: undefined, tokens: undefined }, 0)), 'a key not found');
  assertReadsBack(decision(records().slice(0, 3)), 'fewer limiters');
  assertReadsBack(decision([...records(), { kind: TEST_KINDS.sampler, identity: { policy_name: 's', policy_hash: 'sh', component_id: 'root.9' }, result: { accepted: true, waitMs: 0, label: 'x' } }]), 'another kind behind');
  for (let k = 0; k < 3; k++) assertReadsBack(decision(records()), `the first four again ${k}`);
  assertReadsBack(decision(records({ remaining: -0, current: Number.MAX_VALUE, tokens: Number.MIN_VALUE }, 0)), 'edge doubles');
});

test('a label that changes on every flow: each answer reads back, and the block comes back once the label stays', () => {
  const ids = Array.from({ length: 3 }, (_, i) => ({ policy_name: `churn-${i}`, policy_hash: 'c', component_id: `root.${i}` }));
  const records = (label: string, n: number): LimiterRecord[] => ids.map((identity) => ({ kind: TEST_KINDS.rate_limiter, identity, result: { accepted: true, waitMs: 0, tokens: 1, label, remaining: n, current: n + 1 } }));
  for (let n = 0; n < 300; n++) assertReadsBack(decision(records(`user-${n}-${'x'.repeat(n % 150)}`, n)), `label ${n}`);
  for (let n = 0; n < 130; n++) assertReadsBack(decision(records('steady', n)), `steady ${n}`);
  assert.ok(decisionsBlockFor(records('steady', 1)) !== undefined, 'made again within 64 answers of a steady label');
  assert.equal(decisionsBlockFor(records('other', 1)), undefined, 'another label does not fit');
});

test('answers of rate limiters and quota schedulers are written from one kept block; a workload or priority that changes reads back', () => {
  const ids = Array.from({ length: 10 }, (_, i) => ({ policy_name: `mixed-${i}`, policy_hash: 'm', component_id: `root.${i}` }));
  let n = 0;
  const records = (over: Partial<LimiterRecord['result']> = {}, at = -1): LimiterRecord[] => ids.map((identity, i) => {
    n++;
    const quota = i >= 7;
    const result = { accepted: true, waitMs: 0, tokens: 1, label: 'alice', remaining: 1e12 - n, current: 1e12 - n + 1, ...(quota ? { workloadIndex: '0', priority: 100 } : {}) };
    return { kind: quota ? TEST_KINDS.quota_scheduler : TEST_KINDS.rate_limiter, identity, result: { ...result, ...(i === at ? over : {}) } };
  });
  assertReadsBack(decision(records()), 'first answer');
  assert.ok(decisionsBlockFor(records()) !== undefined, 'kept after the first answer');
  for (let k = 0; k < 10; k++) assertReadsBack(decision(records()), `answer ${k} from the block`);
  assert.equal(decisionsBlockFor(records({ workloadIndex: 'default' }, 8)), undefined, 'another workload does not fit');
  assertReadsBack(decision(records({ workloadIndex: 'default' }, 8)), 'a workload changed');
  assertReadsBack(decision(records({ priority: 0 }, 9)), 'a priority changed');
  assertReadsBack(decision(records({ priority: undefined }, 9)), 'no priority');
  assertReadsBack(decision(records({ priority: undefined }, 9)), 'no priority (its block)');
  assertReadsBack(decision(records({ accepted: false, waitMs: 20, tokens: 0, remaining: undefined, current: undefined }, 7), {
    accepted: false, rejectReason: 'REJECT_REASON_NO_TOKENS', deniedStatus: 503, waitMs: 20,
  }), 'a quota scheduler rejects');
  for (let k = 0; k < 3; k++) assertReadsBack(decision(records()), `as before ${k}`);
  assert.ok(decisionsBlockFor(records()) !== undefined, 'kept again');
});
