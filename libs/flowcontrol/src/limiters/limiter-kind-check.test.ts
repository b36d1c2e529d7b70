import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { LimiterKind } from '../check/component.js';
import { checkLimiterKind } from './limiter-kind-check.js';
import { RATE_LIMITER_KIND } from './rate-limiter.js';
import { SAMPLER_KIND } from './sampler.js';
import { TEST_KINDS } from '../testing/test-support.js';

test('the engine\'s kinds have every piece: reject reason, status, group and details the wire encoder writes and reads back', () => {
  for (const kind of [RATE_LIMITER_KIND, SAMPLER_KIND, TEST_KINDS.scheduler]) assert.doesNotThrow(() => checkLimiterKind(kind), kind.name);
});

test('a kind missing a piece, or whose pieces disagree with check.proto, is refused naming the piece', () => {
  const with_ = (over: Partial<LimiterKind>): LimiterKind => ({ ...RATE_LIMITER_KIND, ...over });
  const d = RATE_LIMITER_KIND.details;
  assert.throws(() => checkLimiterKind(with_({ rejectReason: 'REJECT_REASON_NONE' })), /"rate_limiter": rejectReason must be a RejectReason of check\.proto other than NONE/);
  assert.throws(() => checkLimiterKind(with_({ rejectReason: 'REJECT_REASON_SOMETHING' as LimiterKind['rejectReason'] })), /rejectReason/);
  assert.throws(() => checkLimiterKind(with_({ deniedStatus: 500 as LimiterKind['deniedStatus'] })), /deniedStatus must be one of 403, 429, 503, got 500/);
  assert.throws(() => checkLimiterKind(with_({ group: -1 })), /group must be an integer >= 0/);
  assert.throws(() => checkLimiterKind(with_({ counter: 'quota' as LimiterKind['counter'] })), /counter must be one of rate_limiter, sampler, workload, got "quota"/);
  assert.throws(() => checkLimiterKind(with_({ details: undefined as unknown as LimiterKind['details'] })), /details are missing/);
  assert.throws(() => checkLimiterKind(with_({ details: { ...d, field: 'wait_time' as typeof d.field } })), /details\.field "wait_time" is not a member of LimiterDecision's details oneof/);
  assert.throws(() => checkLimiterKind(with_({ details: { ...d, message: 'SchedulerInfo' } })), /details\.message "SchedulerInfo" is not the type of rate_limiter_info \(RateLimiterInfo\)/);
  // Its output (what a client decodes) says a label the wire encoder does not write.
  assert.throws(() => checkLimiterKind(with_({ details: { ...d, output: (r) => ({ rate_limiter_info: { label: 'other', tokens_info: { remaining: r.remaining ?? 0, current: r.current ?? 0, consumed: r.tokens ?? 0 } } }) } })),
    /details read back as .* \(wire and output disagree\)/);
});
