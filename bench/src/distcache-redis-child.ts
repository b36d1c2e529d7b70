/**
 * One "agent" of the Redis baseline: rate-limiter-flexible's RateLimiterRedis
 * over ioredis, driven like the distcache harness's bench and traffic commands.
 * argv[2] = JSON {port, mode: 'bench'|'traffic', concurrency, durationMs, labels, points, ratePerSec}.
 */
import { Redis } from 'ioredis';
import { RateLimiterRedis } from 'rate-limiter-flexible';

const a = JSON.parse(process.argv[2] ?? '{}') as { port: number; mode: string; concurrency: number; durationMs: number; labels: number; points: number; ratePerSec: number; keyPrefix: string };
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

const end = Date.now() + a.durationMs;
const lat: number[] = [];
let admitted = 0;
if (a.mode === 'bench') {
  await Promise.all(Array.from({ length: a.concurrency }, async (_, w) => {
    for (let i = w; Date.now() < end; i++) {
      const t0 = process.hrtime.bigint();
      if (await take(`l${i % a.labels}`)) admitted++;
      lat.push(Number(process.hrtime.bigint() - t0) / 1e6);
    }
  }));
} else {
  const pending: Promise<void>[] = [];
  while (Date.now() < end) {
    pending.push(take('hot').then((ok) => void (ok && admitted++)));
    await new Promise((r) => setTimeout(r, 1000 / a.ratePerSec));
  }
  await Promise.all(pending);
}
lat.sort((x, y) => x - y);
const q = (f: number): number => lat[Math.min(lat.length - 1, Math.floor(f * lat.length))] ?? 0;
process.stdout.write(`${JSON.stringify({ count: lat.length, admitted, p50: q(0.5), p99: q(0.99) })}\n`);
redis.disconnect();
