/**
 * The distributed counter cache against rate-limiter-flexible + Redis, in
 * the same run on the same machine: 3 members (3 processes) each with
 * `concurrency` takes in flight, vs 3 processes each with a RateLimiterRedis
 * client of one local redis-server, over the same labels. Both sides are
 * warmed up (connections, JIT) before anything is measured, and the measured
 * rounds alternate (distcache, redis, distcache, ...) so that other work on a
 * shared machine falls on both. Prints decisions/s, p50/p99 take latency, CPU
 * time per decision (all processes of each side: the members; the clients and
 * redis-server), accuracy at 5x overload (admitted ÷ what the limit allows),
 * and lazy sync's gain and error.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { HarnessProcess } from '@sluice/distcache/testing';
import { processCpuMs } from './support/proc-cpu.js';
import { loadAverage } from './support/ab-rounds.js';
import { printResult } from './support/result-line.js';

const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 3000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const WARMUP_MS = 2000;
const CONCURRENCY = 64;
const LABELS = 1000;

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(p));
    });
  });
}

async function members(n: number, extra: Record<string, unknown> = {}, group = 'bench'): Promise<HarnessProcess[]> {
  const ps: HarnessProcess[] = [];
  for (let i = 0; i < n; i++) {
    // the product's membership timings (the harness's default fast ones are for fault tests)
    const p = new HarnessProcess({ id: `${group}-${i}`, group, seeds: i === 0 ? [] : [ps[0].ready.gossipAddr], membership: {}, ...extra });
    await p.started();
    ps.push(p);
  }
  for (let tries = 0; tries < 100; tries++) {
    const rings = await Promise.all(ps.map(async (p) => ((await p.send({ op: 'stats' })).ring as string[]).length));
    if (rings.every((r) => r === n)) return ps;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('members never formed one ring');
}

async function stop(ps: HarnessProcess[]): Promise<void> {
  for (const p of ps) {
    p.kill('SIGTERM');
    await p.exited();
  }
}

const REDIS_CHILD = fileURLToPath(new URL('./distcache-redis-child.js', import.meta.url));

/** One run of a Redis baseline process (traffic mode): its result line. */
function redisChild(args: Record<string, unknown>): Promise<Record<string, number>> {
  return new Promise((resolve, reject) => {
    const c = spawn(process.execPath, [REDIS_CHILD, JSON.stringify(args)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    c.stdout.on('data', (d: Buffer) => (out += d.toString()));
    c.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out) as Record<string, number>) : reject(new Error(`redis child exited ${code}`))));
  });
}

/** A Redis baseline process in bench mode: warmed up once it is ready, one measured round per `round()`. */
class RedisBenchClient {
  private readonly child: ChildProcess;
  private readonly lines: Array<(line: Record<string, number>) => void> = [];
  readonly ready: Promise<Record<string, number>>;

  constructor(args: Record<string, unknown>) {
    this.child = spawn(process.execPath, [REDIS_CHILD, JSON.stringify({ ...args, mode: 'bench' })], { stdio: ['pipe', 'pipe', 'inherit'] });
    readline.createInterface({ input: this.child.stdout! }).on('line', (l) => this.lines.shift()?.(JSON.parse(l) as Record<string, number>));
    this.ready = this.next();
  }

  round(): Promise<Record<string, number>> {
    const r = this.next();
    this.child.stdin!.write('go\n');
    return r;
  }

  async stop(): Promise<void> {
    const exited = new Promise((r) => this.child.once('exit', r));
    this.child.stdin!.end();
    await exited;
  }

  private next(): Promise<Record<string, number>> {
    return new Promise((resolve, reject) => {
      const t = setTimeout(() => reject(new Error('redis bench client did not answer')), 60_000);
      this.lines.push((l) => {
        clearTimeout(t);
        resolve(l);
      });
    });
  }
}

interface Summary { perSec: number; p50: number; p99: number; p999: number; max: number; fallbacks: number; remoteShare: number; loopDelayP99Ms: number; cpuUsPerDecision: number; count: number }

/**
 * Over the rounds of one side: decisions per second leave out the takes that fell back (fail-open
 * without the owner's answer); latency is the worst process's, the median over rounds; CPU time
 * per decision is of every process of the side (`extraCpuUs`: redis-server's) over the decisions
 * counted (the fallbacks' CPU time is charged to them too).
 */
function summary(rounds: Array<Array<Record<string, unknown>>>, extraCpuUs = 0): Summary {
  const rs = rounds.flat();
  const n = (r: Record<string, unknown>, k: string): number => (typeof r[k] === 'number' ? r[k] : 0);
  const total = (k: string): number => rs.reduce((a, r) => a + n(r, k), 0);
  const medianOfWorst = (k: string): number => {
    const w = rounds.map((round) => Math.max(...round.map((r) => n(r, k)))).sort((a, b) => a - b);
    return w[Math.floor(w.length / 2)] ?? 0;
  };
  // `local` also counts the takes a member serves for others: the share of remote takes is of the takes made here
  const count = total('count');
  return {
    perSec: (count - total('fallbacks')) / ((rounds.length * DURATION_MS) / 1000),
    p50: medianOfWorst('p50'), p99: medianOfWorst('p99'), p999: medianOfWorst('p999'), max: medianOfWorst('max'),
    fallbacks: total('fallbacks'),
    remoteShare: count === 0 ? 0 : total('remote') / count,
    loopDelayP99Ms: medianOfWorst('loopDelayP99Ms'),
    cpuUsPerDecision: count === total('fallbacks') ? 0 : (total('cpuUs') + extraCpuUs) / (count - total('fallbacks')),
    count,
  };
}

/** Members whose ring formed more than the handover window ago (5 s), so no take waits on a handover pull. */
async function settled(ps: HarnessProcess[]): Promise<HarnessProcess[]> {
  await new Promise((r) => setTimeout(r, 5500));
  return ps;
}

const benchCmd = (params: Record<string, unknown>, durationMs: number): Record<string, unknown> => ({ op: 'bench', params, durationMs, concurrency: CONCURRENCY, labels: LABELS });
const fmt = (x: number, d = 2): string => x.toFixed(d);
const LIMIT = 300; // tokens per second
const OVERLOAD = { capacity: LIMIT, fillAmount: LIMIT, intervalMs: 1000, continuousFill: true };
const OVERLOAD_MS = 5000;
const allowed = LIMIT + (LIMIT * OVERLOAD_MS) / 1000; // a full bucket at the start plus the refill

const redisPort = await freePort();
const redis = spawn('redis-server', ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
try {
  await new Promise((r) => setTimeout(r, 300));
  const loadBefore = loadAverage();
  // 1. throughput, latency and CPU time per decision, in alternating rounds after a warm-up of both sides
  const big = { capacity: 1e12, fillAmount: 1e12, intervalMs: 1000, continuousFill: true };
  const dc = await settled(await members(3));
  const rdClients = [0, 1, 2].map(() => new RedisBenchClient({ port: redisPort, concurrency: CONCURRENCY, durationMs: DURATION_MS, labels: LABELS, points: 1e9, keyPrefix: 'b', warmupMs: WARMUP_MS }));
  await Promise.all([...rdClients.map((c) => c.ready), ...dc.map((p) => p.send(benchCmd(big, WARMUP_MS), 60_000))]);
  const dcRounds: Array<Array<Record<string, unknown>>> = [];
  const rdRounds: Array<Array<Record<string, unknown>>> = [];
  let redisServerCpuMs = 0;
  for (let r = 0; r < ROUNDS; r++) {
    dcRounds.push(await Promise.all(dc.map((p) => p.send(benchCmd(big, DURATION_MS), 60_000))));
    const cpu0 = processCpuMs(redis.pid!) ?? NaN;
    rdRounds.push(await Promise.all(rdClients.map((c) => c.round())));
    redisServerCpuMs += (processCpuMs(redis.pid!) ?? NaN) - cpu0;
  }
  await Promise.all(rdClients.map((c) => c.stop()));
  const dcRes = summary(dcRounds);
  const rdRes = summary(rdRounds, redisServerCpuMs * 1000);
  const perRound = dcRounds.map((d, i) => `${fmt(summary([d]).perSec / summary([rdRounds[i]]).perSec)} (${fmt(summary([d]).perSec, 0)}/${fmt(summary([rdRounds[i]]).perSec, 0)})`);
  const loadAfter = loadAverage();
  // 2. accuracy at 5x overload: each member offers 5/3 of the limit
  const over = await Promise.all(dc.map((p) => p.send({ op: 'traffic', label: 'hot', ratePerSec: (5 * LIMIT) / 3, durationMs: OVERLOAD_MS, params: OVERLOAD }, 60_000)));
  const dcAdmitted = over.reduce((a, r) => a + (r.admitted as number), 0);
  const dcOffered = over.reduce((a, r) => a + (r.offered as number), 0);
  const dcOverFallbacks = over.reduce((a, r) => a + (r.fallbacks as number), 0);
  await stop(dc);

  const rdOver = await Promise.all([0, 1, 2].map(() => redisChild({ port: redisPort, mode: 'traffic', durationMs: OVERLOAD_MS, ratePerSec: (5 * LIMIT) / 3, points: LIMIT, keyPrefix: 'o' })));
  const rdAdmitted = rdOver.reduce((a, r) => a + r.admitted, 0);
  const rdAllowed = (LIMIT * OVERLOAD_MS) / 1000; // fixed 1 s windows

  // 3. lazy sync: throughput and error at the same overload
  const lz = await settled(await members(3, { lazyNumSync: 10 }, 'lazy'));
  await Promise.all(lz.map((p) => p.send(benchCmd(big, WARMUP_MS), 60_000)));
  const lzRes = summary([await Promise.all(lz.map((p) => p.send(benchCmd(big, DURATION_MS), 60_000)))]);
  const lzOver = await Promise.all(lz.map((p) => p.send({ op: 'traffic', label: 'hot', ratePerSec: (5 * LIMIT) / 3, durationMs: OVERLOAD_MS, params: OVERLOAD }, 60_000)));
  const lzAdmitted = lzOver.reduce((a, r) => a + (r.admitted as number), 0);
  const lzOffered = lzOver.reduce((a, r) => a + (r.offered as number), 0);
  await stop(lz);

  const ratio = dcRes.perSec / rdRes.perSec;
  const cpuRatio = rdRes.cpuUsPerDecision / dcRes.cpuUsPerDecision;
  console.log(`${ROUNDS} alternating rounds of ${DURATION_MS} ms per side after a ${WARMUP_MS} ms warm-up; ${CONCURRENCY} takes in flight per process over ${LABELS} labels; load average ${loadBefore} before, ${loadAfter} after`);
  console.log(`distcache 3 members: ${fmt(dcRes.perSec, 0)} decisions/s (fallbacks ${dcRes.fallbacks}, not counted), p50 ${fmt(dcRes.p50)} ms, p99 ${fmt(dcRes.p99)} ms, p99.9 ${fmt(dcRes.p999)} ms, max ${fmt(dcRes.max)} ms; ${fmt(100 * dcRes.remoteShare, 0)}% of takes remote; event-loop delay p99 ${fmt(dcRes.loopDelayP99Ms)} ms; CPU ${fmt(dcRes.cpuUsPerDecision, 1)} us per decision (the 3 members)`);
  console.log(`redis (rate-limiter-flexible) 3 clients: ${fmt(rdRes.perSec, 0)} decisions/s, p50 ${fmt(rdRes.p50)} ms, p99 ${fmt(rdRes.p99)} ms; CPU ${fmt(rdRes.cpuUsPerDecision, 1)} us per decision (the 3 clients and redis-server, ${fmt((redisServerCpuMs * 1000) / rdRes.count, 1)} of it redis-server's)`);
  console.log(`ratio decisions/s distcache/redis: ${fmt(ratio)} (per round ${perRound.join(' ')}); target >= 2 ${ratio >= 2 ? 'met' : 'NOT met'}; CPU per decision redis/distcache: ${fmt(cpuRatio)}`);
  console.log(`accuracy at 5x overload: distcache admitted ${dcAdmitted} of ${allowed} allowed (${fmt(dcAdmitted / allowed, 3)}; offered ${dcOffered}, fallbacks ${dcOverFallbacks}); redis ${rdAdmitted} of ${rdAllowed} (${fmt(rdAdmitted / rdAllowed, 3)})`);
  console.log(`lazy sync (num_sync 10): ${fmt(lzRes.perSec, 0)} decisions/s (${fmt(lzRes.perSec / dcRes.perSec)}x), p99 ${fmt(lzRes.p99)} ms; admitted ${lzAdmitted} of ${allowed} (${fmt(lzAdmitted / allowed, 3)}; offered ${lzOffered})`);
  printResult('distcache', {
    decisions_per_s: Math.round(dcRes.perSec), redis_decisions_per_s: Math.round(rdRes.perSec), ratio: fmt(ratio), target: ratio >= 2 ? 'met' : 'not_met',
    cpu_us_per_decision: fmt(dcRes.cpuUsPerDecision, 1), redis_cpu_us_per_decision: fmt(rdRes.cpuUsPerDecision, 1), cpu_ratio: fmt(cpuRatio),
    p99_ms: fmt(dcRes.p99), redis_p99_ms: fmt(rdRes.p99), accuracy: fmt(dcAdmitted / allowed, 3), redis_accuracy: fmt(rdAdmitted / rdAllowed, 3),
    lazy_accuracy: fmt(lzAdmitted / allowed, 3), load: loadAfter,
  });
} finally {
  redis.kill('SIGTERM');
}
