import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type LimiterResult } from '@sluice/flowcontrol';
import { LocalTokenBucketStore } from '@sluice/tokenbucket';
import { ManualClock } from './manual-clock.js';
import { QUOTA_SCHEDULER_KIND, QuotaScheduler } from './quota-scheduler.js';

const identity = { policy_name: 'p', policy_hash: 'h', component_id: 'root.0' };
const parameters = {
  workloads: [
    { name: 'gold', label_matcher: { match_labels: { tier: 'gold' } }, parameters: { priority: 100 } },
    { name: 'slow', label_matcher: { match_labels: { tier: 'slow' } }, parameters: { priority: 50, queue_timeout_ms: 100 } },
  ],
  default_workload_parameters: { priority: 1 },
};

function quota(clock: ManualClock, capacity = 2, labelKey?: string) {
  const store = new LocalTokenBucketStore({ capacity, fillAmount: capacity, intervalMs: 1000, continuousFill: false });
  const s = new QuotaScheduler({ identity, parameters, store, clock, maxWaitMs: 5000, passThrough: false, ...(labelKey ? { labelKey } : {}) });
  return { s, store };
}

const ctx = (clock: ManualClock) => ({ nowMs: clock.now(), deadlineMs: undefined });

test('a quota of 2 per interval: two flows pass at once, the next wait for the refill and leave by priority', async () => {
  const clock = new ManualClock();
  const { s } = quota(clock);
  assert.equal(s.kind, QUOTA_SCHEDULER_KIND);
  for (let i = 0; i < 2; i++) {
    const r = s.decide({ tier: 'bulk' }, ctx(clock)) as LimiterResult;
    assert.equal(r.accepted, true);
    assert.equal(r.tokens, 1);
    assert.equal(r.label, 'default');
  }
  const order: string[] = [];
  const wait = (tier: string) => Promise.resolve(s.decide({ tier }, ctx(clock))).then((r) => { order.push(`${tier}:${r.accepted}`); return r; });
  const bulk1 = wait('bulk');
  const bulk2 = wait('bulk');
  const gold = wait('gold');
  await clock.run(0);
  assert.equal(s.waiting(), 3, 'three wait: the quota is spent');
  assert.deepEqual(order, []);
  await clock.run(1000);
  await Promise.all([gold, bulk1]);
  assert.deepEqual(order, ['gold:true', 'bulk:true'], 'the refill of 2 goes to the higher priority first, then the first bulk flow');
  assert.equal(s.waiting(), 1);
  await clock.run(1000);
  assert.equal((await bulk2).accepted, true);
  assert.ok((await gold).waitMs >= 1000, 'it waited for the refill');
  assert.equal((await gold).priority, 100);
  s.shutdown();
});

test('a flow waits at most its queue timeout, then is turned away; shutdown turns the waiting ones away', async () => {
  const clock = new ManualClock();
  const { s } = quota(clock, 1);
  assert.equal((s.decide({ tier: 'bulk' }, ctx(clock)) as LimiterResult).accepted, true);
  const slow = Promise.resolve(s.decide({ tier: 'slow' }, ctx(clock)));
  const bulk = Promise.resolve(s.decide({ tier: 'bulk' }, ctx(clock)));
  await clock.run(150);
  const r = await slow;
  assert.equal(s.waiting(), 1, 'the bulk flow still waits for the refill');
  assert.equal(r.accepted, false);
  assert.ok(r.waitMs >= 1);
  assert.equal(s.waiting(), 1);
  s.shutdown();
  assert.equal((await bulk).accepted, false);
  assert.equal((s.decide({}, ctx(clock)) as LimiterResult).accepted, true, 'after shutdown, flows pass');
});

test('pass-through admits everything and releases the waiting; a keyed quota passes flows without the label; revert gives tokens back', async () => {
  const clock = new ManualClock();
  const { s } = quota(clock, 1, 'user');
  assert.equal((s.decide({}, ctx(clock)) as LimiterResult).keyNotFound, true);
  const first = s.decide({ user: 'a' }, ctx(clock)) as LimiterResult;
  assert.equal(first.accepted, true);
  assert.equal(first.label, 'a');
  assert.equal((s.decide({ user: 'b' }, ctx(clock)) as LimiterResult).accepted, true, 'another user has its own bucket');
  s.revert(first);
  assert.equal((s.decide({ user: 'a' }, ctx(clock)) as LimiterResult).accepted, true, 'the token came back');
  const waiting = Promise.resolve(s.decide({ user: 'a' }, ctx(clock)));
  await clock.run(0);
  assert.equal(s.waiting(), 1);
  s.setPassThrough(true);
  assert.equal((await waiting).accepted, true);
  assert.equal((s.decide({ user: 'a' }, ctx(clock)) as LimiterResult).accepted, true);
  s.shutdown();
});
