/**
 * Rate-limit accuracy: one real agent enforcing a policy published by the real controller
 * through real etcd: a rate limiter of `capacity` tokens filled with `fill` per second, one
 * bucket per `user`. One user's flows are offered with gRPC Check at 5 × the fill rate,
 * evenly spaced (the calls due are sent on each 5 ms tick, so a late timer does not lower
 * the rate), for `seconds` (default 60). The bucket starts full, so what the limiter should
 * admit over the span from the first to the last call is capacity + fill × span. Reported:
 * admitted ÷ allowed, and the same per 10 s slice after the first (fill only).
 * Target: within 1% (0.99 ..1.01).
 *
 *   node scripts/run-bench.mjs policy-accuracy       (60 s; SLUICE_BENCH_TIMEOUT_S must allow ~100 s)
 *   node bench/dist/policy-accuracy.js [seconds=60] [fill-per-second=20] [capacity=20]
 */
import os from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { limitRunTime, type ChildServer } from './support/child-server.js';
import {
  applyPolicy, checkClient, rateLimitPolicy, startController, startEtcd, startPolicyAgent, waitEnforcing, type BenchEtcd, type CheckClient,
} from './support/policy-cluster.js';
import { printResult } from './support/result-line.js';

const seconds = Math.max(2, Number(process.argv[2] ?? 60));
const fill = Math.max(1, Number(process.argv[3] ?? 20));
const capacity = Math.max(0, Number(process.argv[4] ?? 20));
const OVERLOAD = 5;
const CP = 'bench-accuracy';
const TICK_MS = 5;

interface Outcome { at: number; accepted: boolean }

/** Offers `rate` checks per second for `ms`; resolves with each answer's send time (ms from start) and decision. */
async function offer(client: CheckClient, rate: number, ms: number): Promise<{ outcomes: Outcome[]; errors: number; firstError?: string; lagMs: number }> {
  const outcomes: Outcome[] = [];
  const pending: Promise<void>[] = [];
  let errors = 0;
  let firstError: string | undefined;
  let sent = 0;
  let lagMs = 0;
  const total = Math.round((rate * ms) / 1000);
  const start = performance.now();
  while (sent < total) {
    const now = performance.now() - start;
    const due = Math.min(total, Math.floor((now * rate) / 1000) + 1);
    lagMs = Math.max(lagMs, now - ((due - 1) * 1000) / rate);
    for (; sent < due; sent++) {
      const at = performance.now() - start;
      pending.push(client.check(CP, { user: 'heavy' }).then((accepted) => { outcomes.push({ at, accepted }); }, (err: unknown) => { errors++; firstError ??= err instanceof Error ? err.message : String(err); }));
    }
    if (pending.length > 5000) await Promise.all(pending.splice(0));
    await sleep(TICK_MS);
  }
  await Promise.all(pending);
  return { outcomes: outcomes.sort((a, b) => a.at - b.at), errors, ...(firstError === undefined ? {} : { firstError }), lagMs };
}

async function main(): Promise<void> {
  limitRunTime('policy-accuracy', (seconds + 60) * 1000);
  const servers: ChildServer[] = [];
  let client: CheckClient | undefined;
  let etcd: BenchEtcd | undefined;
  try {
    etcd = await startEtcd();
    const [controller, agent] = await Promise.all([startController(etcd), startPolicyAgent(etcd)]);
    servers.push(controller, agent);
    await applyPolicy(controller.port, 'accuracy', rateLimitPolicy({ controlPoint: CP, capacity, fill, labelKey: 'user' }));
    await waitEnforcing([agent.port], ['accuracy']);
    client = checkClient(agent.port);
    // Warm the Check path with another user's bucket.
    for (let i = 0; i < 200; i++) await client.check(CP, { user: 'warm' });
    const rate = OVERLOAD * fill;
    console.log(`policy-accuracy: one agent (pid ${agent.pid}), capacity ${capacity}, fill ${fill}/s, offered ${rate}/s (${OVERLOAD}×) for ${seconds} s; `
      + `load average ${os.loadavg().map((x) => x.toFixed(2)).join(' ')} (${os.cpus().length} CPUs)`);

    const { outcomes, errors, firstError, lagMs } = await offer(client, rate, seconds * 1000);
    const first = outcomes[0]?.at ?? 0;
    const last = outcomes[outcomes.length - 1]?.at ?? 0;
    const spanS = (last - first) / 1000;
    const admitted = outcomes.filter((o) => o.accepted).length;
    const allowed = capacity + fill * spanS;
    const ratio = admitted / allowed;
    console.log(`offered ${outcomes.length} (errors ${errors}${firstError === undefined ? '' : `: ${firstError}`}, sender at most ${lagMs.toFixed(1)} ms late) over ${spanS.toFixed(3)} s; `
      + `admitted ${admitted}, allowed ${allowed.toFixed(1)} (capacity + fill × span): admitted ÷ allowed ${ratio.toFixed(4)}`);
    // After the first slice the bucket is empty: each later slice should admit fill × its length.
    const slices: string[] = [];
    for (let from = first + 10_000; from + 10_000 <= last; from += 10_000) {
      const n = outcomes.filter((o) => o.accepted && o.at >= from && o.at < from + 10_000).length;
      slices.push((n / (fill * 10)).toFixed(3));
    }
    if (slices.length > 0) console.log(`admitted ÷ fill per 10 s slice after the first: ${slices.join(' ')}`);
    const met = errors === 0 && Math.abs(ratio - 1) <= 0.01;
    console.log(`target: within 1% ${met ? 'met' : 'NOT met'} (${((ratio - 1) * 100).toFixed(2)}%); load average ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`);
    printResult('policy-accuracy', {
      seconds: spanS.toFixed(1),
      offered: outcomes.length,
      admitted,
      allowed: allowed.toFixed(1),
      ratio: ratio.toFixed(4),
      errors,
      targets: met ? 'met' : 'not-met',
    });
  } finally {
    client?.close();
    await Promise.all(servers.map((s) => s.stop()));
    await etcd?.stop();
  }
}

main().then(() => process.exit(0), (err: unknown) => { console.error(err); process.exit(1); });
