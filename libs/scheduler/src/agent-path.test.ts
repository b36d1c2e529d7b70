// The scheduler on the agent's path: registered in a flowcontrol Engine, its waiting flows follow the
// caller's signal through Engine.check, and flow ends (FlowEnds) teach it the tokens of each workload.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Registry } from 'prom-client';
import { Engine, FlowEnds, FluxMeterComponent, FluxMeterHistogram, type CheckDecision } from '@sluice/flowcontrol';
import { LoadScheduler } from './load-scheduler.js';
import { ManualClock } from './manual-clock.js';

const identity = { policy_name: 'shop', policy_hash: 'h', component_id: 'root.3' };

test('Engine.check passes the caller\'s signal: a waiting flow leaves the queue at once when it is aborted', async () => {
  const clock = new ManualClock();
  const engine = new Engine({ now: () => clock.now(), asyncDecisionTimeoutMs: 60_000 });
  const s = new LoadScheduler({
    identity, clock, windowMs: 1000, maxWaitMs: 10_000, decision: { load_multiplier: 1, pass_through: false },
    parameters: { workloads: [], default_workload_parameters: { priority: 1, tokens: 1, queue_timeout_ms: 10_000 } },
  });
  engine.register(s, { control_point: 'cp' });
  const first = engine.check({ controlPoint: 'cp', labels: {}, services: [] });
  assert.ok(!(first instanceof Promise) && first.accepted, 'the first flow passes; the pacer is now short');
  const gone = new AbortController();
  let settled: CheckDecision | undefined;
  const pending = engine.check({ controlPoint: 'cp', labels: {}, services: [] }, gone.signal);
  assert.ok(pending instanceof Promise, 'the next flow waits for tokens');
  void pending.then((d) => { settled = d; });
  await Promise.resolve();
  assert.equal(s.gauges().queueLength, 1);
  gone.abort();
  assert.equal(s.gauges().queueLength, 0, 'out of the queue at once, no timer needed');
  const d = await pending;
  assert.equal(d.accepted, false);
  assert.equal(d.deniedStatus, 503);
  assert.ok(settled !== undefined);
  s.shutdown();
});

test('flow ends teach the scheduler that admitted them the tokens of their workload (workload_latency_based_tokens)', async () => {
  let now = 10_000;
  const clock = new ManualClock(now);
  const engine = new Engine({ now: () => now });
  const flowEnds = new FlowEnds({ fluxMeters: engine, histogram: new FluxMeterHistogram(new Registry()), now: () => now });
  engine.register(new FluxMeterComponent({ name: 'latency', policy_name: 'shop', buckets: [10, 100] }), { control_point: 'cp' });
  const s = new LoadScheduler({
    identity, clock,
    parameters: {
      workloads: [{ name: 'search', label_matcher: { match_labels: { op: 'search' } }, parameters: { priority: 100 } }],
      default_workload_parameters: { priority: 1 },
      workload_latency_based_tokens: true,
    },
  });
  engine.register(s, { control_point: 'cp' });
  const search = { index: '0', name: 'search', parameters: { priority: 100 } };
  const other = { index: 'default', name: 'default', parameters: { priority: 1 } };
  const cost = { nowMs: now, deadlineMs: undefined };
  assert.equal(s.tokensOf({}, search, cost), 1, 'before any flow end: 1 token');

  const begin = async (op: string): Promise<string> => {
    const id = flowEnds.begin(await engine.check({ controlPoint: 'cp', labels: { op }, services: [] }));
    assert.ok(id !== undefined, 'the flux meter measures the flow');
    return id;
  };
  const a = await begin('search');
  const b = await begin('browse');
  now += 120;
  assert.equal(flowEnds.end({ controlPoint: 'cp', flowId: a, statusCode: 200 }), 'recorded');
  assert.equal(flowEnds.end({ controlPoint: 'cp', flowId: b, statusCode: 200, durationMs: 30 }), 'recorded');
  assert.equal(s.tokensOf({}, search, cost), 120, 'the search flow lasted 120 ms');
  assert.equal(s.tokensOf({}, other, cost), 30, 'the other workload learned from its own flow only');
  s.shutdown();
});
