/**
 * Check over gRPC on loopback: the real sluice-agent (FlowControlService.Check through the
 * engine, one token-bucket rate limiter that always has tokens, on the shared port with its
 * metrics and interceptors) against a no-op grpc-js server whose Check answers a fixed
 * CheckResponse (same messages on the wire), measured in the same run.
 *
 * Method:
 *  - each server runs in its own process; the load generator runs in this one, so neither
 *    side's GC pauses or timers land in the other's latency;
 *  - the generator writes pre-encoded HTTP/2 frames (`raw-h2`, a few us of CPU per call) by
 *    default, so the servers, not the generator, are what saturates on a small machine;
 *    `node-h2` and `grpc-js` use node:http2 and grpc-js clients instead; each target's
 *    reply is checked (grpc-status 0, a message) before measuring;
 *  - warm-up: closed loop on both before anything is measured;
 *  - peak: closed loop (`concurrency` calls in flight), interleaved rounds per target;
 *    the servers' CPU time per call (from /proc) is reported beside the rate;
 *  - paced: open loop at half the no-op's peak rate (and, for comparison, at a quarter):
 *    calls evenly spaced, sent by a clock thread that sleeps in Atomics.wait (fractional
 *    ms) and wakes at most every 0.25 ms; latency from each call's intended send time, so
 *    queueing behind a stall is counted, not omitted; the sender's own lateness is reported.
 * Targets: Sluice's peak >= 0.8 of the no-op's; Sluice's p99 < 1 ms at the paced rate.
 *
 *   npx tsc -p bench && node bench/dist/check-grpc.js [seconds-per-phase=4] [concurrency=32] [client=raw-h2|node-h2|grpc-js] [connections=1]
 */
import os from 'node:os';
import { serviceClient } from '@sluice/proto';
import { startAgent } from './support/agent-process.js';
import { serverScript } from './support/bench-paths.js';
import { BENCH_CHECK_REQUEST, CHECK_PATH } from './support/check-fixture.js';
import { limitRunTime, startChildServer, type ChildServer } from './support/child-server.js';
import { closedLoop, openLoop, type LoopResult } from './support/load-loops.js';
import { processCpuMs } from './support/proc-cpu.js';
import { printResult } from './support/result-line.js';
import { Samples } from './support/samples.js';
import { CLIENT_KINDS, unaryCaller, verifyUnary, type ClientKind, type UnaryCaller } from './support/unary-caller.js';

const phaseMs = Math.min(5, Math.max(1, Number(process.argv[2] ?? 4))) * 1000;
const concurrency = Math.max(1, Math.floor(Number(process.argv[3] ?? 32)));
const client: ClientKind = CLIENT_KINDS.find((k) => k === process.argv[4]) ?? 'raw-h2';
const connections = Math.max(1, Math.floor(Number(process.argv[5] ?? 1)));
/** Each phase is split into interleaved rounds, so drift on a shared machine hits both targets alike. */
const ROUNDS = 2;
const WARMUP_MS = 700;

interface Target { label: string; server: ChildServer; caller: UnaryCaller }

/** What a phase measured on one target, summed over its rounds. */
class Tally {
  readonly latency = new Samples(1_000_000);
  readonly sendLag = new Samples(1_000_000);
  ok = 0;
  errors = 0;
  unanswered = 0;
  seconds = 0;
  serverCpuMs: number | undefined = 0;
  clientCpuMs = 0;
  firstError: string | undefined;

  /** Runs `run` against `t`, adding its calls and both processes' CPU time. */
  async measure(t: Target, seconds: number, run: () => Promise<LoopResult>): Promise<void> {
    const server0 = processCpuMs(t.server.pid);
    const own0 = process.cpuUsage();
    const r = await run();
    const own = process.cpuUsage(own0);
    const server1 = processCpuMs(t.server.pid);
    this.ok += r.rps * seconds;
    this.errors += r.errors;
    this.unanswered += r.unanswered ?? 0;
    this.seconds += seconds;
    this.firstError ??= r.firstError;
    this.serverCpuMs = server0 === undefined || server1 === undefined || this.serverCpuMs === undefined ? undefined : this.serverCpuMs + server1 - server0;
    this.clientCpuMs += (own.user + own.system) / 1000;
  }

  get rps(): number { return this.ok / this.seconds; }
  get serverUsPerCall(): number { return this.serverCpuMs === undefined ? NaN : (this.serverCpuMs * 1000) / (this.ok + this.errors); }
  get clientUsPerCall(): number { return (this.clientCpuMs * 1000) / (this.ok + this.errors); }
  p(q: number): number { return this.latency.percentile(q); }
}

const ms3 = (x: number): string => `${x.toFixed(3)} ms`;

function line(label: string, t: Tally, paced: boolean): string {
  let s = `  ${label.padEnd(20)} ${Math.round(t.rps).toString().padStart(7)} req/s  p50 ${ms3(t.p(0.5))}  p99 ${ms3(t.p(0.99))}  max ${ms3(t.p(1))}`
    + `  errors ${t.errors}${paced ? `  unanswered ${t.unanswered}` : ''}${t.firstError !== undefined ? ` (${t.firstError})` : ''}\n`
    + `  ${''.padEnd(20)} server CPU ${t.serverUsPerCall.toFixed(1)} us/call  client CPU ${t.clientUsPerCall.toFixed(1)} us/call`;
  if (paced) s += `  send lag p50 ${ms3(t.sendLag.percentile(0.5))} p99 ${ms3(t.sendLag.percentile(0.99))}`;
  return s;
}

/** Open loop at `rate` on each target for `phaseMs`, in `rounds` interleaved rounds. */
async function pacedPhase(targets: Target[], rate: number, rounds: number): Promise<Tally[]> {
  const roundMs = phaseMs / rounds;
  const tallies = targets.map(() => new Tally());
  for (let r = 0; r < rounds; r++) {
    for (const [i, t] of targets.entries()) {
      await tallies[i].measure(t, roundMs / 1000, () => openLoop(t.caller, { rate, ms: roundMs, latency: tallies[i].latency, sendLag: tallies[i].sendLag }));
    }
  }
  return tallies;
}

const load = (): string => os.loadavg().map((x) => x.toFixed(2)).join(' ');

async function main(): Promise<void> {
  limitRunTime('check-grpc', 60_000);
  const message = serviceClient('flowControl').service.Check.requestSerialize(BENCH_CHECK_REQUEST);
  const servers: ChildServer[] = [];
  const targets: Target[] = [];
  try {
    servers.push(await startChildServer({ name: 'no-op grpc-js', command: process.execPath, args: [serverScript('noop-check')], portPattern: /^PORT (\d+)$/m }));
    servers.push(await startAgent());
    for (const [i, label] of ['no-op grpc-js Check', 'Sluice agent Check'].entries()) {
      const target = { port: servers[i].port, path: CHECK_PATH, message, connections };
      await verifyUnary(target);
      targets.push({ label, server: servers[i], caller: await unaryCaller(client, target) });
    }
    console.log(`check-grpc: servers in their own processes (pids ${servers.map((s) => s.pid).join(', ')}), ${client} client over `
      + `${connections} connection(s), ${phaseMs / 1000}s per phase and target in ${ROUNDS} interleaved rounds; load average ${load()} (${os.cpus().length} CPUs)`);

    for (const t of targets) await closedLoop(t.caller, concurrency, WARMUP_MS);
    for (const t of targets) await openLoop(t.caller, { rate: 2000, ms: 300 });

    const roundMs = phaseMs / ROUNDS;
    const peak = targets.map(() => new Tally());
    for (let r = 0; r < ROUNDS; r++) {
      for (const [i, t] of targets.entries()) await peak[i].measure(t, roundMs / 1000, () => closedLoop(t.caller, concurrency, roundMs, peak[i].latency));
    }
    console.log(`peak (closed loop, ${concurrency} calls in flight):`);
    for (const [i, t] of targets.entries()) console.log(line(t.label, peak[i], false));
    const ratio = peak[1].rps / peak[0].rps;
    const cpuRatio = peak[0].serverUsPerCall / peak[1].serverUsPerCall;
    console.log(`  throughput Sluice/no-op ${ratio.toFixed(3)} (target >= 0.8); server CPU per call no-op/Sluice ${cpuRatio.toFixed(3)}`);

    const rate = Math.round(peak[0].rps / 2);
    const paced = await pacedPhase(targets, rate, ROUNDS);
    console.log(`paced (open loop at half the no-op's peak, ${rate} req/s evenly spaced; latency from each call's intended send time):`);
    for (const [i, t] of targets.entries()) console.log(line(t.label, paced[i], true));
    // Not a target: the same at a quarter, to tell queueing near a busy core from the cost of a call.
    const quarter = await pacedPhase(targets, Math.round(rate / 2), 1);
    console.log(`paced at a quarter of the no-op's peak (${Math.round(rate / 2)} req/s), for comparison:`);
    for (const [i, t] of targets.entries()) console.log(line(t.label, quarter[i], true));
    const p99 = paced[1].p(0.99);
    const met = { throughput: ratio >= 0.8, p99: p99 < 1 && paced[1].errors === 0 && paced[1].unanswered === 0 };
    console.log(`targets: throughput ${met.throughput ? 'met' : 'NOT met'} (${ratio.toFixed(3)} >= 0.8); `
      + `p99 ${met.p99 ? 'met' : 'NOT met'} (${ms3(p99)} < 1 ms; no-op p99 ${ms3(paced[0].p(0.99))}); load average ${load()}`);
    printResult('check-grpc', {
      throughput_ratio: ratio.toFixed(3),
      cpu_ratio: cpuRatio.toFixed(3),
      noop_rps: Math.round(peak[0].rps),
      sluice_rps: Math.round(peak[1].rps),
      paced_rps: rate,
      noop_p99_ms: paced[0].p(0.99).toFixed(3),
      sluice_p99_ms: p99.toFixed(3),
      quarter_sluice_p99_ms: quarter[1].p(0.99).toFixed(3),
      targets: met.throughput && met.p99 ? 'met' : 'not-met',
    });
  } finally {
    for (const t of targets) t.caller.close();
    await Promise.all(servers.map((s) => s.stop()));
  }
}

main().then(() => process.exit(0), (err: unknown) => { console.error(err); process.exit(1); });
