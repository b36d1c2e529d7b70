/**
 * Apply → first enforcement on every agent: real etcd, the real controller, two real agents
 * of one group. Each apply POSTs a new policy to the controller's API: a rate limiter of
 * capacity 0 whose selector matches only the label `apply=<i>`, so the first flow of that
 * label rejected on an agent is the moment that agent enforces it (config and decision both
 * arrived). Both agents are probed with gRPC Check every `probe-ms` (default 5) from the
 * POST on; the latency of an apply is until the later of the two. The policy is deleted
 * before the next apply. Distribution over `applies` (default 50). Target: p99 ≤ 1 s.
 *
 *   node scripts/run-bench.mjs policy-apply
 *   node bench/dist/policy-apply.js [applies=50] [probe-ms=5]
 */
import os from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { limitRunTime, type ChildServer } from './support/child-server.js';
import {
  applyPolicy, checkClient, deletePolicy, rateLimitPolicy, startController, startEtcd, startPolicyAgent, waitEnforcing,
  type BenchEtcd, type CheckClient,
} from './support/policy-cluster.js';
import { printResult } from './support/result-line.js';
import { Samples } from './support/samples.js';

const applies = Math.max(1, Math.floor(Number(process.argv[2] ?? 50)));
const probeMs = Math.max(1, Number(process.argv[3] ?? 5));
const CP = 'bench-apply';
const TARGET_P99_MS = 1000;

/** Resolves with the ms from `start` (performance.now()) until `client` rejects a flow labelled `apply=i`; NaN after 10 s. */
async function firstRejection(client: CheckClient, i: number, start: number): Promise<number> {
  const labels = { apply: String(i), user: 'u' };
  while (performance.now() - start < 10_000) {
    if (!(await client.check(CP, labels))) return performance.now() - start;
    await sleep(probeMs);
  }
  return NaN;
}

async function main(): Promise<void> {
  limitRunTime('policy-apply', 115_000);
  const servers: ChildServer[] = [];
  const clients: CheckClient[] = [];
  let etcd: BenchEtcd | undefined;
  try {
    etcd = await startEtcd();
    const [controller, a, b] = await Promise.all([startController(etcd), startPolicyAgent(etcd), startPolicyAgent(etcd)]);
    servers.push(controller, a, b);
    const agents = [a, b];
    await waitEnforcing(agents.map((x) => x.port), []);
    for (const x of agents) clients.push(checkClient(x.port));
    // Warm both agents' Check path and the controller's API once.
    for (const c of clients) await c.check(CP, { apply: 'warm', user: 'u' });
    await applyPolicy(controller.port, 'warm', rateLimitPolicy({ controlPoint: CP, capacity: 0, fill: 0, labelKey: 'user', matchLabels: { apply: 'warm' } }));
    await waitEnforcing(agents.map((x) => x.port), ['warm']);
    await deletePolicy(controller.port, 'warm');
    await waitEnforcing(agents.map((x) => x.port), []);
    console.log(`policy-apply: etcd, controller and 2 agents (pids ${servers.map((s) => s.pid).join(', ')}); ${applies} applies, probes every ${probeMs} ms; `
      + `load average ${os.loadavg().map((x) => x.toFixed(2)).join(' ')} (${os.cpus().length} CPUs)`);

    const latency = new Samples(applies);
    const perAgent = [new Samples(applies), new Samples(applies)];
    let missed = 0;
    for (let i = 0; i < applies; i++) {
      const name = `apply-${i}`;
      const start = performance.now();
      const post = applyPolicy(controller.port, name, rateLimitPolicy({ controlPoint: CP, capacity: 0, fill: 0, labelKey: 'user', matchLabels: { apply: String(i) } }));
      const took = await Promise.all(clients.map((c) => firstRejection(c, i, start)));
      await post;
      if (took.some((x) => Number.isNaN(x))) { missed++; continue; }
      took.forEach((x, k) => perAgent[k]?.add(x));
      latency.add(Math.max(...took));
      await deletePolicy(controller.port, name);
      await sleep(50);
    }
    const p = (s: Samples, q: number): string => s.percentile(q).toFixed(1);
    console.log(`apply → first rejection on both agents (${latency.count} applies, ${missed} not enforced within 10 s):`);
    console.log(`  both agents  p50 ${p(latency, 0.5)} ms  p90 ${p(latency, 0.9)} ms  p99 ${p(latency, 0.99)} ms  max ${p(latency, 1)} ms  min ${p(latency, 0)} ms`);
    for (const [k, s] of perAgent.entries()) console.log(`  agent ${k + 1}      p50 ${p(s, 0.5)} ms  p99 ${p(s, 0.99)} ms`);
    const met = missed === 0 && latency.percentile(0.99) <= TARGET_P99_MS;
    console.log(`target: p99 ≤ ${TARGET_P99_MS} ms ${met ? 'met' : 'NOT met'}; load average ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`);
    printResult('policy-apply', {
      applies: latency.count,
      missed,
      p50_ms: p(latency, 0.5),
      p99_ms: p(latency, 0.99),
      max_ms: p(latency, 1),
      targets: met ? 'met' : 'not-met',
    });
  } finally {
    for (const c of clients) c.close();
    await Promise.all(servers.map((s) => s.stop()));
    await etcd?.stop();
  }
}

main().then(() => process.exit(0), (err: unknown) => { console.error(err); process.exit(1); });
