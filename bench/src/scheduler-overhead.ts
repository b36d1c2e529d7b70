/**
 * The load scheduler's cost on the check path when nothing waits: gRPC Check throughput of one
 * real agent with a published load scheduler on the control point ÷ the same checks with nothing
 * registered there. The scheduler's config and decision (load_multiplier 100: every flow finds
 * tokens, none waits) are written into a real etcd under the agent's group, as the controller
 * would; switching removes and restores the keys and waits until the agent enforces exactly that.
 * Rounds interleave none / scheduler. Target: ≥ 0.9.
 *
 *   node scripts/run-bench.mjs scheduler-overhead
 *   node bench/dist/scheduler-overhead.js [seconds-per-round=3] [rounds=4] [concurrency=32]
 */
import { Etcd3 } from 'etcd3';
import { configKey, decisionKey, type PublishedLoadScheduler } from '@sluice/policies';
import { limitRunTime, type ChildServer } from './support/child-server.js';
import { checkLoad, runAbBench } from './support/ab-rounds.js';
import { startEtcd, startPolicyAgent, waitEnforcing, type BenchEtcd } from './support/policy-cluster.js';
import type { UnaryCaller } from './support/unary-caller.js';

const roundMs = Math.min(10, Math.max(1, Number(process.argv[2] ?? 3))) * 1000;
const rounds = Math.max(1, Math.floor(Number(process.argv[3] ?? 4)));
const concurrency = Math.max(1, Math.floor(Number(process.argv[4] ?? 32)));
const CP = 'bench-scheduler';
const POLICY = 'scheduler-overhead';
const TARGET = 0.9;
const REQUEST = { control_point: CP, labels: { user: 'alice', tier: 'gold', 'http.method': 'GET' } };

const COMPONENT: PublishedLoadScheduler = {
  kind: 'load_scheduler',
  policy_name: POLICY,
  policy_hash: 'bench',
  component_id: 'root.0',
  agent_group: 'default',
  selectors: [{ control_point: CP }],
  parameters: {
    workloads: [
      { name: 'gold', label_matcher: { match_labels: { tier: 'gold' } }, parameters: { priority: 200, queue_timeout_ms: 100 } },
      { name: 'free', label_matcher: { match_labels: { tier: 'free' } }, parameters: { priority: 50, queue_timeout_ms: 30 } },
    ],
    default_workload_parameters: { priority: 1 },
    tokens_label_key: 'tokens',
    decision_deadline_margin_ms: 10,
    workload_latency_based_tokens: false,
    dry_run: false,
  },
};

async function main(): Promise<void> {
  limitRunTime('scheduler-overhead', 115_000);
  const servers: ChildServer[] = [];
  let caller: UnaryCaller | undefined;
  let etcd: BenchEtcd | undefined;
  let kv: Etcd3 | undefined;
  try {
    etcd = await startEtcd();
    kv = new Etcd3({ hosts: [etcd.endpoint] });
    const agent = await startPolicyAgent(etcd);
    servers.push(agent);
    const load = await checkLoad(agent.port, REQUEST);
    caller = load.caller;
    const probe = load.probe;

    let on = false;
    const setScheduler = async (want: boolean): Promise<void> => {
      if (want === on) return;
      on = want;
      const cfg = configKey('sluice', 'default', POLICY, 'root.0');
      const dec = decisionKey('sluice', 'default', POLICY, 'root.0');
      if (want) {
        await kv?.put(cfg).value(JSON.stringify(COMPONENT));
        await kv?.put(dec).value(JSON.stringify({ kind: 'load_scheduler', load_multiplier: 100, pass_through: false }));
      } else {
        await kv?.delete().key(dec);
        await kv?.delete().key(cfg);
      }
      await waitEnforcing([agent.port], want ? [POLICY] : []);
      if (!(await probe.check(CP, REQUEST.labels))) throw new Error('the bench flow was rejected');
    };

    await runAbBench({
      name: 'scheduler-overhead', agentPid: agent.pid, caller, concurrency, roundMs, rounds, target: TARGET, set: setScheduler,
      labels: { off: 'none', on: 'scheduler' }, resultKeys: { off: 'none_rps', on: 'scheduler_rps' },
    });
    probe.close();
  } finally {
    caller?.close();
    kv?.close();
    await Promise.all(servers.map((s) => s.stop()));
    await etcd?.stop();
  }
}

main().then(() => process.exit(0), (err: unknown) => { console.error(err); process.exit(1); });
