// A quota scheduler's quota is the agent group's, not each agent's: three real agents sharing the
// quota's bucket through the distributed counter cache, fed by the real controller through real
// etcd, admit together what the quota allows over several intervals (admitted ÷ allowed near 1;
// a quota kept per agent would admit about three times as much).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { unaryCall } from './support/clients.js';
import { startDistAgents, untilRing, type DistAgent } from './support/dist-agents.js';
import { endpointsJson, startEtcd } from './support/etcd.js';
import { startController, until } from './support/processes.js';

const POLICY = 'quota-three-agents';
const CAPACITY = 20;
/** Tokens per second, added continuously. */
const FILL = 20;
const TRAFFIC_MS = 10_000;
const LOOPS_PER_AGENT = 2;

const spec = {
  circuit: {
    evaluation_interval: '1s',
    components: [{ flow_control: { quota_scheduler: {
      in_ports: { bucket_capacity: { constant_signal: { value: CAPACITY } }, fill_amount: { constant_signal: { value: FILL } } },
      selectors: [{ control_point: POLICY }],
      rate_limiter: { label_key: 'tenant', interval: '1s', continuous_fill: true },
      // A flow never waits: one the bucket cannot serve now is turned away (503), so every flow is counted once.
      scheduler: { default_workload_parameters: { queue_timeout: '0s' } },
    } } }],
  },
};

async function enforcing(agents: DistAgent[]): Promise<void> {
  await until(async () => {
    for (const a of agents) {
      const r = await (await fetch(`${a.proc.base}/v1/policies/enforced`)).json() as { components: { policy_name: string; kind: string; decision: unknown }[] };
      if (!r.components.some((c) => c.policy_name === POLICY && c.kind === 'quota_scheduler' && c.decision !== null)) return false;
    }
    return true;
  }, 30_000, `${POLICY} enforced with its decision on the three agents`);
}

/** How many of flows at `times` (ms) one token bucket admits: full at the first, FILL a second added continuously, capped at CAPACITY. */
function allowedBy(times: number[]): number {
  const sorted = [...times].sort((a, b) => a - b);
  let tokens = CAPACITY;
  let at = sorted[0] ?? 0;
  let n = 0;
  for (const t of sorted) {
    tokens = Math.min(CAPACITY, tokens + (FILL * (t - at)) / 1000);
    at = t;
    if (tokens >= 1) {
      tokens -= 1;
      n += 1;
    }
  }
  return n;
}

test('three agents admit together what one shared quota allows over several intervals', { timeout: 240_000 }, async (t) => {
  const etcd = await startEtcd(t);
  const controller = await startController(t, { env: { SLUICE_CONTROLLER_ETCD_ENDPOINTS: endpointsJson(etcd), SLUICE_CONTROLLER_PROMETHEUS_ADDRESS: '127.0.0.1:9' } });
  const agents = await startDistAgents(t, etcd, 3);
  await untilRing(agents, 3);
  const r = await fetch(`${controller.base}/v1/policies/${POLICY}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ policy: spec }) });
  assert.equal(r.status, 200, await r.text());
  await enforcing(agents);

  const admitted = [0, 0, 0];
  /** Each flow: the agent it went to, when it was sent and answered, whether it was admitted. */
  const flows: { agent: number; sentMs: number; answeredMs: number; accepted: boolean }[] = [];
  const start = Date.now();
  const loop = async (i: number): Promise<void> => {
    while (Date.now() - start < TRAFFIC_MS) {
      const sentMs = Date.now();
      const res = await unaryCall<{ decision_type: string }>(agents[i].check, 'Check', { control_point: POLICY, labels: { tenant: 'shared' } }, 10_000);
      const accepted = res.decision_type === 'DECISION_TYPE_ACCEPTED';
      flows.push({ agent: i, sentMs, answeredMs: Date.now(), accepted });
      if (accepted) admitted[i] += 1;
      await new Promise((done) => setTimeout(done, 10));
    }
  };
  await Promise.all(agents.flatMap((_, i) => Array.from({ length: LOOPS_PER_AGENT }, () => loop(i))));

  // What the quota allows for these very flows: one exact bucket (full at the first flow, FILL a
  // second added continuously, at most CAPACITY) taking each flow at the midpoint of its call. A
  // stall of the test's own load (no flow for a while, the bucket full) is no shortfall of the agents.
  const total = admitted.reduce((a, b) => a + b, 0);
  const allowed = allowedBy(flows.map((f) => (f.sentMs + f.answeredMs) / 2));
  const perAgent = [0, 1, 2].map((i) => allowedBy(flows.filter((f) => f.agent === i).map((f) => (f.sentMs + f.answeredMs) / 2))).reduce((a, b) => a + b, 0);
  const ratio = total / allowed;
  const spanS = (Math.max(...flows.map((f) => f.answeredMs)) - Math.min(...flows.map((f) => f.sentMs))) / 1000;
  t.diagnostic(`admitted ${total} (per agent ${admitted.join(', ')}) of ${flows.length} flows over ${spanS.toFixed(2)} s; one shared quota allows ${allowed}; admitted ÷ allowed = ${ratio.toFixed(4)}; a quota per agent would allow ${perAgent}`);
  assert.ok(admitted.every((n, i) => n > 0 && n < flows.filter((f) => f.agent === i).length), `every agent admitted some and turned some away: ${admitted.join(', ')}`);
  assert.ok(perAgent > allowed * 1.5, `the traffic tells a shared quota from one per agent (${perAgent} vs ${allowed})`);
  assert.ok(total <= allowed * 1.01 + 2, `admitted ${total} ≤ allowed ${allowed} × 1.01 + 2: the quota is shared, not per agent`);
  assert.ok(total >= allowed * 0.95, `admitted ${total} ≥ 0.95 × allowed ${allowed}: the quota is spent`);
});
