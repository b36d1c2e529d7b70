import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Engine, type LimiterResult } from '@sluice/flowcontrol';
import { epochNowMs, LocalTokenBucketStore, type TakeResult, type TokenBucketStore } from '@sluice/tokenbucket';
import { ManualClock } from './manual-clock.js';
import { QuotaScheduler } from './quota-scheduler.js';

const identity = { policy_name: 'p', policy_hash: 'h', component_id: 'root.0' };
const parameters = { workloads: [{ name: 'gold', label_matcher: { match_labels: { tier: 'gold' } }, parameters: { priority: 100 } }] };

/** A local store that remembers the time of every take. */
class TimedStore implements TokenBucketStore {
  readonly at: number[] = [];
  private readonly inner = new LocalTokenBucketStore({ capacity: 100, fillAmount: 100, intervalMs: 1000, continuousFill: true });
  take(key: string, tokens: number, nowMs: number): TakeResult {
    this.at.push(nowMs);
    return this.inner.take(key, tokens, nowMs);
  }
  giveBack(key: string, tokens: number, nowMs: number): void { this.inner.giveBack(key, tokens, nowMs); }
  setParams(p: Parameters<TokenBucketStore['setParams']>[0]): void { this.inner.setParams(p); }
}

test('on the real clock, a quota scheduler takes at the check\'s reading of it (the engine runs on it too)', () => {
  const store = new TimedStore();
  const s = new QuotaScheduler({ identity, parameters, store, passThrough: false });
  const engine = new Engine();
  engine.register(s, { control_point: 'cp' });
  const before = epochNowMs();
  const d = engine.check({ controlPoint: 'cp', services: [], labels: { tier: 'gold' } });
  assert.ok(!(d instanceof Promise));
  assert.equal(d.accepted, true);
  assert.equal(store.at.length, 1);
  assert.equal(store.at[0], d.startMs, 'the take is at the check\'s start');
  assert.ok(store.at[0] >= before);
});

test('on its own clock, or beside an engine on another clock, a quota scheduler reads its own clock', () => {
  const clock = new ManualClock(5000);
  const own = new TimedStore();
  const s = new QuotaScheduler({ identity, parameters, store: own, clock, passThrough: false });
  const r = s.decide({ tier: 'gold' }, { nowMs: 123, deadlineMs: undefined, realTime: true }) as LimiterResult;
  assert.equal(r.accepted, true);
  assert.deepEqual(own.at, [5000], 'an injected clock wins over the check\'s reading');

  const real = new TimedStore();
  const engine = new Engine({ now: () => 42 }); // a simulated clock (the what-if sandbox's)
  engine.register(new QuotaScheduler({ identity, parameters, store: real, passThrough: false }), { control_point: 'cp' });
  const before = epochNowMs();
  engine.check({ controlPoint: 'cp', services: [], labels: { tier: 'gold' } });
  assert.equal(real.at.length, 1);
  assert.ok(real.at[0] >= before, `took at ${real.at[0]}: the real clock, not the engine's simulated 42`);
});
