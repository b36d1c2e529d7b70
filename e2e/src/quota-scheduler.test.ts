// flow_control.quota_scheduler end to end: a policy posted to the real controller, published in
// real etcd, enforced by two real agents sharing the quota's bucket through the distributed
// counter cache; flows checked with the gRPC Check API.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { unaryCall } from './support/clients.js';
import { startDistAgents, untilRing, type DistAgent } from './support/dist-agents.js';
import { endpointsJson, startEtcd } from './support/etcd.js';
import { startController, until, type SluiceProcess } from './support/processes.js';

const SHARED = 'quota-shared';
const PRIO = 'quota-prio';

const quota = (controlPoint: string, capacity: number, interval: string): Record<string, unknown> => ({
  circuit: {
    evaluation_interval: '1s',
    components: [{ flow_control: { quota_scheduler: {
      in_ports: { bucket_capacity: { constant_signal: { value: capacity } }, fill_amount: { constant_signal: { value: capacity } } },
      selectors: [{ control_point: controlPoint }],
      rate_limiter: { limit_by_label_key: 'tenant', interval, continuous_fill: false },
      scheduler: { workloads: [{ name: 'gold', label_matcher: { match_labels: { tier: 'gold' } }, parameters: { priority: 100 } }] },
    } } }],
  },
});

async function post(c: SluiceProcess, name: string, policy: unknown): Promise<void> {
  const r = await fetch(`${c.base}/v1/policies/${name}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ policy }) });
  assert.equal(r.status, 200, await r.text());
}

/** Both agents enforce the policy's component with a decision. */
async function enforcing(agents: DistAgent[], policy: string): Promise<void> {
  await until(async () => {
    for (const a of agents) {
      const r = await (await fetch(`${a.proc.base}/v1/policies/enforced`)).json() as { components: { policy_name: string; kind: string; decision: unknown }[] };
      if (!r.components.some((c) => c.policy_name === policy && c.kind === 'quota_scheduler' && c.decision !== null)) return false;
    }
    return true;
  }, 20_000, `${policy} enforced with its decision on both agents`);
}

async function check(a: DistAgent, controlPoint: string, labels: Record<string, string>): Promise<{ accepted: boolean; at: number; tier: string }> {
  const r = await unaryCall<{ decision_type: string }>(a.check, 'Check', { control_point: controlPoint, labels }, 10_000);
  return { accepted: r.decision_type === 'DECISION_TYPE_ACCEPTED', at: Date.now(), tier: labels.tier ?? '' };
}

test('a quota of N per interval is shared by two agents and spent by priority', async (t) => {
  const etcd = await startEtcd(t);
  const endpoints = endpointsJson(etcd);
  const controller = await startController(t, { env: { SLUICE_CONTROLLER_ETCD_ENDPOINTS: endpoints, SLUICE_CONTROLLER_PROMETHEUS_ADDRESS: '127.0.0.1:9' } });
  const agents = await startDistAgents(t, etcd, 2);
  await untilRing(agents, 2);
  const [a, b] = agents as [DistAgent, DistAgent];

  // A quota of 6 per hour for each tenant: 20 flows of one tenant over both agents, 6 pass in all.
  await post(controller, SHARED, quota(SHARED, 6, '3600s'));
  await enforcing(agents, SHARED);
  const results = [];
  for (let i = 0; i < 20; i++) results.push(await check(i % 2 === 0 ? a : b, SHARED, { tenant: 't1' }));
  const passed = results.filter((r) => r.accepted).length;
  assert.equal(passed, 6, `the shared quota is spent once across the agents (${passed} of 20 passed)`);
  assert.ok(results.slice(0, 6).every((r) => r.accepted), 'the first 6 pass, the rest are turned away');
  assert.equal((await check(b, SHARED, { tenant: 't2' })).accepted, true, 'another tenant has its own quota');

  // Priorities: a quota of 2 per 800 ms. Spend it, queue two bulk flows, then two gold ones:
  // the next refill goes to gold first.
  await post(controller, PRIO, quota(PRIO, 2, '0.8s'));
  await enforcing(agents, PRIO);
  let gold: { accepted: boolean; at: number; tier: string }[] = [];
  let bulk: { accepted: boolean; at: number; tier: string }[] = [];
  for (let round = 0; round < 3; round++) {
    const tenant = `p${round}`;
    await Promise.all([check(a, PRIO, { tenant }), check(a, PRIO, { tenant })]);
    const bulkFlows = [check(a, PRIO, { tenant, tier: 'bulk' }), check(a, PRIO, { tenant, tier: 'bulk' })];
    await new Promise((r) => setTimeout(r, 30));
    const goldFlows = [check(a, PRIO, { tenant, tier: 'gold' }), check(a, PRIO, { tenant, tier: 'gold' })];
    gold = await Promise.all(goldFlows);
    bulk = await Promise.all(bulkFlows);
    if (gold.every((g) => g.accepted)) break;
  }
  assert.ok(gold.every((g) => g.accepted), 'both gold flows, queued after the bulk ones, pass at the refill');
  const lastGold = Math.max(...gold.map((g) => g.at));
  for (const f of bulk) if (f.accepted) assert.ok(f.at >= lastGold - 5, 'a bulk flow passes only after the gold ones');
  t.diagnostic(`bulk flows passed: ${bulk.filter((f) => f.accepted).length} of 2`);
});
