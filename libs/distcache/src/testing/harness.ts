/**
 * A process that runs one member of the distributed cache and a token-bucket
 * store, driven by JSON lines on stdin (one answer line each on stdout), for
 * fault tests with real processes (kill -9, SIGSTOP) and the bench.
 *
 * Environment: SLUICE_DISTCACHE_HARNESS = {"id","group","seeds":[],"replicaCount","ownerTimeoutMs","failClosed","lazyNumSync","membership"}.
 * First line out: {"ready":true,"id","gossipAddr","opsAddr"}.
 * Commands: take {label,count,tokens?,params}; traffic {label,ratePerSec,durationMs,params};
 * owner {label}; join {seeds}; stats; quit.
 */
import readline from 'node:readline';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { TakeResult, TokenBucketParams, TokenBucketStore } from '@sluice/tokenbucket';
import { DistCache, type MembershipTimings } from '../dist-cache.js';
import { DistributedTokenBucketStore } from '../store/distributed-store.js';
import { LazySyncStore } from '../store/lazy-sync-store.js';
import { Keyring } from '../transport/auth/index.js';

interface HarnessConfig {
  id: string;
  group: string;
  seeds?: string[];
  replicaCount?: number;
  ownerTimeoutMs?: number;
  failClosed?: boolean;
  lazyNumSync?: number;
  /** Membership timings; default: fast ones for fault tests (probe every 200 ms, suspicion 1 s). `{}`: the product's defaults. */
  membership?: MembershipTimings;
  /** The group's key (dist_cache.auth): packets and frames signed and checked. */
  key?: string;
}

const cfg = JSON.parse(process.env.SLUICE_DISTCACHE_HARNESS ?? '{}') as HarnessConfig;
const cache = new DistCache({
  id: cfg.id,
  group: cfg.group,
  bindAddr: '127.0.0.1:0',
  memberlistBindAddr: '127.0.0.1:0',
  replicaCount: cfg.replicaCount,
  ownerTimeoutMs: cfg.ownerTimeoutMs,
  membership: cfg.membership ?? { probeIntervalMs: 200, probeTimeoutMs: 80, suspicionTimeoutMs: 1000, syncIntervalMs: 1000 },
  keys: cfg.key === undefined ? undefined : new Keyring([Buffer.from(cfg.key)]),
});
const stores = new Map<string, TokenBucketStore>();

function storeFor(params: TokenBucketParams): TokenBucketStore {
  const key = JSON.stringify(params);
  let s = stores.get(key);
  if (s === undefined) {
    const limiterId = `harness/${key}`;
    s = cfg.lazyNumSync !== undefined
      ? new LazySyncStore(cache, { limiterId, params, numSync: cfg.lazyNumSync })
      : new DistributedTokenBucketStore(cache, { limiterId, params, failClosed: cfg.failClosed });
    stores.set(key, s);
  }
  return s;
}

/** Batches sent to peers so far and the operations in them (the batch-size histogram's count and sum). */
async function batchTotals(): Promise<{ count: number; sum: number }> {
  const values = (await cache.metrics.batchSize.get()).values;
  const v = (name: string): number => values.find((x) => x.metricName === name)?.value ?? 0;
  return { count: v('sluice_distcache_batch_size_count'), sum: v('sluice_distcache_batch_size_sum') };
}

type Cmd = { id?: number; op: string; label?: string; count?: number; tokens?: number; params?: TokenBucketParams; ratePerSec?: number; durationMs?: number; seeds?: string[]; concurrency?: number; labels?: number };

async function run(cmd: Cmd): Promise<unknown> {
  switch (cmd.op) {
    case 'take': {
      const store = storeFor(cmd.params as TokenBucketParams);
      const started = process.hrtime.bigint();
      const rs = await Promise.all(Array.from({ length: cmd.count ?? 1 }, () => store.take(cmd.label ?? 'default', cmd.tokens ?? 1, Date.now())));
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      return { admitted: rs.filter((r) => r.ok).length, rejected: rs.filter((r) => !r.ok).length, ms };
    }
    case 'traffic': {
      // open loop at `ratePerSec`: each turn sends what is due by the clock, so a starved
      // process still offers the rate asked for (late, in bursts) instead of silently less
      const store = storeFor(cmd.params as TokenBucketParams);
      const rate = cmd.ratePerSec ?? 100;
      const started = Date.now();
      const end = started + (cmd.durationMs ?? 1000);
      const fallbacksBefore = cache.stats().fallbacks;
      let offered = 0, admitted = 0, rejected = 0, errors = 0, maxMs = 0;
      const pending: Promise<void>[] = [];
      for (let now = started; now < end; now = Date.now()) {
        const due = Math.floor(((now - started) * rate) / 1000) + 1;
        for (; offered < due; offered++) {
          const t0 = Date.now();
          pending.push(Promise.resolve(store.take(cmd.label ?? 'default', 1, t0)).then(
            (r: TakeResult) => {
              maxMs = Math.max(maxMs, Date.now() - t0);
              if (r.ok) admitted++;
              else rejected++;
            },
            () => void errors++,
          ));
        }
        await new Promise((r) => setTimeout(r, Math.max(1, Math.min(10, 1000 / rate))));
      }
      await Promise.all(pending);
      return { offered, admitted, rejected, errors, maxMs, fallbacks: cache.stats().fallbacks - fallbacksBefore };
    }
    case 'bench': {
      // closed loop: `concurrency` takes in flight for `durationMs`, over `labels` labels; takes
      // that fell back (the owner did not answer in time) are counted apart, they are not decisions
      const store = storeFor(cmd.params as TokenBucketParams);
      const end = Date.now() + (cmd.durationMs ?? 1000);
      const lat: number[] = [];
      let admitted = 0;
      const before = cache.stats();
      const batches0 = await batchTotals();
      const loopLag = monitorEventLoopDelay({ resolution: 10 });
      loopLag.enable();
      const cpu0 = process.cpuUsage();
      const mono0 = process.hrtime.bigint();
      const worker = async (w: number): Promise<void> => {
        for (let i = w; Date.now() < end; i++) {
          const t0 = process.hrtime.bigint();
          const r = await store.take(`l${i % (cmd.labels ?? 1)}`, 1, Date.now());
          lat.push(Number(process.hrtime.bigint() - t0) / 1e6);
          if (r.ok) admitted++;
          // a store that answers synchronously must still let timers (membership, lazy sync) run
          if (i % 16 === 0) await new Promise((r) => setImmediate(r));
        }
      };
      await Promise.all(Array.from({ length: cmd.concurrency ?? 32 }, (_, w) => worker(w)));
      const cpu = process.cpuUsage(cpu0);
      loopLag.disable();
      const after = cache.stats();
      const batches1 = await batchTotals();
      lat.sort((a, b) => a - b);
      const q = (f: number): number => lat[Math.min(lat.length - 1, Math.floor(f * lat.length))] ?? 0;
      return {
        count: lat.length, admitted, p50: q(0.5), p99: q(0.99), p999: q(0.999), max: lat[lat.length - 1] ?? 0,
        fallbacks: after.fallbacks - before.fallbacks,
        local: after.operations.local - before.operations.local,
        remote: after.operations.remote - before.operations.remote,
        loopDelayP99Ms: loopLag.percentile(99) / 1e6,
        // this process's CPU time over the run (its own takes and the ones it served for others)
        cpuUs: cpu.user + cpu.system,
        batches: batches1.count - batches0.count,
        batchedOps: batches1.sum - batches0.sum,
        // the run on this process's monotonic clock (µs), as a --cpu-prof profile's timestamps
        monoUs: [Number(mono0 / 1000n), Number(process.hrtime.bigint() / 1000n)],
      };
    }
    case 'owner': {
      const s = storeFor(cmd.params as TokenBucketParams) as DistributedTokenBucketStore;
      return { owner: cache.currentRing().owner(s.keyOf(cmd.label ?? 'default')) };
    }
    case 'join':
      cache.join(cmd.seeds ?? []);
      return { joined: true };
    case 'stats':
      return cache.stats();
    case 'quit':
      for (const s of stores.values()) if (s instanceof LazySyncStore) void s.shutdown();
      await cache.shutdown();
      setImmediate(() => process.exit(0));
      return { bye: true };
    default:
      return { error: `unknown op ${cmd.op}` };
  }
}

await cache.start();
if (cfg.seeds !== undefined && cfg.seeds.length > 0) cache.join(cfg.seeds);
process.stdout.write(`${JSON.stringify({ ready: true, id: cache.id, gossipAddr: cache.gossipAddr, opsAddr: cache.opsAddr })}\n`);
const rl = readline.createInterface({ input: process.stdin });
rl.on('line', (line) => {
  let cmd: Cmd;
  try {
    cmd = JSON.parse(line) as Cmd;
  } catch {
    process.stdout.write(`${JSON.stringify({ error: 'bad command' })}\n`);
    return;
  }
  run(cmd).then(
    (r) => process.stdout.write(`${JSON.stringify({ ...(r as object), id: cmd.id })}\n`),
    (e: unknown) => process.stdout.write(`${JSON.stringify({ id: cmd.id, error: String(e) })}\n`),
  );
});
rl.on('close', () => void cache.shutdown().then(() => process.exit(0)));
process.on('SIGTERM', () => void cache.shutdown().then(() => process.exit(0)));
