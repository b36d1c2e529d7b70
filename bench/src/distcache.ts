/**
 * The distributed counter cache against rate-limiter-flexible + Redis, in
 * the same run on the same machine: 3 members (3 processes) each with
 * `concurrency` takes in flight, vs 3 processes each with a RateLimiterRedis
 * client of one local redis-server. Prints decisions/s, p50/p99 take latency,
 * accuracy at 5x overload (admitted ÷ what the limit allows), and lazy sync's
 * gain and error.
 */
import { spawn } from 'node:child_process';
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import { HarnessProcess } from '@sluice/distcache';

const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 3000);
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
    const p = new HarnessProcess({ id: `${group}-${i}`, group, seeds: i === 0 ? [] : [ps[0].ready.gossipAddr], ...extra });
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

function redisChild(args: Record<string, unknown>): Promise<Record<string, number>> {
  const script = fileURLToPath(new URL('./distcache-redis-child.js', import.meta.url));
  return new Promise((resolve, reject) => {
    const c = spawn(process.execPath, [script, JSON.stringify(args)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    c.stdout.on('data', (d: Buffer) => (out += d.toString()));
    c.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out) as Record<string, number>) : reject(new Error(`redis child exited ${code}`))));
  });
}

interface Summary { perSec: number; p50: number; p99: number; p999: number; max: number; fallbacks: number; remoteShare: number; loopDelayP99Ms: number }

/** Decisions per second leave out the takes that fell back (fail-open without the owner's answer). */
function summary(rs: Array<Record<string, unknown>>): Summary {
  const n = (r: Record<string, unknown>, k: string): number => (typeof r[k] === 'number' ? r[k] : 0);
  const total = (k: string): number => rs.reduce((a, r) => a + n(r, k), 0);
  const worst = (k: string): number => Math.max(...rs.map((r) => n(r, k)));
  // `local` also counts the takes a member serves for others: the share of remote takes is of the takes made here
  const count = total('count');
  return {
    perSec: (total('count') - total('fallbacks')) / (DURATION_MS / 1000),
    p50: worst('p50'), p99: worst('p99'), p999: worst('p999'), max: worst('max'),
    fallbacks: total('fallbacks'),
    remoteShare: count === 0 ? 0 : total('remote') / count,
    loopDelayP99Ms: worst('loopDelayP99Ms'),
  };
}

/** Members whose ring formed more than the handover window ago (5 s), so no take waits on a handover pull. */
async function settled(ps: HarnessProcess[]): Promise<HarnessProcess[]> {
  await new Promise((r) => setTimeout(r, 5500));
  return ps;
}

const fmt = (x: number, d = 2): string => x.toFixed(d);
const LIMIT = 300; // tokens per second
const OVERLOAD = { capacity: LIMIT, fillAmount: LIMIT, intervalMs: 1000, continuousFill: true };
const OVERLOAD_MS = 5000;
const allowed = LIMIT + (LIMIT * OVERLOAD_MS) / 1000; // a full bucket at the start plus the refill

const redisPort = await freePort();
const redis = spawn('redis-server', ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
try {
  await new Promise((r) => setTimeout(r, 300));
  // 1. throughput and latency
  const big = { capacity: 1e12, fillAmount: 1e12, intervalMs: 1000, continuousFill: true };
  const dc = await settled(await members(3));
  const dcRes = summary(await Promise.all(dc.map((p) => p.send({ op: 'bench', params: big, durationMs: DURATION_MS, concurrency: CONCURRENCY, labels: LABELS }, 60_000))));
  // 2. accuracy at 5x overload: each member offers 5/3 of the limit
  const over = await Promise.all(dc.map((p) => p.send({ op: 'traffic', label: 'hot', ratePerSec: (5 * LIMIT) / 3, durationMs: OVERLOAD_MS, params: OVERLOAD }, 60_000)));
  const dcAdmitted = over.reduce((a, r) => a + (r.admitted as number), 0);
  const dcOffered = over.reduce((a, r) => a + (r.offered as number), 0);
  const dcOverFallbacks = over.reduce((a, r) => a + (r.fallbacks as number), 0);
  await stop(dc);

  const rdRes = summary(await Promise.all([0, 1, 2].map(() => redisChild({ port: redisPort, mode: 'bench', concurrency: CONCURRENCY, durationMs: DURATION_MS, labels: LABELS, points: 1e9, keyPrefix: 'b' }))));
  const rdOver = await Promise.all([0, 1, 2].map(() => redisChild({ port: redisPort, mode: 'traffic', durationMs: OVERLOAD_MS, ratePerSec: (5 * LIMIT) / 3, points: LIMIT, keyPrefix: 'o' })));
  const rdAdmitted = rdOver.reduce((a, r) => a + r.admitted, 0);
  const rdAllowed = (LIMIT * OVERLOAD_MS) / 1000; // fixed 1 s windows

  // 3. lazy sync: throughput and error at the same overload
  const lz = await settled(await members(3, { lazyNumSync: 10 }, 'lazy'));
  const lzRes = summary(await Promise.all(lz.map((p) => p.send({ op: 'bench', params: big, durationMs: DURATION_MS, concurrency: CONCURRENCY, labels: LABELS }, 60_000))));
  const lzOver = await Promise.all(lz.map((p) => p.send({ op: 'traffic', label: 'hot', ratePerSec: (5 * LIMIT) / 3, durationMs: OVERLOAD_MS, params: OVERLOAD }, 60_000)));
  const lzAdmitted = lzOver.reduce((a, r) => a + (r.admitted as number), 0);
  const lzOffered = lzOver.reduce((a, r) => a + (r.offered as number), 0);
  await stop(lz);

  console.log(`distcache 3 members: ${fmt(dcRes.perSec, 0)} decisions/s (fallbacks ${dcRes.fallbacks}, not counted), p50 ${fmt(dcRes.p50)} ms, p99 ${fmt(dcRes.p99)} ms, p99.9 ${fmt(dcRes.p999)} ms, max ${fmt(dcRes.max)} ms; ${fmt(100 * dcRes.remoteShare, 0)}% of takes remote; event-loop delay p99 ${fmt(dcRes.loopDelayP99Ms)} ms (the tail follows the members' starved event loops)`);
  console.log(`redis (rate-limiter-flexible) 3 clients: ${fmt(rdRes.perSec, 0)} decisions/s, p50 ${fmt(rdRes.p50)} ms, p99 ${fmt(rdRes.p99)} ms`);
  console.log(`ratio decisions/s distcache/redis: ${fmt(dcRes.perSec / rdRes.perSec)}`);
  console.log(`accuracy at 5x overload: distcache admitted ${dcAdmitted} of ${allowed} allowed (${fmt(dcAdmitted / allowed, 3)}; offered ${dcOffered}, fallbacks ${dcOverFallbacks}); redis ${rdAdmitted} of ${rdAllowed} (${fmt(rdAdmitted / rdAllowed, 3)})`);
  console.log(`lazy sync (num_sync 10): ${fmt(lzRes.perSec, 0)} decisions/s (${fmt(lzRes.perSec / dcRes.perSec)}x), p99 ${fmt(lzRes.p99)} ms; admitted ${lzAdmitted} of ${allowed} (${fmt(lzAdmitted / allowed, 3)}; offered ${lzOffered})`);
} finally {
  redis.kill('SIGTERM');
}
