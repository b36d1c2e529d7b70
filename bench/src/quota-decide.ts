/**
 * What a quota scheduler costs a check beside a rate limiter, in process: the agent's engine
 * (MeteredEngine: decisions counted) deciding a flow and its Check answer encoded, with 10 rate
 * limiters ÷ with 7 rate limiters and 3 quota schedulers (capacity 1e12: every flow takes its
 * tokens at once), each over the distributed counter cache of one real member (its buckets on
 * this agent). Both beside the same checks with nothing registered, which the figures include.
 * The ratio is the CPU time per check of the first ÷ the second: 1 when a quota scheduler costs
 * what a rate limiter does. Rounds interleave the two. Target: ≥ 0.9.
 *
 *   node scripts/run-bench.mjs quota-decide
 *   node bench/dist/quota-decide.js [checks-per-round=200000] [rounds=5]
 */
import { Registry } from 'prom-client';
import { checkAnswer, encodeCheckAnswer, MeteredEngine, RateLimiter, type FlowRequest } from '@sluice/flowcontrol';
import { DistCache, DistributedTokenBucketStore } from '@sluice/distcache';
import { QuotaScheduler } from '@sluice/scheduler';
import { printResult } from './support/result-line.js';

const perRound = Math.max(1000, Math.floor(Number(process.argv[2] ?? 200_000)));
const rounds = Math.max(1, Math.floor(Number(process.argv[3] ?? 5)));
const TARGET = 0.9;
const PARAMS = { capacity: 1e12, fillAmount: 1e12, intervalMs: 1000, continuousFill: true };
const SCHEDULER = { workloads: [{ name: 'gold', label_matcher: { match_labels: { tier: 'gold' } }, parameters: { priority: 100 } }] };
const REQUEST: FlowRequest = { controlPoint: 'cp', services: [], labels: { user: 'alice', 'http.method': 'GET', tier: 'gold' }, type: 'feature' };

function engineWith(cache: DistCache, rateLimiters: number, quotaSchedulers: number): MeteredEngine {
  const engine = new MeteredEngine({ registry: new Registry() });
  let n = 0;
  const store = () => new DistributedTokenBucketStore(cache, { limiterId: `bench-${n}/root.0`, params: PARAMS });
  for (let i = 0; i < rateLimiters; i++, n++) {
    engine.register(new RateLimiter({ identity: { policy_name: `bench-${n}`, policy_hash: 'h', component_id: 'root.0' }, store: store(), labelKey: 'user' }), { control_point: 'cp' });
  }
  for (let i = 0; i < quotaSchedulers; i++, n++) {
    const identity = { policy_name: `bench-${n}`, policy_hash: 'h', component_id: 'root.0' };
    engine.register(new QuotaScheduler({ identity, parameters: SCHEDULER, store: store(), labelKey: 'user', passThrough: false }), { control_point: 'cp' });
  }
  return engine;
}

/** CPU microseconds per check (decided and its answer encoded). */
function usPerCheck(engine: MeteredEngine, checks: number): number {
  const started = process.cpuUsage();
  let bytes = 0;
  for (let i = 0; i < checks; i++) {
    const d = engine.check(REQUEST);
    if (d instanceof Promise) throw new Error('a limiter answered asynchronously: the buckets are not on this member');
    if (!d.accepted) throw new Error('the bench flow was rejected');
    bytes += encodeCheckAnswer(checkAnswer(d)).length;
  }
  const used = process.cpuUsage(started);
  if (bytes === 0) throw new Error('nothing encoded');
  return (used.user + used.system) / checks;
}

async function main(): Promise<void> {
  const cache = new DistCache({ id: 'bench', group: 'bench', bindAddr: '127.0.0.1:0', memberlistBindAddr: '127.0.0.1:0', registry: new Registry() });
  await cache.start();
  try {
    const engines = { none: engineWith(cache, 0, 0), rate: engineWith(cache, 10, 0), quota: engineWith(cache, 7, 3) };
    for (const e of Object.values(engines)) usPerCheck(e, Math.min(perRound, 50_000)); // warm up
    const sums = { none: 0, rate: 0, quota: 0 };
    const ratios: number[] = [];
    for (let r = 0; r < rounds; r++) {
      const none = usPerCheck(engines.none, perRound);
      const rate = usPerCheck(engines.rate, perRound);
      const quota = usPerCheck(engines.quota, perRound);
      sums.none += none;
      sums.rate += rate;
      sums.quota += quota;
      ratios.push(rate / quota);
    }
    const [none, rate, quota] = [sums.none / rounds, sums.rate / rounds, sums.quota / rounds];
    const ratio = rate / quota;
    console.log(`quota-decide: ${rounds} rounds of ${perRound} checks, in process (decide + count + encode the answer), CPU per check`);
    console.log(`  nothing registered                ${none.toFixed(2)} us`);
    console.log(`  10 rate limiters                  ${rate.toFixed(2)} us`);
    console.log(`  7 rate limiters, 3 quota scheds   ${quota.toFixed(2)} us`);
    console.log(`  10 rate limiters ÷ 7 + 3 quota schedulers: ${ratio.toFixed(3)} (per round ${ratios.map((x) => x.toFixed(3)).join(' ')}); target ≥ ${TARGET} ${ratio >= TARGET ? 'met' : 'NOT met'}`);
    printResult('quota-decide', {
      ratio: ratio.toFixed(3), none_us: none.toFixed(2), rate_us: rate.toFixed(2), quota_us: quota.toFixed(2),
      rounds: ratios.map((x) => x.toFixed(3)).join(','), targets: ratio >= TARGET ? 'met' : 'not-met',
    });
  } finally {
    await cache.shutdown();
  }
}

main().then(() => process.exit(0), (err: unknown) => { console.error(err); process.exit(1); });
