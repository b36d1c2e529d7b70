/**
 * The overload scenario of adaptive load scheduling, simulated in virtual time: the agent's real
 * LoadScheduler and the controller's real circuit (an adaptive load scheduler fed by an EMA
 * setpoint, compiled by @sluice/policies) around a modelled service — N workers, service time S,
 * an unbounded FIFO that drops a request whose client gave up when its turn comes (set
 * SLUICE_BENCH_WASTED_WORK=1 to serve those too; SLUICE_BENCH_COMPOUNDING=1 for Aperture's compounding cuts instead
 * of the example's proportional ones; SLUICE_BENCH_LINEAR_RECOVERY=1 for a plain linear recovery instead of the
 * example's recovery_near_last_overload and recovery_headroom; SLUICE_BENCH_SHARE_RECOVERY=1 for a multiplier that
 * stays a share of the current incoming rate instead of the example's keep_admitted_rate, whose incoming token
 * rate is the scheduler's own gauge, its highest value over 3 s as the controller's query reads it). Clients send gold (priority 200) and free (50)
 * requests open loop and give up after 2 s. The latency signal is the mean time in the service
 * (admission to answer) of the flows that ended in the last 2 s, seen by the circuit once per
 * second and published to the scheduler one second later. The same traffic is run without the scheduler, in the
 * same run. Virtual time makes the figures independent of the machine's load.
 *
 * Prints goodput (answers within the client timeout, per second, during the overload) with ÷
 * without; for gold in the overload, the share the scheduler admitted, the p99 latency of those
 * admitted (one whose client gave up counts as the timeout) and the share answered in time; how
 * long after the load drops the scheduler admits everything again; and writes an SVG plot of
 * latency, load multiplier and admitted rate over time into the output directory.
 *
 *   node scripts/run-bench.mjs scheduler-overload
 *   node bench/dist/scheduler-overload.js [out-dir=$TMPDIR/sluice-bench]
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { compilePolicy } from '@sluice/policies';
import { LoadScheduler, ManualClock } from '@sluice/scheduler';
import type { LimiterResult } from '@sluice/flowcontrol';
import { printResult } from './support/result-line.js';

const WORKERS = 4;
const SERVICE_MS = 200;
const CAPACITY = (WORKERS * 1000) / SERVICE_MS; // 20 requests/s
const CLIENT_TIMEOUT_MS = 2000;
/** The service drops a request whose client gave up when its turn comes (the tap closes the upstream request); SLUICE_BENCH_WASTED_WORK=1 serves it all the same. */
const SKIP_ABANDONED = process.env.SLUICE_BENCH_WASTED_WORK !== '1';
const SIGNAL_WINDOW_MS = 2000;
/** The loop of deploy/examples/adaptive-load.yaml (proportional cuts, at most to 0.25); SLUICE_BENCH_COMPOUNDING=1: Aperture's compounding cuts, gently (0.85 per tick). */
const COMPOUNDING = process.env.SLUICE_BENCH_COMPOUNDING === '1';
/** The example's recovery (slower near the multiplier that last overloaded and as the latency nears the setpoint); SLUICE_BENCH_LINEAR_RECOVERY=1: the plain linear one. */
const LINEAR_RECOVERY = process.env.SLUICE_BENCH_LINEAR_RECOVERY === '1';
/** The example's keep_admitted_rate; SLUICE_BENCH_SHARE_RECOVERY=1: the multiplier stays a share of the current incoming rate (as in Aperture). */
const KEEP_RATE = process.env.SLUICE_BENCH_SHARE_RECOVERY !== '1';
/** The range over which the controller reads the agents' incoming token rate, as its highest value (one sample a second). */
const RATE_WINDOW_S = 3;
const PHASES = [
  { name: 'baseline', ms: 20_000, gold: CAPACITY * 0.2, free: CAPACITY * 0.3 },
  { name: 'overload', ms: 60_000, gold: CAPACITY * 0.4, free: CAPACITY * 2.6 },
  { name: 'recovery', ms: 30_000, gold: CAPACITY * 0.2, free: CAPACITY * 0.3 },
];
const TOTAL_MS = PHASES.reduce((n, p) => n + p.ms, 0);
const OVERLOAD_FROM = PHASES[0].ms;
const OVERLOAD_TO = OVERLOAD_FROM + PHASES[1].ms;

function policy(): unknown {
  return {
    circuit: {
      evaluation_interval: '1s',
      components: [
        { query: { promql: { query_string: 'latency', evaluation_interval: '1s', out_ports: { output: { signal_name: 'LATENCY' } } } } },
        { ema: { in_ports: { input: { signal_name: 'LATENCY' } }, parameters: { ema_window: '1500s', warmup_window: '10s' }, out_ports: { output: { signal_name: 'EMA' } } } },
        { arithmetic_combinator: { operator: 'mul', in_ports: { lhs: { signal_name: 'EMA' }, rhs: { constant_signal: { value: 1.5 } } }, out_ports: { output: { signal_name: 'SETPOINT' } } } },
        { flow_control: { adaptive_load_scheduler: {
          in_ports: { signal: { signal_name: 'LATENCY' }, setpoint: { signal_name: 'SETPOINT' } },
          parameters: {
            ...(COMPOUNDING
              ? { gradient: { slope: -1, min_gradient: 0.85, max_gradient: 1 } }
              : { gradient: { slope: -1, min_gradient: 0.25, max_gradient: 1 }, proportional_cut: true }),
            load_multiplier_linear_increment: 0.03,
            ...(LINEAR_RECOVERY ? {} : {
              recovery_headroom: 0.25,
              recovery_near_last_overload: { band: 0.3, min_increment_fraction: 0.25, increment_factor_past: 3 },
            }),
            ...(KEEP_RATE ? { keep_admitted_rate: { window: `${RATE_WINDOW_S}s`, evaluation_interval: '1s' } } : {}),
            max_load_multiplier: 2,
            load_scheduler: {
              workload_latency_based_tokens: false,
              selectors: [{ control_point: 'ingress' }],
              scheduler: {
                workloads: [
                  { name: 'gold', label_matcher: { match_labels: { tier: 'gold' } }, parameters: { priority: 200, tokens: 1, queue_timeout: '0.5s' } },
                  { name: 'free', label_matcher: { match_labels: { tier: 'free' } }, parameters: { priority: 50, tokens: 1, queue_timeout: '0.1s' } },
                ],
              },
            },
          },
        } } },
      ],
    },
  };
}

type Cls = 'gold' | 'free';
interface Flow { cls: Cls; startMs: number; endMs?: number; status?: 200 | 503 | 0; admittedMs?: number }
interface Second { latency: number; multiplier: number; admitted: number; goodput: number; admitsAll: boolean }

/** One run over the whole scenario; `withScheduler` false sends every request to the service. */
async function run(withScheduler: boolean): Promise<{ flows: Flow[]; seconds: Second[] }> {
  const clock = new ManualClock(0);
  const compiled = compilePolicy('adaptive', policy());
  const published = compiled.components.find((c) => c.kind === 'load_scheduler');
  if (published === undefined) throw new Error('no load scheduler');
  const scheduler = new LoadScheduler({
    identity: { policy_name: 'adaptive', policy_hash: compiled.hash, component_id: published.component_id },
    parameters: published.parameters,
    clock,
  });
  const circuit = compiled.createCircuit();
  const promqlId = (compiled.promql.find((q) => q.query === 'latency') ?? compiled.promql[0]).id;
  // keep_admitted_rate's query, answered here from the scheduler's incoming token rate gauge sampled once a second
  const rateQuery = compiled.promql.find((q) => q.id === published.component_id);
  const rateSamples: number[] = [];
  const flows: Flow[] = [];
  const ended: Flow[] = [];
  const waiting: Flow[] = [];
  let busy = 0;
  let multiplier = 1;

  const serve = (): void => {
    while (busy < WORKERS && waiting.length > 0) {
      const f = waiting.shift() as Flow;
      if (SKIP_ABANDONED && clock.now() - f.startMs >= CLIENT_TIMEOUT_MS) continue;
      busy++;
      clock.setTimer(() => {
        busy--;
        const end = clock.now();
        if (end - f.startMs <= CLIENT_TIMEOUT_MS) { f.status = 200; f.endMs = end; }
        ended.push({ ...f, endMs: end });
        serve();
      }, SERVICE_MS);
    }
  };
  const admit = (f: Flow): void => {
    f.admittedMs = clock.now();
    waiting.push(f);
    serve();
    clock.setTimer(() => { if (f.status === undefined) { f.status = 0; f.endMs = f.startMs + CLIENT_TIMEOUT_MS; } }, CLIENT_TIMEOUT_MS - (clock.now() - f.startMs));
  };
  const arrive = (cls: Cls): void => {
    const f: Flow = { cls, startMs: clock.now() };
    flows.push(f);
    if (!withScheduler) { admit(f); return; }
    const r = scheduler.decide({ tier: cls }, { nowMs: clock.now(), deadlineMs: f.startMs + CLIENT_TIMEOUT_MS });
    const settle = (res: LimiterResult): void => {
      if (res.accepted) admit(f);
      else { f.status = 503; f.endMs = clock.now(); }
    };
    if (r instanceof Promise) void r.then(settle);
    else settle(r);
  };

  // arrivals at fixed spacing per class, phase by phase
  let at = 0;
  for (const p of PHASES) {
    for (const cls of ['gold', 'free'] as const) {
      const n = Math.round((p[cls] * p.ms) / 1000);
      for (let i = 0; i < n; i++) clock.setTimer(() => arrive(cls), at + (i * p.ms) / n + (cls === 'gold' ? 0.3 : 0.7));
    }
    at += p.ms;
  }

  const seconds: Second[] = [];
  for (let s = 0; s < TOTAL_MS / 1000; s++) {
    await clock.run(1000);
    const now = clock.now();
    const recent = ended.filter((f) => (f.endMs as number) > now - SIGNAL_WINDOW_MS).map((f) => (f.endMs as number) - (f.admittedMs as number));
    const latency = recent.length === 0 ? undefined : recent.reduce((a, b) => a + b, 0) / recent.length;
    const answers = new Map<string, number | undefined>([[promqlId, latency]]);
    if (rateQuery !== undefined) {
      rateSamples.push(scheduler.gauges().incomingTokensPerSecond);
      if (rateSamples.length > RATE_WINDOW_S) rateSamples.shift();
      answers.set(rateQuery.id, Math.max(...rateSamples));
    }
    const out = circuit.tick(now, { promql: answers, variables: new Map() });
    const d = out.decisions.get(published.component_id);
    if (withScheduler && d?.kind === 'load_scheduler') {
      // published through etcd and applied by the agent a second later
      clock.setTimer(() => scheduler.setDecision({ load_multiplier: d.load_multiplier, pass_through: d.pass_through }), 1000);
      multiplier = d.pass_through ? d.load_multiplier : d.load_multiplier;
    }
    const inSecond = (t: number | undefined): boolean => t !== undefined && t > now - 1000 && t <= now;
    seconds.push({
      latency: latency ?? NaN,
      multiplier: withScheduler ? (d?.kind === 'load_scheduler' && d.pass_through ? NaN : multiplier) : NaN,
      admitted: flows.filter((f) => inSecond(f.admittedMs)).length,
      goodput: flows.filter((f) => f.status === 200 && inSecond(f.endMs)).length,
      admitsAll: !withScheduler || (d?.kind === 'load_scheduler' && (d.pass_through || d.load_multiplier >= 1)),
    });
  }
  await clock.run(CLIENT_TIMEOUT_MS + 1000);
  scheduler.shutdown();
  return { flows, seconds };
}

function p99(values: number[]): number {
  if (values.length === 0) return NaN;
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(0.99 * s.length) - 1)];
}

const inOverload = (f: Flow): boolean => f.startMs >= OVERLOAD_FROM && f.startMs < OVERLOAD_TO;

/** The overload's first seconds, while the loop finds the cut: figures "settled" leave them out. */
const SETTLE_MS = 10_000;

/**
 * p99 latency of the gold requests of the overload that were admitted (an admitted one whose client
 * gave up counts as the client timeout); from `settleMs` into the overload.
 */
function goldAdmittedP99(flows: Flow[], settleMs = 0): number {
  return p99(flows.filter((f) => f.cls === 'gold' && inOverload(f) && f.startMs >= OVERLOAD_FROM + settleMs && f.admittedMs !== undefined)
    .map((f) => (f.status === 200 ? (f.endMs as number) - f.startMs : CLIENT_TIMEOUT_MS)));
}

/** The share of gold's requests of the overload that were admitted (without the scheduler: all). */
function goldAdmitted(flows: Flow[]): number {
  const all = flows.filter((f) => f.cls === 'gold' && inOverload(f));
  return all.filter((f) => f.admittedMs !== undefined).length / all.length;
}

/** Seconds after the load drops until the scheduler admits everything for good (NaN: never within the run). */
function recoverySeconds(seconds: Second[]): number {
  const drop = OVERLOAD_TO / 1000;
  let last = drop - 1;
  for (let i = drop; i < seconds.length; i++) if (!seconds[i].admitsAll) last = i;
  return last + 1 >= seconds.length ? NaN : last + 1 - drop + 1;
}

/** p99 latency of the gold requests of the overload that were answered in time. */
function goldAnsweredP99(flows: Flow[]): number {
  return p99(flows.filter((f) => f.cls === 'gold' && f.status === 200 && f.startMs >= OVERLOAD_FROM && f.startMs < OVERLOAD_TO).map((f) => (f.endMs as number) - f.startMs));
}

function share(flows: Flow[], cls: Cls): number {
  const all = flows.filter((f) => f.cls === cls && f.startMs >= OVERLOAD_FROM && f.startMs < OVERLOAD_TO);
  return all.filter((f) => f.status === 200).length / all.length;
}

function goodput(flows: Flow[]): number {
  return flows.filter((f) => f.status === 200 && (f.endMs as number) >= OVERLOAD_FROM && (f.endMs as number) < OVERLOAD_TO).length / (PHASES[1].ms / 1000);
}

/** A hand-written SVG (no plotting package is installed): three panels sharing the time axis. */
function svg(withS: Second[], without: Second[]): string {
  const W = 900;
  const H = 200;
  const left = 60;
  const panels: { title: string; series: { values: number[]; color: string; label: string }[]; max: number; unit: string }[] = [
    {
      title: 'service latency of the flows that ended in the last 2 s, mean (ms)',
      series: [
        { values: without.map((s) => s.latency), color: '#c0392b', label: 'without scheduler' },
        { values: withS.map((s) => s.latency), color: '#2471a3', label: 'with scheduler' },
      ],
      max: 0, unit: 'ms',
    },
    { title: 'load multiplier (blank: pass-through)', series: [{ values: withS.map((s) => s.multiplier), color: '#2471a3', label: 'with scheduler' }], max: 2, unit: '' },
    {
      title: 'admitted to the service (requests/s); capacity ' + CAPACITY,
      series: [
        { values: without.map((s) => s.admitted), color: '#c0392b', label: 'without scheduler' },
        { values: withS.map((s) => s.admitted), color: '#2471a3', label: 'with scheduler' },
      ],
      max: 0, unit: '/s',
    },
  ];
  const n = withS.length;
  const x = (i: number): number => left + (i / (n - 1)) * (W - left - 20);
  const parts: string[] = [];
  panels.forEach((p, pi) => {
    const top = 30 + pi * (H + 40);
    const max = p.max > 0 ? p.max : Math.max(1, ...p.series.flatMap((s) => s.values.filter((v) => Number.isFinite(v)))) * 1.05;
    const y = (v: number): number => top + H - (v / max) * H;
    parts.push(`<text x="${left}" y="${top - 8}" font-size="13" font-family="sans-serif">${p.title}</text>`);
    parts.push(`<rect x="${left}" y="${top}" width="${W - left - 20}" height="${H}" fill="none" stroke="#999"/>`);
    for (const f of [0, 0.5, 1]) parts.push(`<text x="${left - 6}" y="${y(max * f) + 4}" font-size="10" text-anchor="end" font-family="sans-serif">${(max * f).toFixed(max < 10 ? 1 : 0)}</text>`);
    for (const mark of [OVERLOAD_FROM, OVERLOAD_TO]) {
      const mx = x(mark / 1000 - 1);
      parts.push(`<line x1="${mx}" y1="${top}" x2="${mx}" y2="${top + H}" stroke="#bbb" stroke-dasharray="4 3"/>`);
    }
    p.series.forEach((s, si) => {
      let d = '';
      let pen = false;
      s.values.forEach((v, i) => {
        if (!Number.isFinite(v)) { pen = false; return; }
        d += `${pen ? 'L' : 'M'}${x(i).toFixed(1)},${y(Math.min(v, max)).toFixed(1)} `;
        pen = true;
      });
      parts.push(`<path d="${d.trim()}" fill="none" stroke="${s.color}" stroke-width="1.8"/>`);
      parts.push(`<text x="${W - 220}" y="${top + 16 + si * 14}" font-size="11" fill="${s.color}" font-family="sans-serif">${s.label}</text>`);
    });
  });
  const bottom = 30 + panels.length * (H + 40) - 20;
  parts.push(`<text x="${left}" y="${bottom + 4}" font-size="11" font-family="sans-serif">time (s); overload (3× capacity) between the dashed lines; gold priority 200, free 50</text>`);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${bottom + 16}" viewBox="0 0 ${W} ${bottom + 16}">\n<rect width="100%" height="100%" fill="white"/>\n${parts.join('\n')}\n</svg>\n`;
}

async function main(): Promise<void> {
  const outDir = path.resolve(process.argv[2] ?? path.join(os.tmpdir(), 'sluice-bench'));
  const withS = await run(true);
  const without = await run(false);
  if (process.env.SLUICE_BENCH_VERBOSE === '1') {
    withS.seconds.forEach((s, i) => console.log(`  t=${i + 1}s latency ${s.latency.toFixed(0)} lm ${s.multiplier.toFixed(2)} admitted ${s.admitted} goodput ${s.goodput} | without latency ${without.seconds[i].latency.toFixed(0)}`));
  }
  const ratio = goodput(withS.flows) / goodput(without.flows);
  mkdirSync(outDir, { recursive: true });
  const file = path.join(outDir, 'scheduler-overload.svg');
  writeFileSync(file, svg(withS.seconds, without.seconds));
  console.log(`scheduler-overload: ${WORKERS} workers × ${SERVICE_MS} ms (capacity ${CAPACITY}/s), 3× capacity for ${PHASES[1].ms / 1000} s, clients give up after ${CLIENT_TIMEOUT_MS} ms (virtual time)`);
  for (const [label, r] of [['with scheduler', withS], ['without', without]] as const) {
    console.log(`  ${label.padEnd(15)} goodput ${goodput(r.flows).toFixed(1)}/s  gold admitted ${(goldAdmitted(r.flows) * 100).toFixed(1)}%, p99 of those ${goldAdmittedP99(r.flows).toFixed(0)} ms (${goldAdmittedP99(r.flows, SETTLE_MS).toFixed(0)} ms after the first ${SETTLE_MS / 1000} s), answered in time ${(share(r.flows, 'gold') * 100).toFixed(1)}% (p99 ${goldAnsweredP99(r.flows).toFixed(0)} ms)  free answered ${(share(r.flows, 'free') * 100).toFixed(1)}%`);
  }
  console.log(`  after the load drops the scheduler admits everything within ${recoverySeconds(withS.seconds)} s (${KEEP_RATE ? 'keep_admitted_rate' : 'the multiplier a share of the current rate'})`);
  console.log(`  goodput with ÷ without: ${ratio.toFixed(2)}; plot: ${file}`);
  printResult('scheduler-overload', {
    goodput_ratio: ratio.toFixed(2),
    goodput_with: goodput(withS.flows).toFixed(1),
    goodput_without: goodput(without.flows).toFixed(1),
    gold_admitted_with: goldAdmitted(withS.flows).toFixed(3),
    gold_admitted_without: goldAdmitted(without.flows).toFixed(3),
    gold_admitted_p99_with_ms: goldAdmittedP99(withS.flows).toFixed(0),
    gold_admitted_p99_without_ms: goldAdmittedP99(without.flows).toFixed(0),
    gold_admitted_p99_settled_with_ms: goldAdmittedP99(withS.flows, SETTLE_MS).toFixed(0),
    gold_admitted_p99_settled_without_ms: goldAdmittedP99(without.flows, SETTLE_MS).toFixed(0),
    gold_answered_p99_with_ms: goldAnsweredP99(withS.flows).toFixed(0),
    gold_answered_p99_without_ms: goldAnsweredP99(without.flows).toFixed(0),
    gold_answered_with: share(withS.flows, 'gold').toFixed(3),
    gold_answered_without: share(without.flows, 'gold').toFixed(3),
    recovery_s: String(recoverySeconds(withS.seconds)),
    plot: file,
  });
}

main().then(() => process.exit(0), (err: unknown) => { console.error(err); process.exit(1); });
