// Adaptive load scheduling end to end: real etcd, Prometheus, the controller, an agent, a tap and a
// workload whose latency grows with its concurrency. Three times its capacity arrives (gold at
// priority 200, free at 50); the controller reads the service's latency through PromQL (the
// workload's own metric: a flux meter's duration starts at the check, so it would also count the
// scheduler's queue wait and the loop would chase its own queueing) and lowers the load multiplier
// the agent's scheduler admits at.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startEtcd, endpointsJson } from './support/etcd.js';
import { startPrometheus } from './support/prometheus.js';
import { startAgent, startController, startTap, until } from './support/processes.js';
import { drive, mean, percentile, startQueueWorkload, type Outcome } from './load-scheduling-scenario.js';

const WORKERS = 4;
const SERVICE_MS = 200;
const CAPACITY = (WORKERS * 1000) / SERVICE_MS; // 20 requests/s
const TOLERANCE = 1.5;
const TICK_MS = 500;
const INCREMENT = 0.005;
const MAX_LOAD_MULTIPLIER = 1.2;
const MIN_INCREMENT_FRACTION = 0.5;
const MIN_GRADIENT = 0.2;
const BAND = 0.1;
const RATE_WINDOW_MS = 5_000;
const LATENCY_WINDOW_MS = 3_000;
const SCRAPE_MS = 1_000;
const BASE_RATES = { gold: CAPACITY * 0.2, free: CAPACITY * 0.3 };
const OVERLOAD_RATES = { gold: CAPACITY * 0.4, free: CAPACITY * 2.6 };

/**
 * How long after the load drops the scheduler may take to admit everything again. With
 * keep_admitted_rate the multiplier counts against the incoming rate when the last overload began
 * (3× capacity): the base load (half the capacity) is admitted whole once the multiplier reaches
 * max_load_multiplier × base ÷ overload (0.2) in those terms, and each tick without overload adds
 * the increment. The loop's signals must first see the drop: the latency window, a scrape and a
 * tick, or the rate window (the longer). The deepest multiplier this scenario can leave is
 * min_gradient² (0.04: a second overload, which begins above the first one's cut, cut again to
 * min_gradient of it); in the band below the remembered multiplier (at most band ÷ (1 − band) of
 * the target) the steps may shrink to min_increment_fraction of the increment. With the figures
 * above: 6.5 s + (32 + 4.4) ticks × 0.5 s = 24.7 s.
 */
function recoveryBoundMs(): number {
  const total = (r: { gold: number; free: number }) => r.gold + r.free;
  const target = (MAX_LOAD_MULTIPLIER * total(BASE_RATES)) / total(OVERLOAD_RATES);
  const deepest = MIN_GRADIENT ** 2;
  const ticks = (target - deepest) / INCREMENT + ((BAND * target) / (1 - BAND)) * (1 / MIN_INCREMENT_FRACTION - 1) / INCREMENT;
  return Math.max(LATENCY_WINDOW_MS, RATE_WINDOW_MS) + SCRAPE_MS + TICK_MS + ticks * TICK_MS;
}

/** The adaptive-load example's loop, tuned for a test that lasts a minute. */
function policy(): Record<string, unknown> {
  return {
    circuit: {
      evaluation_interval: `${TICK_MS}ms`,
      components: [
        { query: { promql: {
          query_string: `sum(increase(workload_latency_ms_sum[${LATENCY_WINDOW_MS}ms])) / sum(increase(workload_latency_ms_count[${LATENCY_WINDOW_MS}ms]))`,
          evaluation_interval: `${TICK_MS}ms`,
          out_ports: { output: { signal_name: 'LATENCY' } },
        } } },
        { ema: { in_ports: { input: { signal_name: 'LATENCY' } }, parameters: { ema_window: '1500s', warmup_window: '5s' }, out_ports: { output: { signal_name: 'EMA' } } } },
        { arithmetic_combinator: { operator: 'mul', in_ports: { lhs: { signal_name: 'EMA' }, rhs: { constant_signal: { value: TOLERANCE } } }, out_ports: { output: { signal_name: 'SETPOINT' } } } },
        { flow_control: { adaptive_load_scheduler: {
          in_ports: { signal: { signal_name: 'LATENCY' }, setpoint: { signal_name: 'SETPOINT' } },
          out_ports: { desired_load_multiplier: { signal_name: 'DESIRED' }, is_overload: { signal_name: 'OVERLOAD' }, incoming_token_rate: { signal_name: 'INCOMING' } },
          parameters: {
            gradient: { slope: -2, min_gradient: MIN_GRADIENT, max_gradient: 1 },
            proportional_cut: true,
            load_multiplier_linear_increment: INCREMENT,
            recovery_headroom: 0.25,
            recovery_near_last_overload: { band: BAND, min_increment_fraction: MIN_INCREMENT_FRACTION, increment_factor_past: 8 },
            keep_admitted_rate: { window: `${RATE_WINDOW_MS}ms`, evaluation_interval: `${TICK_MS}ms` },
            max_load_multiplier: MAX_LOAD_MULTIPLIER,
            load_scheduler: {
              workload_latency_based_tokens: false,
              selectors: [{ control_point: 'ingress' }],
              scheduler: {
                workloads: [
                  { name: 'gold', label_matcher: { match_labels: { 'http.request.header.user_tier': 'gold' } }, parameters: { priority: 200, tokens: 1, queue_timeout: '0.5s' } },
                  { name: 'free', label_matcher: { match_labels: { 'http.request.header.user_tier': 'free' } }, parameters: { priority: 50, tokens: 1, queue_timeout: '0.1s' } },
                ],
              },
            },
          },
        } } },
      ],
    },
  };
}

interface Decision { load_multiplier: number; pass_through: boolean }

// The loop cuts in proportion (proportional_cut) to the square of the latency's ratio to the setpoint
// (slope -2: a latency measured when requests end understates a backlog that is still growing): the
// deepest cut of an overload is min_gradient (0.2 of the incoming rate, above gold's 13 %), and a
// latency that stays high for a few ticks because it lags (the 3 s window, the 1 s scrape, the tick,
// latencies measured at the end of requests) does not cut again. Recovery overshoots the capacity
// before the lagging latency shows it; the backlog of an overshoot grows with the step per second and
// the square of the lag, so the loop ticks every 0.5 s with a small step (0.01/s) and remembers the
// multiplier that overloaded the service (recovery_near_last_overload): later approaches slow down just
// under it; the step also shrinks once the latency is above 0.75 of the setpoint (recovery_headroom),
// as soon as a queue starts to build. The generator paces by the clock and skips what a stall of the
// machine kept it from sending (no burst of seconds of requests at once).
// When the load drops, a multiplier that is a share of the incoming rate admits a sixth of what it
// admitted (the same share of a sixth of the demand), and climbing back at 0.01/s from a cut of ~0.1
// took 20 s to minutes while the idle service turned away most requests. keep_admitted_rate counts the
// multiplier against the rate when the last overload began (the controller reads the agent's
// incoming token rate gauge through Prometheus): the base load is admitted at the rate the loop had
// reached, and each step adds 0.005 of the overload's rate, six times the step of the new demand;
// recoveryBoundMs derives the bound from these parameters. A latency blip of the loaded machine read
// as an overload at the base load (seen once at load 14: a cut to 0.66 at 10 tokens/s that then took
// 0.01/s of 10 tokens/s to undo) keeps the overload's reference rate and recovers as fast. A low
// reading raises the published multiplier but not to pass-through (that waits for the multiplier
// itself): in a 7 s stall of the machine during the overload the rate read 0, the scheduler went to
// pass-through, and the 3× load came back unlimited until a new overload was found; in a 3 s stall
// the averaged rate fell and raised the multiplier to 0.46 as the load came back. The rate is read as
// its highest value over 5 s (max_over_time), so a pause shorter than that raises nothing.
test('3x overload: the loop brings latency back under tolerance, gold keeps >= 90% while free is shed, and the multiplier recovers', {
  timeout: 170_000,
}, async (t) => {
  const etcd = await startEtcd(t);
  const agent = await startAgent(t, { env: { SLUICE_AGENT_ETCD_ENDPOINTS: endpointsJson(etcd) } });
  const workload = await startQueueWorkload(t, WORKERS, SERVICE_MS);
  // Prometheus scrapes the workload's latency and the agent's scheduler gauges (keep_admitted_rate reads the incoming token rate)
  const prom = await startPrometheus(t, [workload.target, agent.address], 'workload');
  const controller = await startController(t, {
    env: {
      SLUICE_CONTROLLER_ETCD_ENDPOINTS: endpointsJson(etcd),
      SLUICE_CONTROLLER_ETCD_LEASE_TTL: '2s',
      SLUICE_CONTROLLER_PROMETHEUS_ADDRESS: prom.address,
    },
  });
  // gold may wait up to its queue_timeout (0.5 s): the tap's check timeout must leave room for it
  const tap = await startTap(t, workload.url, agent.address, 'ingress', ['--check-timeout', '1s']);

  if (process.env.SLUICE_E2E_VERBOSE !== undefined) process.stderr.write('started\n');
  const posted = await fetch(`${controller.base}/v1/policies/adaptive-load`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ policy: policy() }),
  });
  assert.equal(posted.status, 200, await posted.text());
  await until(async () => {
    const r = await (await fetch(`${agent.base}/v1/policies/enforced`)).json() as { components?: { kind: string }[] };
    return (r.components ?? []).some((c) => c.kind === 'load_scheduler');
  }, 10_000, 'the agent enforces the load scheduler');

  const decision = async (): Promise<Decision | undefined> => {
    const r = await (await fetch(`${controller.base}/v1/decisions/load_scheduler`)).json() as { decisions?: { decision: Decision }[] };
    return r.decisions?.[0]?.decision;
  };
  const signal = async (name: string): Promise<number | null | undefined> => {
    const r = await (await fetch(`${controller.base}/v1/policies/adaptive-load`)).json() as { signals?: Record<string, number | null> };
    return r.signals?.[name];
  };
  const timeline: { at: number; decision: Decision | undefined; incoming: number | null | undefined; backlog: number }[] = [];

  const BASE_MS = 8_000;
  const OVERLOAD_MS = 30_000;
  const BOUND_MS = recoveryBoundMs();
  // the load stays at the base rates for the bound and 5 s more in which everything must be admitted
  const RECOVERY_MS = Math.ceil(BOUND_MS / 1000) * 1000 + 5_000;
  const DROP_MS = BASE_MS + OVERLOAD_MS;
  const outcomes = await drive(tap.base, [
    { name: 'baseline', durationMs: BASE_MS, rates: BASE_RATES },
    { name: 'overload', durationMs: OVERLOAD_MS, rates: OVERLOAD_RATES },
    { name: 'recovery', durationMs: RECOVERY_MS, rates: BASE_RATES },
  ], {
    timeoutMs: 2_000,
    onSecond: async (at) => {
      const [d, incoming] = await Promise.all([decision().catch(() => undefined), signal('INCOMING').catch(() => undefined)]);
      const entry = { at, decision: d, incoming, backlog: workload.backlog() };
      timeline.push(entry);
      if (process.env.SLUICE_E2E_VERBOSE !== undefined) process.stderr.write(`${JSON.stringify(entry)}\n`);
    },
  });

  const inWindow = (o: Outcome, from: number, to: number): boolean => o.at >= from && o.at < to;
  const okLatency = (from: number, to: number): number[] => outcomes.filter((o) => inWindow(o, from, to) && o.status === 200).map((o) => o.latencyMs);
  // turned away by the scheduler (503) or not: a request the scheduler admitted may still time out in the service's queue
  const notShed = (cls: 'gold' | 'free', from: number, to: number): number => {
    const all = outcomes.filter((o) => o.cls === cls && inWindow(o, from, to));
    return all.filter((o) => o.status !== 503).length / all.length;
  };
  const share = (cls: 'gold' | 'free', from: number, to: number): number => {
    const all = outcomes.filter((o) => o.cls === cls && inWindow(o, from, to));
    return all.filter((o) => o.status === 200).length / all.length;
  };
  const admitsAll = (d: Decision | undefined): boolean => d !== undefined && (d.pass_through || d.load_multiplier >= 1);
  const recovered = timeline.find((x) => x.at >= DROP_MS && admitsAll(x.decision));
  const afterBound = outcomes.filter((o) => o.at >= DROP_MS + BOUND_MS);
  const admittedAfterBound = afterBound.filter((o) => o.status === 200).length / afterBound.length;
  const goldStatuses = (from: number, to: number): string => {
    const counts = new Map<number, number>();
    for (const o of outcomes) if (o.cls === 'gold' && inWindow(o, from, to)) counts.set(o.status, (counts.get(o.status) ?? 0) + 1);
    return [...counts].sort((a, b) => a[0] - b[0]).map(([st, n]) => `${st}:${n}`).join(' ');
  };
  const baseline = mean(okLatency(2000, BASE_MS));
  const lateOverload = okLatency(BASE_MS + 20_000, BASE_MS + OVERLOAD_MS);
  const earlyOverload = okLatency(BASE_MS, BASE_MS + 10_000);
  const report = {
    baseline_mean_ms: baseline.toFixed(1),
    overload_first10s_mean_ms: mean(earlyOverload).toFixed(1),
    overload_last10s_mean_ms: mean(lateOverload).toFixed(1),
    overload_last10s_p99_ms: percentile(lateOverload, 99).toFixed(1),
    gold_admitted_overload: share('gold', BASE_MS, BASE_MS + OVERLOAD_MS).toFixed(3),
    gold_admitted_overload_first5s: share('gold', BASE_MS, BASE_MS + 5_000).toFixed(3),
    gold_not_shed_overload: notShed('gold', BASE_MS, BASE_MS + OVERLOAD_MS).toFixed(3),
    gold_statuses_overload: goldStatuses(BASE_MS, BASE_MS + OVERLOAD_MS),
    free_admitted_overload: share('free', BASE_MS, BASE_MS + OVERLOAD_MS).toFixed(3),
    statuses: [...new Set(outcomes.map((o) => o.status))].join(','),
    recovery_bound_ms: BOUND_MS.toFixed(0),
    recovered_after_ms: recovered === undefined ? 'never' : (recovered.at - DROP_MS).toFixed(0),
    admitted_after_bound: `${afterBound.filter((o) => o.status === 200).length}/${afterBound.length}`,
    limited_samples_after_recovery: timeline.filter((x) => recovered !== undefined && x.at > recovered.at && !admitsAll(x.decision)).length,
    timeline: timeline.map((x) => `${(x.at / 1000).toFixed(0)}s:${x.decision === undefined ? '-' : x.decision.pass_through ? 'pt' : x.decision.load_multiplier.toFixed(2)}/q${x.backlog}/r${typeof x.incoming === 'number' ? x.incoming.toFixed(0) : '-'}`).join(' '),
  };
  t.diagnostic(JSON.stringify(report));

  assert.ok(baseline > 0 && baseline < SERVICE_MS * 4, `baseline latency ${baseline}`);
  assert.ok(timeline.some((x) => x.decision !== undefined && !x.decision.pass_through && x.decision.load_multiplier < 1), 'the loop lowered the multiplier');
  assert.ok(mean(lateOverload) <= baseline * TOLERANCE * 2, `latency within 30 s of overload: ${report.overload_last10s_mean_ms} ms vs baseline ${report.baseline_mean_ms} ms`);
  // Gold keeps >= 90 % admitted while free absorbs the shedding: the scheduler turns away (503) at
  // most 10 % of gold's requests. Answered in time (200 within the client's 2 s) is stricter: until
  // the loop's first cut (the latency window, a scrape and a tick: 1-3 s, longer on a loaded machine)
  // the service's own FIFO grows by 40 requests/s, and gold requests admitted then and while that
  // backlog drains wait in it past 2 s whatever the scheduler does, about 8 per second of lag (3 % of
  // the overload's 240 gold requests). In 28 runs at load averages 2-15, 0.89-0.97 were answered in
  // time except three runs with multi-second stalls of the machine at load 11-15 (0.84, 0.82, 0.61, all
  // before the rate was read as its highest value and a low reading stopped short of pass-through;
  // the 0.61 came from the compounding cut below, which those changes do not address). Gold got
  // 503s once, in that run: a stall read as a second overload right after the first cut the multiplier
  // to 0.04 (min_gradient²), below gold's 13 %. The bound for answers is 85 %.
  assert.ok(notShed('gold', BASE_MS, BASE_MS + OVERLOAD_MS) >= 0.9, `gold not turned away: ${report.gold_not_shed_overload} (${report.gold_statuses_overload})`);
  assert.ok(share('gold', BASE_MS, BASE_MS + OVERLOAD_MS) >= 0.85, `gold answered in time: ${report.gold_admitted_overload} (${report.gold_statuses_overload})`);
  assert.ok(share('free', BASE_MS, BASE_MS + OVERLOAD_MS) < 0.6, `free absorbs the shedding: ${report.free_admitted_overload}`);
  const denied = outcomes.filter((o) => o.status !== 200 && o.status !== 0);
  assert.ok(denied.every((o) => o.status === 503), `turned away with 503 only: ${report.statuses}`);
  const overloadRate = OVERLOAD_RATES.gold + OVERLOAD_RATES.free;
  assert.ok(timeline.some((x) => typeof x.incoming === 'number' && Math.abs(x.incoming - overloadRate) < overloadRate * 0.2),
    'the controller reads the agent\'s incoming token rate (keep_admitted_rate\'s query finds the gauge)');
  assert.ok(recovered !== undefined && recovered.at - DROP_MS <= BOUND_MS + 1_000,
    `after the load drops the scheduler admits everything within ${report.recovery_bound_ms} ms (sampled each second): ${report.recovered_after_ms}`);
  // a latency blip of the loaded machine may still be read as an overload at the base load and cut for a few seconds
  // (the reference rate keeps its recovery as fast as this one): nearly everything after the bound is admitted
  assert.ok(afterBound.length > 0 && admittedAfterBound >= 0.9, `requests after the bound admitted: ${report.admitted_after_bound}`);
});
