/**
 * The agent's garbage collection and memory under Check load: the real agent is started through
 * bin/sluice-agent (so the V8 flags the script sets apply) with --trace-gc added by
 * SLUICE_NODE_FLAGS, and driven from this process with pre-encoded HTTP/2 frames. Each GC the
 * agent prints is collected. Phases: idle (RSS after start-up); closed loop for the peak rate
 * (the highest rate this machine reaches, and RSS there); open loop at half of it; open loop at
 * 5 000 checks/s. Each loaded phase prints its pauses (count, p50, p99, max by kind, and how many
 * were over 20 ms), the agent's RSS (read from /proc every 200 ms), its CPU per check (utime +
 * stime from /proc, which a busy machine disturbs less than the rates), and the heap it allocated
 * per check (summed from the GC lines: each GC's size before minus the previous GC's size after).
 * RSS at 5 000 checks/s is read at steady state: the phase runs twice as long and the median of
 * the samples of its second half is the figure (the maximum is printed beside it). At idle and at
 * the end of that phase the agent prints where its memory is (process.memoryUsage, the V8 heap
 * spaces; a probe module given with --import answers SIGUSR2) and the bench reads anonymous against
 * file-backed resident memory from /proc/<pid>/smaps_rollup (file-backed is mostly the node binary's
 * own code and data pages, ~35 MB for a bare `node`).
 * Targets (issue 7): no pause over 20 ms at half of peak, RSS <= 64 MB at 5 000 checks/s.
 *
 *   npx tsc -b bench && node bench/dist/agent-gc.js [seconds-per-phase=4]
 *
 * SLUICE_BENCH_NODE_FLAGS adds Node/V8 flags after the script's (the last of a flag wins), to
 * compare settings: SLUICE_BENCH_NODE_FLAGS=--max-semi-space-size=16 node bench/dist/agent-gc.js
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serviceClient } from '@sluice/proto';
import { ROOT } from './support/bench-paths.js';
import { BENCH_CHECK_REQUEST, BENCH_LIMITERS_YAML, BENCH_SERVICES, CHECK_PATH } from './support/check-fixture.js';
import { limitRunTime } from './support/child-server.js';
import { closedLoop, openLoop, type LoopResult } from './support/load-loops.js';
import { processCpuMs } from './support/proc-cpu.js';
import { printResult } from './support/result-line.js';
import { unaryCaller, verifyUnary, type UnaryCaller } from './support/unary-caller.js';

const phaseMs = Math.min(8, Math.max(1, Number(process.argv[2] ?? 4))) * 1000;
const TARGET_RATE = 5000;
const PAUSE_LIMIT_MS = 20;

interface Gc { kind: string; ms: number; beforeMb: number; afterMb: number }

/** A --trace-gc line: `[pid:0x..]   123 ms: Scavenge 4.1 (5.2) -> 3.0 (6.2) MB, 0.87 / 0.00 ms  (...)`. */
const GC_LINE = /ms: (Scavenge|Mark-Compact|Mark-sweep|Minor Mark-Compact|Mark-Compact \(reduce\))[^\d]*([\d.]+) \([\d.]+\) -> ([\d.]+) \([\d.]+\) MB, ([\d.]+) \/ ([\d.]+) ms/;

/** Loaded into the agent with --import: on SIGUSR2 it prints one line of where its memory is. */
const PROBE = `import v8 from 'node:v8';
process.on('SIGUSR2', () => {
  const spaces = {};
  for (const s of v8.getHeapSpaceStatistics()) spaces[s.space_name] = s.space_size;
  process.stderr.write('SLUICE_BENCH_MEMORY ' + JSON.stringify({ ...process.memoryUsage(), spaces }) + '\\n');
});`;
const PROBE_URL = `data:text/javascript,${encodeURIComponent(PROBE)}`;
const PROBE_LINE = /SLUICE_BENCH_MEMORY (\{.*\})/;

interface MemoryReport { rss: number; heapTotal: number; heapUsed: number; external: number; arrayBuffers: number; spaces: Record<string, number> }

/** Anonymous and file-backed resident kB from /proc/<pid>/smaps_rollup. */
function residentKinds(pid: number): { anonMb: number; fileMb: number } {
  try {
    const text = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
    const kb = (key: string): number => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? NaN);
    return { anonMb: kb('Anonymous') / 1024, fileMb: (kb('Rss') - kb('Anonymous')) / 1024 };
  } catch {
    return { anonMb: NaN, fileMb: NaN };
  }
}

/** `rss 110.2 MB = anon 63.1 + file 47.1; heap 52.5 total (new 8.0, old 40.7, code 2.3, large 1.5), 35.8 used; external 3.6 (array buffers 0.1)`. */
function breakdown(pid: number, m: MemoryReport | undefined): string {
  const mb = (b: number | undefined): string => ((b ?? NaN) / 1048576).toFixed(1);
  const { anonMb, fileMb } = residentKinds(pid);
  const kinds = `anon ${anonMb.toFixed(1)} + file-backed ${fileMb.toFixed(1)}`;
  if (m === undefined) return `RSS ${rssMb(pid).toFixed(1)} MB = ${kinds} (no memory report from the agent)`;
  const sp = m.spaces;
  const large = (sp.large_object_space ?? 0) + (sp.code_large_object_space ?? 0) + (sp.new_large_object_space ?? 0);
  return `RSS ${mb(m.rss)} MB = ${kinds}; V8 heap ${mb(m.heapTotal)} (new ${mb(sp.new_space)}, old ${mb(sp.old_space)}, code ${mb(sp.code_space)}, ` +
    `large objects ${mb(large)}), ${mb(m.heapUsed)} used; external ${mb(m.external)} (array buffers ${mb(m.arrayBuffers)})`;
}

function rssMb(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m === null ? NaN : Number(m[1]) / 1024;
  } catch {
    return NaN;
  }
}

function summary(gcs: readonly Gc[]): string {
  const byKind = new Map<string, number[]>();
  for (const p of gcs) {
    const list = byKind.get(p.kind);
    if (list === undefined) byKind.set(p.kind, [p.ms]);
    else list.push(p.ms);
  }
  const parts: string[] = [];
  for (const [kind, list] of byKind) {
    const s = [...list].sort((a, b) => a - b);
    const q = (x: number): string => s[Math.min(s.length - 1, Math.floor(x * s.length))].toFixed(2);
    parts.push(`${kind}: ${s.length} pauses, p50 ${q(0.5)} ms, p99 ${q(0.99)} ms, max ${s[s.length - 1].toFixed(2)} ms`);
  }
  return parts.length === 0 ? 'no pauses' : parts.join('; ');
}

const maxOf = (gcs: readonly Gc[]): number => gcs.reduce((m, p) => Math.max(m, p.ms), 0);
const over = (gcs: readonly Gc[]): number => gcs.filter((p) => p.ms > PAUSE_LIMIT_MS).length;

/** What one loaded phase measured of the agent. */
interface Phase {
  run: LoopResult;
  gcs: Gc[];
  rssMax: number;
  /** Median RSS over the second half of the phase. */
  rssSteady: number;
  cpuUsPerCheck: number;
  allocKbPerCheck: number;
}

async function main(): Promise<void> {
  limitRunTime('agent-gc', 100_000);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sluice-bench-gc-'));
  const limiters = path.join(dir, 'limiters.yaml');
  writeFileSync(limiters, BENCH_LIMITERS_YAML);
  const extraFlags = process.env.SLUICE_BENCH_NODE_FLAGS ?? '';
  const child = spawn('/bin/sh', [path.join(ROOT, 'bin', 'sluice-agent'), '--local-limiters', limiters], {
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir,
      SLUICE_NODE_FLAGS: `--trace-gc --import ${PROBE_URL} ${extraFlags}`.trim(),
      SLUICE_AGENT_ETCD_ENDPOINTS: '["http://127.0.0.1:2379"]',
      SLUICE_AGENT_SERVER_LISTENER_ADDR: '127.0.0.1:0',
      // The dist cache's defaults (:3320, :3322) would collide with another agent on this host.
      SLUICE_AGENT_DIST_CACHE_BIND_ADDR: '127.0.0.1:0',
      SLUICE_AGENT_DIST_CACHE_MEMBERLIST_BIND_ADDR: '127.0.0.1:0',
      SLUICE_AGENT_SERVICE_DISCOVERY_STATIC_ENTITIES: JSON.stringify([{ ip_address: '127.0.0.1', uid: 'bench', services: BENCH_SERVICES }]),
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const stop = (): void => { if (child.exitCode === null) child.kill('SIGKILL'); rmSync(dir, { recursive: true, force: true }); };
  process.once('exit', stop);
  let gcs: Gc[] = [];
  let buffered = '';
  let port = 0;
  let onMemory: ((m: MemoryReport) => void) | undefined;
  const portSeen = new Promise<void>((resolve, reject) => {
    const onData = (d: Buffer): void => {
      buffered += d.toString();
      let nl: number;
      while ((nl = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 1);
        const gc = GC_LINE.exec(line);
        if (gc !== null) gcs.push({ kind: gc[1], beforeMb: Number(gc[2]), afterMb: Number(gc[3]), ms: Number(gc[4]) });
        const mem = PROBE_LINE.exec(line);
        if (mem !== null) onMemory?.(JSON.parse(mem[1]) as MemoryReport);
        const p = /"msg":"server listening".*?"port":(\d+)/.exec(line);
        if (p !== null && port === 0) { port = Number(p[1]); resolve(); }
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`agent exited (${code ?? 'signal'}) before listening`)));
  });
  await portSeen;
  // `sh` execs node, so the child's pid is the agent's.
  const pid = child.pid ?? 0;
  /** The agent's memory report and the resident kinds, as one line. */
  const memory = async (): Promise<string> => {
    const report = new Promise<MemoryReport | undefined>((resolve) => {
      const timer = setTimeout(() => resolve(undefined), 2000);
      onMemory = (m) => { clearTimeout(timer); resolve(m); };
    });
    child.kill('SIGUSR2');
    const m = await report;
    onMemory = undefined;
    return breakdown(pid, m);
  };
  await new Promise((r) => setTimeout(r, 2000));
  const idleRss = rssMb(pid);
  const idleMemory = await memory();
  const message = serviceClient('flowControl').service.Check.requestSerialize(BENCH_CHECK_REQUEST);
  const target = { port, path: CHECK_PATH, message, connections: 1 };
  await verifyUnary(target);
  const caller = await unaryCaller('raw-h2', target);

  /** Runs `load`, measuring the agent meanwhile. */
  const measured = async (load: (c: UnaryCaller, ms: number) => Promise<LoopResult>, ms = phaseMs): Promise<Phase> => {
    gcs = [];
    const rss: number[] = [];
    const sampler = setInterval(() => rss.push(rssMb(pid)), 200);
    const stdy = (): number => {
      const late = rss.slice(Math.floor(rss.length / 2)).sort((a, b) => a - b);
      return late.length === 0 ? rssMb(pid) : late[Math.floor(late.length / 2)];
    };
    const cpu0 = processCpuMs(pid) ?? NaN;
    const run = await load(caller, ms);
    const cpu1 = processCpuMs(pid) ?? NaN;
    clearInterval(sampler);
    const phaseGcs = gcs;
    let allocMb = 0;
    for (let i = 1; i < phaseGcs.length; i++) allocMb += Math.max(0, phaseGcs[i].beforeMb - phaseGcs[i - 1].afterMb);
    const checks = run.rps * (ms / 1000);
    return {
      run, gcs: phaseGcs, rssMax: Math.max(rssMb(pid), ...rss), rssSteady: stdy(),
      cpuUsPerCheck: ((cpu1 - cpu0) * 1000) / Math.max(1, checks),
      allocKbPerCheck: phaseGcs.length < 2 ? NaN : (allocMb * 1024) / Math.max(1, checks),
    };
  };
  const line = (name: string, p: Phase): string =>
    `  ${name}: answered ${Math.round(p.run.rps)}/s, errors ${p.run.errors}; ${summary(p.gcs)}; pauses > ${PAUSE_LIMIT_MS} ms: ${over(p.gcs)}; ` +
    `RSS ${p.rssSteady.toFixed(1)} MB (max ${p.rssMax.toFixed(1)}); agent CPU ${p.cpuUsPerCheck.toFixed(1)} µs/check; heap allocated ${p.allocKbPerCheck.toFixed(1)} kB/check`;

  try {
    await closedLoop(caller, 32, 1000);
    const peak = await measured((c, ms) => closedLoop(c, 32, ms));
    const half = Math.round(peak.run.rps / 2);
    const halfPhase = await measured((c, ms) => openLoop(c, { rate: half, ms }));
    // Twice as long, for a steady state to read RSS at.
    const fixed = await measured((c, ms) => openLoop(c, { rate: TARGET_RATE, ms }), 2 * phaseMs);
    const loadedMemory = await memory();
    const reached = fixed.run.rps >= TARGET_RATE * 0.98;
    const flags = `${readFileSync(path.join(ROOT, 'bin', 'sluice-agent'), 'utf8').match(/^V8_FLAGS=.*$/m)?.[0] ?? '(none)'} ${extraFlags}`.trim();
    console.log(`agent-gc: bin/sluice-agent with --trace-gc (pid ${pid}; ${flags}), raw-h2 load, ${phaseMs / 1000}s per phase; load average ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`);
    console.log(`  idle: ${idleMemory}`);
    console.log(line('peak (closed loop, 32 in flight)', peak));
    console.log(line(`half of peak (${half}/s)`, halfPhase));
    console.log(line(`${TARGET_RATE}/s${reached ? '' : ' (not reached on this machine)'}`, fixed));
    console.log(`  at the end of ${TARGET_RATE}/s: ${loadedMemory}`);
    const rssAtRate = reached ? fixed.rssSteady : Math.max(fixed.rssSteady, peak.rssSteady);
    console.log(`  targets: no pause over ${PAUSE_LIMIT_MS} ms at half of peak (max ${maxOf(halfPhase.gcs).toFixed(2)} ms, ${over(halfPhase.gcs)} over), ` +
      `RSS <= 64 MB at ${TARGET_RATE}/s (${reached ? '' : `not reached; at the highest rate, ${Math.round(Math.max(peak.run.rps, fixed.run.rps))}/s: `}steady ${rssAtRate.toFixed(1)} MB)`);
    printResult('agent-gc', {
      idle_rss_mb: idleRss.toFixed(1),
      peak_rps: Math.round(peak.run.rps),
      peak_rss_mb: peak.rssSteady.toFixed(1),
      peak_cpu_us_per_check: peak.cpuUsPerCheck.toFixed(1),
      peak_alloc_kb_per_check: peak.allocKbPerCheck.toFixed(1),
      half_max_pause_ms: maxOf(halfPhase.gcs).toFixed(2),
      half_pauses_over_20ms: over(halfPhase.gcs),
      half_mark_compacts: halfPhase.gcs.filter((p) => p.kind.startsWith('Mark')).length,
      rate5k_answered_rps: Math.round(fixed.run.rps),
      rate5k_max_pause_ms: maxOf(fixed.gcs).toFixed(2),
      rate5k_rss_mb: fixed.rssSteady.toFixed(1),
      rate5k_rss_max_mb: fixed.rssMax.toFixed(1),
      rate5k_pauses_over_20ms: over(fixed.gcs),
      rate5k_cpu_us_per_check: fixed.cpuUsPerCheck.toFixed(1),
      rate5k_alloc_kb_per_check: fixed.allocKbPerCheck.toFixed(1),
      target: maxOf(halfPhase.gcs) <= PAUSE_LIMIT_MS && reached && fixed.rssSteady <= 64 ? 'met' : 'not-met',
    });
  } finally {
    caller.close();
    stop();
  }
}

main().then(() => process.exit(0), (err: unknown) => { console.error(err); process.exit(1); });
