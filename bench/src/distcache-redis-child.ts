/**
 * One "agent" of the Redis baseline: rate-limiter-flexible's RateLimiterRedis
 * over ioredis (its defaults: one connection, commands written as they come),
 * driven like the distcache harness's bench and traffic commands.
 * argv[2] = JSON {port, mode: 'bench'|'traffic', concurrency, durationMs, labels, points, ratePerSec, keyPrefix, warmupMs}.
 *
 * bench: warms up for `warmupMs` (connection, JIT), prints `{"ready":true}`, then runs one measured
 * round of `durationMs` per `go` line on stdin (so the parent starts the rounds of all clients at
 * once), printing each round's result line; it exits when stdin closes.
 * traffic: one open-loop run at `ratePerSec`, then its result line.
 */
import readline from 'node:readline';
import { Redis } from 'ioredis';
import { RateLimiterRedis } from 'rate-limiter-flexible';

const a = JSON.parse(process.argv[2] ?? '{}') as { port: number; mode: string; concurrency: number; durationMs: number; labels: number; points: number; ratePerSec: number; keyPrefix: string; warmupMs?: number };
const redis = new Redis({ port: a.port, host: '127.0.0.1', enableOfflineQueue: true });
const limiter = new RateLimiterRedis({ storeClient: redis, points: a.points, duration: 1, keyPrefix: a.keyPrefix });

async function take(key: string): Promise<boolean> {
  try {
    await limiter.consume(key, 1);
    return true;
  } catch (e) {
    if (e instanceof Error) throw e;
    return false; // a RateLimiterRes: rejected
  }
}

/** Closed loop, `concurrency` takes in flight over `labels` labels, measured as the harness's bench measures. */
async function closedLoop(durationMs: number): Promise<Record<string, number>> {
  const end = Date.now() + durationMs;
  const lat: number[] = [];
  let admitted = 0;
  const cpu0 = process.cpuUsage();
  await Promise.all(Array.from({ length: a.concurrency }, async (_, w) => {
    for (let i = w; Date.now() < end; i++) {
      const t0 = process.hrtime.bigint();
      if (await take(`l${i % a.labels}`)) admitted++;
      lat.push(Number(process.hrtime.bigint() - t0) / 1e6);
    }
  }));
  const cpu = process.cpuUsage(cpu0);
  lat.sort((x, y) => x - y);
  const q = (f: number): number => lat[Math.min(lat.length - 1, Math.floor(f * lat.length))] ?? 0;
  return { count: lat.length, admitted, p50: q(0.5), p99: q(0.99), p999: q(0.999), max: lat[lat.length - 1] ?? 0, cpuUs: cpu.user + cpu.system };
}

const print = (r: Record<string, unknown>): void => void process.stdout.write(`${JSON.stringify(r)}\n`);

if (a.mode === 'bench') {
  await closedLoop(a.warmupMs ?? 500);
  print({ ready: true });
  const rl = readline.createInterface({ input: process.stdin });
  for await (const line of rl) {
    if (line.trim() === 'go') print(await closedLoop(a.durationMs));
  }
} else {
  const end = Date.now() + a.durationMs;
  let admitted = 0;
  const pending: Promise<void>[] = [];
  while (Date.now() < end) {
    pending.push(take('hot').then((ok) => void (ok && admitted++)));
    await new Promise((r) => setTimeout(r, 1000 / a.ratePerSec));
  }
  await Promise.all(pending);
  print({ admitted });
}
redis.disconnect();
