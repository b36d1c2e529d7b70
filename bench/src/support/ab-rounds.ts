/**
 * A/B throughput of one agent's check path: a closed loop of calls against the same agent in
 * interleaved rounds, switching a setting off (A) and on (B) between rounds, with the agent's
 * CPU time per call from /proc beside the throughput (less disturbed by other work on a shared
 * machine). Both settings are warmed up for a second before the first round.
 */
import os from 'node:os';
import { closedLoop } from './load-loops.js';
import { processCpuMs } from './proc-cpu.js';
import { Samples } from './samples.js';
import { serviceClient } from '@sluice/proto';
import { CHECK_PATH } from './check-fixture.js';
import { checkClient, waitEnforcing, type CheckClient } from './policy-cluster.js';
import { printResult } from './result-line.js';
import { unaryCaller, verifyUnary, type UnaryCaller } from './unary-caller.js';

export interface AbSide {
  /** Calls answered with status 0. */
  ok: number;
  seconds: number;
  errors: number;
  cpuMs: number;
  latency: Samples;
}

export interface AbResult {
  off: AbSide;
  on: AbSide;
  /** Throughput on ÷ off. */
  ratio: number;
  /** Agent CPU per call, off ÷ on. */
  cpuRatio: number;
  /** Per-round throughput ratios, on ÷ off. */
  perRound: string[];
}

export interface AbOptions {
  caller: UnaryCaller;
  concurrency: number;
  roundMs: number;
  rounds: number;
  /** The agent whose CPU time is counted. */
  agentPid: number;
  /** Switches the setting and returns once the agent enforces it. */
  set(on: boolean): Promise<void>;
}

const side = (): AbSide => ({ ok: 0, seconds: 0, errors: 0, cpuMs: 0, latency: new Samples(2_000_000) });

export async function abRounds(o: AbOptions): Promise<AbResult> {
  await o.set(true);
  await closedLoop(o.caller, o.concurrency, 1000);
  await o.set(false);
  await closedLoop(o.caller, o.concurrency, 1000);
  const off = side();
  const on = side();
  const perRound: string[] = [];
  for (let r = 0; r < o.rounds; r++) {
    const rates: number[] = [];
    for (const t of [off, on]) {
      await o.set(t === on);
      const cpu0 = processCpuMs(o.agentPid) ?? NaN;
      const res = await closedLoop(o.caller, o.concurrency, o.roundMs, t.latency);
      t.cpuMs += (processCpuMs(o.agentPid) ?? NaN) - cpu0;
      t.ok += res.rps * (o.roundMs / 1000);
      t.seconds += o.roundMs / 1000;
      t.errors += res.errors;
      rates.push(res.rps);
    }
    perRound.push(((rates[1] ?? 0) / (rates[0] ?? 1)).toFixed(3));
  }
  return { off, on, ratio: rps(on) / rps(off), cpuRatio: usPerCall(off) / usPerCall(on), perRound };
}

export const rps = (t: AbSide): number => t.ok / t.seconds;
export const usPerCall = (t: AbSide): number => (t.cpuMs * 1000) / (t.ok + t.errors);
export const loadAverage = (): string => os.loadavg().map((x) => x.toFixed(2)).join(' ');

/**
 * Prints one line per setting, the ratio against its target and the CPU ratio; returns whether
 * the target is met (ratio at or above it, no errors).
 */
export function reportAb(res: AbResult, labels: { off: string; on: string }, target: number): boolean {
  const width = Math.max(labels.off.length, labels.on.length);
  for (const [label, t] of [[labels.off, res.off], [labels.on, res.on]] as const) {
    console.log(`  ${label.padEnd(width)} ${Math.round(rps(t)).toString().padStart(6)} checks/s  `
      + `p50 ${t.latency.percentile(0.5).toFixed(3)} ms  p99 ${t.latency.percentile(0.99).toFixed(3)} ms  agent CPU ${usPerCall(t).toFixed(1)} us/call  errors ${t.errors}`);
  }
  const met = res.ratio >= target && res.off.errors + res.on.errors === 0;
  console.log(`  ${labels.on} ÷ ${labels.off}: ${res.ratio.toFixed(3)} (per round ${res.perRound.join(' ')}); target ≥ ${target} ${met ? 'met' : 'NOT met'}; `
    + `load average ${loadAverage()}`);
  console.log(`  agent CPU per call, ${labels.off} ÷ ${labels.on}: ${res.cpuRatio.toFixed(3)} (less sensitive than throughput to other work on a shared machine)`);
  return met;
}

export const cpuCount = (): number => os.cpus().length;

/** The closed-loop Check load on one agent and a probe client, once the agent enforces nothing. */
export async function checkLoad(agentPort: number, request: { control_point: string; labels: Record<string, string> }): Promise<{ caller: UnaryCaller; probe: CheckClient }> {
  await waitEnforcing([agentPort], []);
  const message = serviceClient('flowControl').service.Check.requestSerialize(request);
  const target = { port: agentPort, path: CHECK_PATH, message, connections: 1 };
  await verifyUnary(target);
  return { caller: await unaryCaller('raw-h2', target), probe: checkClient(agentPort) };
}

export interface AbBench {
  name: string;
  agentPid: number;
  caller: UnaryCaller;
  concurrency: number;
  roundMs: number;
  rounds: number;
  target: number;
  set(on: boolean): Promise<void>;
  /** How the two settings are printed, and the names of their rates on the RESULT line. */
  labels: { off: string; on: string };
  resultKeys: { off: string; on: string };
}

/** Runs the interleaved rounds of one A/B bench and prints its lines and its RESULT line. */
export async function runAbBench(b: AbBench): Promise<void> {
  console.log(`${b.name}: one agent (pid ${b.agentPid}), raw-h2 Check closed loop with ${b.concurrency} in flight, ${b.rounds} rounds of ${b.roundMs / 1000} s per setting; `
    + `load average ${loadAverage()} (${cpuCount()} CPUs)`);
  const res = await abRounds({ caller: b.caller, concurrency: b.concurrency, roundMs: b.roundMs, rounds: b.rounds, agentPid: b.agentPid, set: b.set });
  const met = reportAb(res, b.labels, b.target);
  printResult(b.name, {
    ratio: res.ratio.toFixed(3),
    cpu_ratio: res.cpuRatio.toFixed(3),
    [b.resultKeys.off]: Math.round(rps(res.off)),
    [b.resultKeys.on]: Math.round(rps(res.on)),
    rounds: res.perRound.join(','),
    targets: met ? 'met' : 'not-met',
  });
}
