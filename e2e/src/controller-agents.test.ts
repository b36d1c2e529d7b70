// The whole policy path: a policy posted to the real controller, published in real etcd,
// enforced by two real agents (flows checked with the gRPC Check API).
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { grpcClient, unaryCall, type GrpcClient } from './support/clients.js';
import { endpointsJson, startEtcd } from './support/etcd.js';
import { startAgent, startController, until, type SluiceProcess } from './support/processes.js';

const CP = 'ingress-controller-e2e';

const policy = (capacity: number): Record<string, unknown> => ({
  circuit: {
    evaluation_interval: '1s',
    components: [{ flow_control: { rate_limiter: {
      in_ports: { bucket_capacity: { constant_signal: { value: capacity } }, fill_amount: { constant_signal: { value: 0 } } },
      parameters: { label_key: 'user', interval: '3600s', continuous_fill: false },
      selectors: [{ control_point: CP }],
    } } }],
  },
});

async function send(c: SluiceProcess, method: string, path: string, body?: unknown): Promise<number> {
  const r = await fetch(`${c.base}${path}`, { method, ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }) });
  await r.arrayBuffer();
  return r.status;
}

async function accepted(check: GrpcClient, user: string): Promise<boolean> {
  const r = await unaryCall<{ decision_type: string }>(check, 'Check', { control_point: CP, labels: { user } });
  return r.decision_type === 'DECISION_TYPE_ACCEPTED';
}

async function admitted(check: GrpcClient, user: string, n: number): Promise<number> {
  let ok = 0;
  for (let i = 0; i < n; i++) if (await accepted(check, user)) ok++;
  return ok;
}

async function agentChecks(t: TestContext, etcdEndpoints: string): Promise<GrpcClient[]> {
  const out: GrpcClient[] = [];
  for (let i = 0; i < 2; i++) {
    const agent = await startAgent(t, { env: { SLUICE_AGENT_ETCD_ENDPOINTS: etcdEndpoints } });
    out.push(grpcClient(t, 'flowControl', agent.address));
  }
  return out;
}

test('POST a policy to the controller: both agents enforce it within a second; PATCH the capacity and it holds; DELETE returns them to pass-through', async (t) => {
  const etcd = await startEtcd(t);
  const endpoints = endpointsJson(etcd);
  const controller = await startController(t, { env: { SLUICE_CONTROLLER_ETCD_ENDPOINTS: endpoints, SLUICE_CONTROLLER_PROMETHEUS_ADDRESS: '127.0.0.1:9' } });
  const [a, b] = await agentChecks(t, endpoints) as [GrpcClient, GrpcClient];
  assert.ok(await accepted(a, 'before') && await accepted(b, 'before'), 'pass-through before any policy');

  // Capacity 0 turns every flow away: the first rejection on each agent is the moment of enforcement.
  const applied = Date.now();
  assert.equal(await send(controller, 'POST', '/v1/policies/limit', { policy: policy(0) }), 200);
  const answered = Date.now() - applied;
  const took: number[] = [];
  await Promise.all([a, b].map(async (check, i) => {
    let probe = 0;
    await until(async () => !(await accepted(check, `probe-${i}-${probe++}`)), 2000, `agent ${i} enforcing`);
    took.push(Date.now() - applied);
  }));
  t.diagnostic(`POST answered in ${answered} ms; POST → enforced on both agents: ${Math.max(...took)} ms`);
  assert.ok(Math.max(...took) <= 1000, `enforced within 1 s (took ${Math.max(...took)} ms)`);

  // A new capacity: a user gets exactly 3.
  assert.equal(await send(controller, 'PATCH', '/v1/policies/limit', { policy: policy(3) }), 200);
  // Applied when a fresh user gets exactly 3 of 4 (pass-through would give 4, the old capacity 0).
  let fresh = 0;
  await until(async () => (await admitted(a, `ready-a-${fresh++}`, 4)) === 3, 5000, 'new decision on a');
  await until(async () => (await admitted(b, `ready-b-${fresh++}`, 4)) === 3, 5000, 'new decision on b');
  // One user per agent: the limit is the same whether the agents keep their buckets or share them.
  assert.equal(await admitted(a, 'alice', 6), 3);
  assert.equal(await admitted(b, 'bob', 6), 3);

  assert.equal(await send(controller, 'DELETE', '/v1/policies/limit'), 200);
  await until(async () => await accepted(a, 'alice') && await accepted(b, 'bob'), 2000, 'pass-through again');
  assert.equal(await admitted(a, 'alice', 5), 5);
  assert.equal(await admitted(b, 'bob', 5), 5);
});
