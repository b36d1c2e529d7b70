/**
 * Check throughput with 10 policies registered on the control point ÷ with none: one real
 * agent fed by the real controller through real etcd. With policies, the control point
 * carries 7 rate limiters and 3 quota schedulers published by the controller (10 policies,
 * each with room for every flow, keyed on `user`; a quota scheduler's flow takes its tokens
 * at once while its bucket has them), and every checked flow matches all 10; without,
 * the 10 policies are deleted and the agent has nothing registered there. Throughput is the
 * closed-loop rate of gRPC Check calls (pre-encoded HTTP/2 frames, `concurrency` in flight)
 * in interleaved rounds none / ten, switching by applying and deleting the policies through
 * the API and waiting until the agent enforces exactly that set. The agent's CPU time per
 * call (from /proc) is reported beside, as its ratio none ÷ ten. Target: ≥ 0.9.
 *
 *   node scripts/run-bench.mjs policy-overhead
 *   node bench/dist/policy-overhead.js [seconds-per-round=3] [rounds=6] [concurrency=32]
 *
 * Rounds of one run differ by up to ±15% on a shared 2-core machine (both settings alike):
 * six rounds of each, interleaved, average more of that out than four did.
 */
import { limitRunTime, type ChildServer } from './support/child-server.js';
import { checkLoad, runAbBench } from './support/ab-rounds.js';
import {
  applyPolicy, deletePolicy, quotaPolicy, rateLimitPolicy, startController, startEtcd, startPolicyAgent, waitEnforcing, type BenchEtcd,
} from './support/policy-cluster.js';
import type { UnaryCaller } from './support/unary-caller.js';

const roundMs = Math.min(10, Math.max(1, Number(process.argv[2] ?? 3))) * 1000;
const rounds = Math.max(1, Math.floor(Number(process.argv[3] ?? 6)));
const concurrency = Math.max(1, Math.floor(Number(process.argv[4] ?? 32)));
const CP = 'bench-policies';
const POLICIES = Array.from({ length: 10 }, (_, i) => `overhead-${i}`);
/** Of the 10 policies, these are quota schedulers (the others rate limiters). */
const QUOTA_POLICIES = new Set(POLICIES.slice(7));
const TARGET = 0.9;
const REQUEST = { control_point: CP, labels: { user: 'alice', 'http.method': 'GET', tier: 'gold' } };

async function main(): Promise<void> {
  limitRunTime('policy-overhead', 115_000);
  const servers: ChildServer[] = [];
  let caller: UnaryCaller | undefined;
  let etcd: BenchEtcd | undefined;
  try {
    etcd = await startEtcd();
    const [controller, agent] = await Promise.all([startController(etcd), startPolicyAgent(etcd)]);
    servers.push(controller, agent);
    const load = await checkLoad(agent.port, REQUEST);
    caller = load.caller;
    const probe = load.probe;

    let applied = false;
    const setPolicies = async (on: boolean): Promise<void> => {
      if (on === applied) return;
      applied = on;
      for (const name of POLICIES) {
        const room = { controlPoint: CP, capacity: 1e12, fill: 1e12, labelKey: 'user' };
        if (on) await applyPolicy(controller.port, name, QUOTA_POLICIES.has(name) ? quotaPolicy(room) : rateLimitPolicy(room));
        else await deletePolicy(controller.port, name);
      }
      await waitEnforcing([agent.port], on ? POLICIES : []);
      if (!(await probe.check(CP, REQUEST.labels))) throw new Error('the bench flow was rejected');
    };

    await runAbBench({
      name: 'policy-overhead', agentPid: agent.pid, caller, concurrency, roundMs, rounds, target: TARGET, set: setPolicies,
      labels: { off: 'no policies', on: '10 policies (3 quota schedulers)' }, resultKeys: { off: 'none_rps', on: 'ten_rps' },
    });
    probe.close();
  } finally {
    caller?.close();
    await Promise.all(servers.map((s) => s.stop()));
    await etcd?.stop();
  }
}

main().then(() => process.exit(0), (err: unknown) => { console.error(err); process.exit(1); });
