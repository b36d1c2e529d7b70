import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Engine } from '../check/engine.js';
import { Sampler, SAMPLER_KIND, stickyPoint } from './sampler.js';

const identity = { policy_name: 'p', policy_hash: 'h', component_id: 'root.0' };
const ctx = { nowMs: 0, deadlineMs: undefined };

test('a sampler lets every flow through until its first decision, then follows it', () => {
  const s = new Sampler({ identity });
  for (let i = 0; i < 100; i++) assert.equal(s.decide({}).accepted, true);
  s.setDecision({ accept_percentage: 0, pass_through: false });
  for (let i = 0; i < 100; i++) assert.equal(s.decide({}).accepted, false);
  s.setDecision({ accept_percentage: 0, pass_through: true });
  assert.equal(s.decide({}).accepted, true, 'pass_through wins over the percentage');
  s.setDecision({ accept_percentage: 100, pass_through: false });
  assert.equal(s.decide({}).accepted, true);
});

test('a sampler at 50% without a label accepts 10 000 random flows within ±3%', () => {
  const s = new Sampler({ identity, decision: { accept_percentage: 50, pass_through: false } });
  let accepted = 0;
  for (let i = 0; i < 10_000; i++) if (s.decide({}, ctx).accepted) accepted++;
  // binomial(10 000, 0.5): sd 50, so ±300 is six standard deviations
  assert.ok(Math.abs(accepted - 5000) <= 300, `accepted ${accepted} of 10 000`);
});

test('with a label key, acceptance is sticky per value and about the percentage over many values', () => {
  const s = new Sampler({ identity, labelKey: 'user', decision: { accept_percentage: 50, pass_through: false } });
  let acceptedValues = 0;
  for (let v = 0; v < 10_000; v++) {
    const labels = { user: `user-${v}` };
    const first = s.decide(labels, ctx).accepted;
    for (let k = 0; k < 3; k++) assert.equal(s.decide(labels, ctx).accepted, first, 'the same value gets the same answer');
    if (first) acceptedValues++;
  }
  assert.ok(Math.abs(acceptedValues - 5000) <= 300, `accepted ${acceptedValues} of 10 000 values`);
  // a second sampler (another agent) agrees value by value
  const other = new Sampler({ identity, labelKey: 'user', decision: { accept_percentage: 50, pass_through: false } });
  for (let v = 0; v < 200; v++) assert.equal(other.decide({ user: `user-${v}` }, ctx).accepted, s.decide({ user: `user-${v}` }, ctx).accepted);
  // raising the percentage keeps the values already accepted
  const accepted50 = Array.from({ length: 500 }, (_, v) => `user-${v}`).filter((u) => stickyPoint(u) < 50);
  s.setDecision({ accept_percentage: 80, pass_through: false });
  for (const u of accepted50) assert.equal(s.decide({ user: u }, ctx).accepted, true);
});

test('pass_through_label_values are always accepted; a flow without the label is drawn at random', () => {
  const draws: number[] = [];
  const s = new Sampler({
    identity, labelKey: 'tier', passThroughLabelValues: ['gold'], decision: { accept_percentage: 0, pass_through: false },
    random: () => { draws.push(1); return 0.5; },
  });
  assert.equal(s.decide({ tier: 'gold' }, ctx).accepted, true);
  assert.equal(s.decide({ tier: 'silver' }, ctx).accepted, false);
  assert.equal(s.decide({}, ctx).accepted, false);
  assert.equal(draws.length, 1, 'only the flow without the label was drawn');
  assert.equal(s.decide({ tier: 'silver' }, ctx).label, 'silver');
});

test('a bad accept_percentage is refused and changes nothing', () => {
  const s = new Sampler({ identity, decision: { accept_percentage: 30, pass_through: false } });
  for (const bad of [-1, 100.5, Number.NaN, Infinity, '50' as unknown as number]) {
    assert.throws(() => s.setDecision({ accept_percentage: bad, pass_through: false }), RangeError);
  }
  assert.deepEqual(s.decision(), { accept_percentage: 30, pass_through: false });
  assert.throws(() => new Sampler({ identity, decision: { accept_percentage: 101, pass_through: false } }), RangeError);
});

test('in the engine a sampler rejects with 403, REGULATED, before the rate limiters run', () => {
  const engine = new Engine();
  const s = new Sampler({ identity, decision: { accept_percentage: 0, pass_through: false } });
  engine.register(s, { control_point: 'cp' });
  const d = engine.check({ controlPoint: 'cp', labels: {}, services: [] });
  assert.ok(!(d instanceof Promise));
  assert.equal(d.accepted, false);
  assert.equal(d.deniedStatus, 403);
  assert.equal(d.rejectReason, 'REJECT_REASON_REGULATED');
  assert.equal(d.limiters[0].kind, SAMPLER_KIND);
  s.setDecision({ accept_percentage: 100, pass_through: false });
  const d2 = engine.check({ controlPoint: 'cp', labels: {}, services: [] });
  assert.ok(!(d2 instanceof Promise) && d2.accepted, 'a new decision applies without registering again');
});
