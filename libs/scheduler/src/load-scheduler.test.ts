import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Registry } from 'prom-client';
import { InvalidArgumentError } from '@sluice/errors';
import type { LimiterResult } from '@sluice/flowcontrol';
import { LoadScheduler, type LoadSchedulerOptions, type SchedulerDecideContext } from './load-scheduler.js';
import { ManualClock } from './manual-clock.js';
import { schedulerMetrics } from './metrics.js';

const identity = { policy_name: 'p', policy_hash: 'h', component_id: 'root.0' };

const PARAMS = {
  workloads: [
    { name: 'gold', label_matcher: { match_labels: { tier: 'gold' } }, parameters: { priority: 200, tokens: 1, queue_timeout_ms: 5000 } },
    { name: 'free', label_matcher: { match_labels: { tier: 'free' } }, parameters: { priority: 50, tokens: 1, queue_timeout_ms: 5000 } },
  ],
  default_workload_parameters: { priority: 1, tokens: 1, queue_timeout_ms: 0 },
};

function make(clock: ManualClock, extra: Partial<LoadSchedulerOptions> = {}): LoadScheduler {
  return new LoadScheduler({ identity, parameters: PARAMS, clock, windowMs: 1000, maxWaitMs: 10_000, ...extra });
}

function ctx(clock: ManualClock, more: Partial<SchedulerDecideContext> = {}): SchedulerDecideContext {
  return { nowMs: clock.now(), deadlineMs: undefined, ...more };
}

/** Decide and keep the outcome (and when it came) of a flow that may wait. */
function track(s: LoadScheduler, clock: ManualClock, labels: Record<string, string>, c: Partial<SchedulerDecideContext> = {}) {
  const out: { result?: LimiterResult; at?: number } = {};
  const r = s.decide(labels, ctx(clock, c));
  if (r instanceof Promise) {
    void r.then((res) => {
      out.result = res;
      out.at = clock.now();
    });
  } else {
    out.result = r;
    out.at = clock.now();
  }
  return out;
}

/** Warm the rate, apply a multiplier and spend the pacer's balance, so the next flows wait. */
function busy(s: LoadScheduler, clock: ManualClock, multiplier = 2): void {
  warm(s, clock, 10);
  s.setDecision({ load_multiplier: multiplier, pass_through: false });
  const first = s.decide({ tier: 'gold' }, ctx(clock)) as LimiterResult;
  assert.equal(first.accepted, true);
}

/** Stop admitting (rate 0): queued flows wait for their timeout, deadline or cancellation. */
function freeze(s: LoadScheduler): void {
  s.setDecision({ load_multiplier: 0, pass_through: false });
}

async function flush(): Promise<void> {
  for (let i = 0; i < 5; i++) await Promise.resolve();
}

/** Load the scheduler's incoming rate: `n` flows at t=0 go through in pass-through. */
function warm(s: LoadScheduler, clock: ManualClock, n: number): void {
  for (let i = 0; i < n; i++) s.decide({ tier: 'gold' }, ctx(clock));
}

test('admits every flow before its first decision, naming workload and priority', () => {
  const clock = new ManualClock();
  const s = make(clock);
  for (let i = 0; i < 100; i++) {
    const r = s.decide({ tier: 'free' }, ctx(clock)) as LimiterResult;
    assert.equal(r.accepted, true);
    assert.equal(r.workloadIndex, '1');
    assert.equal(r.priority, 50);
  }
  assert.equal((s.decide({}, ctx(clock)) as LimiterResult).workloadIndex, 'default');
  assert.ok(s.gauges().incomingTokensPerSecond > 0);
  assert.equal(s.gauges().loadMultiplier, 0);
});

test('with a multiplier, waiting flows leave highest priority first', async () => {
  const clock = new ManualClock();
  const s = make(clock);
  warm(s, clock, 100); // ~91 tokens/s incoming
  s.setDecision({ load_multiplier: 0.1, pass_through: false });
  const first = track(s, clock, { tier: 'free' });
  assert.equal(first.result?.accepted, true, 'an idle scheduler admits at once');
  const free = [track(s, clock, { tier: 'free' }), track(s, clock, { tier: 'free' })];
  const gold = [track(s, clock, { tier: 'gold' }), track(s, clock, { tier: 'gold' })];
  assert.equal(s.gauges().queueLength, 4);
  for (let i = 0; i < 40 && s.gauges().queueLength > 0; i++) {
    clock.advance(100);
    await flush();
  }
  assert.equal(s.gauges().queueLength, 0);
  for (const f of [...free, ...gold]) assert.equal(f.result?.accepted, true);
  assert.ok((gold[0].at as number) < (free[0].at as number) && (gold[1].at as number) < (free[0].at as number), 'gold before free');
  assert.ok((free[0].result?.waitMs as number) > 0, 'waited flows report their wait');
});

test('a flow waits at most its queue_timeout, then 503 with a wait time', async () => {
  const clock = new ManualClock();
  const p = { ...PARAMS, workloads: [{ ...PARAMS.workloads[0], parameters: { priority: 1, tokens: 1, queue_timeout_ms: 100 } }] };
  const s = new LoadScheduler({ identity, parameters: p, clock, maxWaitMs: 10_000 });
  busy(s, clock);
  const t0 = clock.now();
  const f = track(s, clock, { tier: 'gold' });
  assert.equal(f.result, undefined);
  freeze(s);
  clock.advance(98);
  await flush();
  assert.equal(f.result, undefined, 'still waiting before the timeout');
  clock.advance(2);
  await flush();
  const r = f.result as LimiterResult | undefined;
  assert.equal(r?.accepted, false);
  assert.ok((f.at as number) - t0 <= 100);
  assert.ok((r?.waitMs as number) >= 1);
  assert.equal(clock.pendingTimers, 0, 'no timer left with an empty queue');
});

test('a flow waits at most until the caller\'s deadline less the margin', async () => {
  const clock = new ManualClock();
  const s = make(clock);
  busy(s, clock, 1);
  const t0 = clock.now();
  const f = track(s, clock, { tier: 'gold' }, { deadlineMs: t0 + 250 });
  freeze(s);
  await clock.run(300);
  assert.equal((f.result as LimiterResult | undefined)?.accepted, false);
  assert.ok((f.at as number) <= t0 + 250 - 15, `answered at +${(f.at as number) - t0} ms`);
});

test('no budget to wait: turned away at once (deadline too close, zero timeout, hopeless wait)', () => {
  const clock = new ManualClock();
  const s = make(clock);
  warm(s, clock, 10);
  s.setDecision({ load_multiplier: 0.01, pass_through: false });
  void track(s, clock, { tier: 'gold' }); // takes the pacer's balance
  const near = s.decide({ tier: 'gold' }, ctx(clock, { deadlineMs: clock.now() + 5 }));
  assert.equal((near as LimiterResult).accepted, false);
  const zero = s.decide({ other: 'x' }, ctx(clock));
  assert.equal((zero as LimiterResult).accepted, false, 'default workload has queue_timeout 0');
  assert.equal((zero as LimiterResult).workloadIndex, 'default');
  const hopeless = s.decide({ tier: 'gold' }, ctx(clock, { deadlineMs: clock.now() + 100 }));
  assert.equal((hopeless as LimiterResult).accepted, false, 'a wait estimated past the budget is not queued');
  assert.equal(s.gauges().queueLength, 0);
});

test('a caller that goes away leaves the queue at once', async () => {
  const clock = new ManualClock();
  const s = make(clock);
  busy(s, clock, 1);
  const ac = new AbortController();
  const f = track(s, clock, { tier: 'gold' }, { signal: ac.signal });
  const g = track(s, clock, { tier: 'gold' });
  freeze(s);
  assert.equal(s.gauges().queueLength, 2);
  ac.abort();
  await flush();
  assert.equal(f.result?.accepted, false);
  assert.equal(s.gauges().queueLength, 1);
  const aborted = new AbortController();
  aborted.abort();
  const h = s.decide({ tier: 'gold' }, ctx(clock, { signal: aborted.signal }));
  assert.equal((h as LimiterResult).accepted, false, 'already gone: not queued');
  s.setDecision({ load_multiplier: 1, pass_through: true });
  await flush();
  assert.equal(g.result?.accepted, true, 'pass-through releases the queue');
  assert.equal(s.gauges().queueLength, 0);
});

test('dry run admits everything, never queues, and counts what it would have turned away', async () => {
  const clock = new ManualClock();
  const registry = new Registry();
  const s = new LoadScheduler({ identity, parameters: { ...PARAMS, dry_run: true }, clock, metrics: schedulerMetrics(registry) });
  warm(s, clock, 10);
  s.setDecision({ load_multiplier: 0, pass_through: false });
  for (let i = 0; i < 20; i++) assert.equal((s.decide({ tier: 'free' }, ctx(clock)) as LimiterResult).accepted, true);
  assert.equal(s.gauges().queueLength, 0);
  assert.match(await registry.metrics(), /sluice_scheduler_rejected_flows_total\{[^}]*workload_index="1",reason="dry_run"\} 19/);
});

test('shutdown turns waiting flows away and stops the timer', async () => {
  const clock = new ManualClock();
  const s = make(clock);
  busy(s, clock);
  const f = track(s, clock, { tier: 'free' });
  assert.equal(f.result, undefined);
  s.shutdown();
  await flush();
  assert.equal((f.result as LimiterResult | undefined)?.accepted, false);
  assert.equal(clock.pendingTimers, 0);
});

test('tokens: the tokens label, else the workload\'s, else the estimate from flow durations, else 1', () => {
  const clock = new ManualClock();
  const p = { workloads: [{ name: 'w', parameters: { priority: 1 } }], default_workload_parameters: { priority: 1, tokens: 7 } };
  const s = new LoadScheduler({ identity, parameters: p, clock });
  const w = { index: '0', name: 'w', parameters: { priority: 1 } };
  assert.equal(s.tokensOf({}, w, ctx(clock)), 1);
  s.observeFlowDuration('0', 40);
  assert.equal(s.tokensOf({}, w, ctx(clock)), 40);
  s.observeFlowDuration('0', 80);
  assert.equal(Math.round(s.tokensOf({}, w, ctx(clock))), 42);
  assert.equal(s.tokensOf({ tokens: '3' }, w, ctx(clock)), 3);
  assert.equal(s.tokensOf({ tokens: '3' }, w, ctx(clock, { costLabels: {} })), 42, 'an HTTP client cannot set its cost');
  assert.equal(s.tokensOf({ tokens: 'NaN' }, w, ctx(clock)), 42);
  assert.equal(s.tokensOf({}, { index: 'default', name: 'default', parameters: p.default_workload_parameters }, ctx(clock)), 7);
});

test('workload and priority labels override the matchers', () => {
  const clock = new ManualClock();
  const s = new LoadScheduler({ identity, parameters: { ...PARAMS, workload_label_key: 'wl', priority_label_key: 'prio' }, clock });
  const r = s.decide({ tier: 'gold', wl: 'free' }, ctx(clock)) as LimiterResult;
  assert.equal(r.workloadIndex, '1');
  assert.equal(r.priority, 50);
  assert.equal((s.decide({ tier: 'gold', prio: '7' }, ctx(clock)) as LimiterResult).priority, 7);
  assert.equal((s.decide({ tier: 'gold', prio: '-3' }, ctx(clock)) as LimiterResult).priority, 200, 'a bad priority label is ignored');
});

test('bad parameters are refused naming the member; a bad decision changes nothing', () => {
  const clock = new ManualClock();
  const cases: [unknown, string][] = [
    [null, 'parameters'],
    [{ workloads: 'x' }, 'parameters.workloads'],
    [{ workloads: [{ parameters: { priority: 0 } }] }, 'parameters.workloads[0].parameters.priority'],
    [{ workloads: [{ parameters: { tokens: -1 } }] }, 'parameters.workloads[0].parameters.tokens'],
    [{ workloads: [{ parameters: { queue_timeout_ms: 'x' } }] }, 'parameters.workloads[0].parameters.queue_timeout_ms'],
    [{ workloads: [{ label_matcher: [] }] }, 'parameters.workloads[0].label_matcher'],
    [{ default_workload_parameters: { fairness_key: 3 } }, 'parameters.default_workload_parameters.fairness_key'],
    [{ dry_run: 'yes' }, 'parameters.dry_run'],
    [{ workloads: [{ label_matcher: { match_expressions: [{ key: 'a', operator: 'Nope' }] } }] }, 'parameters.workloads[0].label_matcher'],
  ];
  for (const [parameters, field] of cases) {
    assert.throws(() => new LoadScheduler({ identity, parameters, clock }), (err: unknown) => {
      assert.ok(err instanceof InvalidArgumentError, `${field}: ${String(err)}`);
      assert.ok((err.field ?? '').startsWith(field), `${err.field} for ${field}`);
      return true;
    });
  }
  const s = make(clock, { decision: { load_multiplier: 0.5, pass_through: false } });
  for (const m of [-1, NaN, Infinity]) assert.throws(() => s.setDecision({ load_multiplier: m, pass_through: false }), RangeError);
  assert.deepEqual(s.decision(), { load_multiplier: 0.5, pass_through: false });
});

test('metrics: accepted and rejected per workload, wait time, queue length and token rates', async () => {
  const clock = new ManualClock();
  const registry = new Registry();
  const s = make(clock, { metrics: schedulerMetrics(registry) });
  busy(s, clock);
  void track(s, clock, { tier: 'free' });
  s.decide({}, ctx(clock));
  const text = await registry.metrics();
  assert.match(text, /sluice_scheduler_accepted_flows_total\{policy_name="p",component_id="root.0",workload_index="0"\} 11/);
  assert.match(text, /sluice_scheduler_rejected_flows_total\{[^}]*workload_index="default",reason="no_budget"\} 1/);
  assert.match(text, /sluice_scheduler_queue_length\{policy_name="p",component_id="root.0"\} 1/);
  assert.match(text, /sluice_scheduler_incoming_token_rate\{[^}]*\} \d/);
  clock.advance(10);
  s.shutdown();
  const after = await registry.metrics();
  assert.doesNotMatch(after, /sluice_scheduler_queue_length\{/);
  assert.match(after, /sluice_scheduler_wait_time_ms_count\{policy_name="p",component_id="root.0",workload_index="1"\} 1/, 'the queued flow\'s wait');
  assert.match(after, /sluice_scheduler_rejected_flows_total\{[^}]*workload_index="1",reason="shutdown"\} 1/);
  assert.match(after, /sluice_scheduler_accepted_flows_total\{policy_name="p",component_id="root.0",workload_index="0"\} 11/, 'counted once');
});

test('metrics under Aperture\'s names: incoming and accepted tokens, and the token bucket\'s gauges, with policy_hash', async () => {
  const clock = new ManualClock();
  const registry = new Registry();
  const s = make(clock, { metrics: schedulerMetrics(registry) });
  busy(s, clock); // 11 gold flows of 1 token admitted, at a multiplier of 2
  void track(s, clock, { tier: 'free' }); // queued
  s.decide({}, ctx(clock)); // turned away
  const id = 'policy_name="p",policy_hash="h",component_id="root.0"';
  const text = await registry.metrics();
  assert.match(text, new RegExp(`^incoming_tokens_total\\{${id}\\} 13$`, 'm'));
  assert.match(text, new RegExp(`^accepted_tokens_total\\{${id}\\} 11$`, 'm'));
  assert.match(text, new RegExp(`^token_bucket_lm_ratio\\{${id}\\} 2$`, 'm'));
  const gauge = (name: string): number => Number(new RegExp(`^${name}\\{${id}\\} (\\S+)$`, 'm').exec(text)?.[1]);
  assert.ok(gauge('token_bucket_fill_rate') > 0, 'fills at 2 × the incoming rate');
  assert.ok(gauge('token_bucket_capacity_total') >= 0);
  assert.ok(gauge('token_bucket_available_tokens_total') <= gauge('token_bucket_capacity_total'));
  assert.match(await registry.metrics(), new RegExp(`^incoming_tokens_total\\{${id}\\} 13$`, 'm'), 'a scrape does not count twice');
  s.observeFlowDuration('0', 42);
  s.observeFlowDuration('0', 8);
  const latency = await registry.metrics();
  assert.match(latency, new RegExp(`^workload_latency_ms_count\\{${id},workload_index="0"\\} 2$`, 'm'));
  assert.match(latency, new RegExp(`^workload_latency_ms_sum\\{${id},workload_index="0"\\} 50$`, 'm'));
  clock.advance(10);
  s.shutdown();
  const after = await registry.metrics();
  assert.doesNotMatch(after, /token_bucket_lm_ratio\{/, 'a stopped scheduler has no gauges');
  assert.match(after, new RegExp(`^accepted_tokens_total\\{${id}\\} 11$`, 'm'), 'the flow turned away at shutdown took no tokens');
});
