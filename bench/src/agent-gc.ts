/**
 * The agent's garbage collection under Check load: the real sluice-agent runs with --trace-gc
 * (its own process; this one drives it with pre-encoded HTTP/2 frames), and each GC pause it
 * prints is collected. Phases: closed loop for the peak rate; open loop at half of it (pauses:
 * count, p50, p99, max by kind); open loop at 5 000 checks/s (pauses, and the agent's RSS read
 * from /proc every 200 ms). Targets (issue 7): no pause over 20 ms at half of peak, RSS <= 64 MB
 * at 5 000 checks/s.
 *
 *   npx tsc -p bench && node bench/dist/agent-gc.js [seconds-per-phase=4]
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serviceClient } from '@sluice/proto';
import { ROOT } from './support/bench-paths.js';
import { BENCH_CHECK_REQUEST, BENCH_LIMITERS_YAML, BENCH_SERVICES, CHECK_PATH } from './support/check-fixture.js';
import { limitRunTime } from './support/child-server.js';
import { closedLoop, openLoop } from './support/load-loops.js';
import { printResult } from './support/result-line.js';
import { unaryCaller, verifyUnary } from './support/unary-caller.js';

const phaseMs = Math.min(8, Math.max(1, Number(process.argv[2] ?? 4))) * 1000;
const TARGET_RATE = 5000;

interface Pause { kind: string; ms: number }

/** A --trace-gc line: `[pid:0x..]   123 ms: Scavenge 4.1 (5.2) -> 3.0 (6.2) MB, 0.87 / 0.00 ms  (...)`. */
const GC_LINE = /ms: (Scavenge|Mark-Compact|Mark-sweep|Minor Mark-Compact|Mark-Compact \(reduce\))[^,]*, ([\d.]+) \/ ([\d.]+) ms/;

function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m === null ? NaN : Number(m[1]) / 1024;
}

function summary(pauses: Pause[]): string {
  const byKind = new Map<string, number[]>();
  for (const p of pauses) byKind.set(p.kind, [...(byKind.get(p.kind) ?? []), p.ms]);
  const parts: string[] = [];
  for (const [kind, list] of byKind) {
    const s = [...list].sort((a, b) => a - b);
    const q = (x: number): string => s[Math.min(s.length - 1, Math.floor(x * s.length))].toFixed(2);
    parts.push(`${kind}: ${s.length} pauses, p50 ${q(0.5)} ms, p99 ${q(0.99)} ms, max ${s[s.length - 1].toFixed(2)} ms`);
  }
  return parts.length === 0 ? 'no pauses' : parts.join('; ');
}

const maxOf = (pauses: Pause[]): number => pauses.reduce((m, p) => Math.max(m, p.ms), 0);

async function main(): Promise<void> {
  limitRunTime('agent-gc', 90_000);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sluice-bench-gc-'));
  const limiters = path.join(dir, 'limiters.yaml');
  writeFileSync(limiters, BENCH_LIMITERS_YAML);
  const child = spawn(process.execPath, ['--trace-gc', path.join(ROOT, 'apps', 'agent', 'dist', 'main.js'), '--local-limiters', limiters], {
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir,
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
  let pauses: Pause[] = [];
  let buffered = '';
  let port = 0;
  const portSeen = new Promise<void>((resolve, reject) => {
    const onData = (d: Buffer): void => {
      buffered += d.toString();
      let nl: number;
      while ((nl = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 1);
        const gc = GC_LINE.exec(line);
        if (gc !== null) pauses.push({ kind: gc[1], ms: Number(gc[2]) });
        const p = /"msg":"server listening".*?"port":(\d+)/.exec(line);
        if (p !== null && port === 0) { port = Number(p[1]); resolve(); }
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`agent exited (${code ?? 'signal'}) before listening`)));
  });
  await portSeen;
  const message = serviceClient('flowControl').service.Check.requestSerialize(BENCH_CHECK_REQUEST);
  const target = { port, path: CHECK_PATH, message, connections: 1 };
  await verifyUnary(target);
  const caller = await unaryCaller('raw-h2', target);
  try {
    await closedLoop(caller, 32, 1000);
    const peak = await closedLoop(caller, 32, phaseMs);
    const half = Math.round(peak.rps / 2);
    pauses = [];
    const rssHalf: number[] = [];
    const sampler1 = setInterval(() => rssHalf.push(rssMb(child.pid ?? 0)), 200);
    const halfRun = await openLoop(caller, { rate: half, ms: phaseMs });
    clearInterval(sampler1);
    const halfPauses = pauses;
    pauses = [];
    const rss: number[] = [];
    const sampler2 = setInterval(() => rss.push(rssMb(child.pid ?? 0)), 200);
    const fixedRun = await openLoop(caller, { rate: TARGET_RATE, ms: phaseMs });
    clearInterval(sampler2);
    const fixedPauses = pauses;
    const maxRss = Math.max(...rss);
    console.log(`agent-gc: sluice-agent with --trace-gc (pid ${child.pid}), raw-h2 load, ${phaseMs / 1000}s per phase; load average ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`);
    console.log(`  peak (closed loop, 32 in flight): ${Math.round(peak.rps)} checks/s, errors ${peak.errors}`);
    console.log(`  half of peak (${half}/s, answered ${Math.round(halfRun.rps)}/s, errors ${halfRun.errors}): ${summary(halfPauses)}; RSS max ${Math.max(...rssHalf).toFixed(1)} MB`);
    console.log(`  ${TARGET_RATE}/s (answered ${Math.round(fixedRun.rps)}/s, errors ${fixedRun.errors}): ${summary(fixedPauses)}; RSS max ${maxRss.toFixed(1)} MB`);
    console.log(`  targets: no pause over 20 ms at half of peak (max ${maxOf(halfPauses).toFixed(2)} ms), RSS <= 64 MB at ${TARGET_RATE}/s (max ${maxRss.toFixed(1)} MB)`);
    printResult('agent-gc', {
      peak_rps: Math.round(peak.rps),
      half_max_pause_ms: maxOf(halfPauses).toFixed(2),
      half_mark_compacts: halfPauses.filter((p) => p.kind.startsWith('Mark')).length,
      rate5k_max_pause_ms: maxOf(fixedPauses).toFixed(2),
      rate5k_rss_max_mb: maxRss.toFixed(1),
      target: maxOf(halfPauses) <= 20 && maxRss <= 64 ? 'met' : 'not-met',
    });
  } finally {
    caller.close();
    stop();
  }
}

main().then(() => process.exit(0), (err: unknown) => { console.error(err); process.exit(1); });
