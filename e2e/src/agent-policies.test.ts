// Policies published in a real etcd, enforced by real agents: the keys are
// written here with etcd3 the way the controller publishes them
// (libs/policies published.ts), and flows are checked with the gRPC Check API.
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Etcd3 } from 'etcd3';
import { grpcClient, unaryCall, type GrpcClient } from './support/clients.js';
import { endpointsJson, startEtcd, type EtcdServer } from './support/etcd.js';
import { startAgent, until, type SluiceProcess } from './support/processes.js';

const CP = 'ingress-e2e';

function config(group: string, policy: string, id: string, over: Record<string, unknown> = {}): string {
  return JSON.stringify({
    kind: 'rate_limiter', policy_name: policy, policy_hash: 'h1', component_id: id, agent_group: group,
    selectors: [{ control_point: CP, agent_group: group }],
    parameters: { label_key: 'user', interval_ms: 3_600_000, continuous_fill: false, max_idle_time_ms: 7_200_000, lazy_sync: { enabled: false, num_sync: 4 } },
    ...over,
  });
}

function decision(capacity: number, passThrough = false): string {
  return JSON.stringify({ kind: 'rate_limiter', bucket_capacity: capacity, fill_amount: 0, pass_through: passThrough });
}

const cfgKey = (group: string, policy: string, id: string) => `sluice/config/${group}/${policy}/${id}`;
const decKey = (group: string, policy: string, id: string) => `sluice/decisions/${group}/${policy}/${id}`;

interface Agent { proc: SluiceProcess; check: GrpcClient }

async function agents(t: TestContext, etcd: EtcdServer, n: number, env: Record<string, string> = {}): Promise<Agent[]> {
  const out: Agent[] = [];
  for (let i = 0; i < n; i++) {
    const proc = await startAgent(t, { env: { SLUICE_AGENT_ETCD_ENDPOINTS: endpointsJson(etcd), ...env } });
    out.push({ proc, check: grpcClient(t, 'flowControl', proc.address) });
  }
  return out;
}

async function accepted(a: Agent, user: string): Promise<boolean> {
  const r = await unaryCall<{ decision_type: string }>(a.check, 'Check', { control_point: CP, labels: { user } });
  return r.decision_type === 'DECISION_TYPE_ACCEPTED';
}

/** Flows of `user` accepted out of `n` on one agent. */
async function admitted(a: Agent, user: string, n: number): Promise<number> {
  let ok = 0;
  for (let i = 0; i < n; i++) if (await accepted(a, user)) ok++;
  return ok;
}

async function enforced(a: Agent): Promise<{ etcd_state: string; synced: boolean; components: { policy_name: string; component_id: string }[] }> {
  const r = await fetch(`${a.proc.base}/v1/policies/enforced`);
  return await r.json() as { etcd_state: string; synced: boolean; components: { policy_name: string; component_id: string }[] };
}

test('a published rate limiter is enforced on two agents within a second; capacity changes hold; delete returns to pass-through; other groups and malformed keys are ignored', async (t) => {
  const etcd = await startEtcd(t);
  const raw = new Etcd3({ hosts: [etcd.endpoint] });
  t.after(() => raw.close());
  const [a, b] = await agents(t, etcd, 2) as [Agent, Agent];
  await until(async () => (await enforced(a)).synced && (await enforced(b)).synced, 5000, 'agents synced');

  // Another group's limiter (and a group whose name extends ours) must never apply here.
  await raw.put(cfgKey('default2', 'other', 'root.0')).value(config('default2', 'other', 'root.0'));
  await raw.put(decKey('default2', 'other', 'root.0')).value(decision(0));
  // Malformed keys next to the real one.
  await raw.put(cfgKey('default', 'broken', 'root.0')).value('{not json');
  await raw.put(cfgKey('default', 'broken', 'root.1')).value(JSON.stringify({ kind: 'rate_limiter' }));

  // Capacity 0 rejects every flow: the first rejection is the moment of enforcement.
  const published = Date.now();
  await raw.put(decKey('default', 'p', 'root.0')).value(decision(0));
  await raw.put(cfgKey('default', 'p', 'root.0')).value(config('default', 'p', 'root.0'));
  const took: number[] = [];
  await Promise.all([a, b].map(async (agent, i) => {
    let probe = 0;
    await until(async () => !(await accepted(agent, `probe-${i}-${probe++}`)), 1000, `agent ${i} enforcing within 1 s`);
    took.push(Date.now() - published);
  }));
  t.diagnostic(`published → enforced on both agents: ${Math.max(...took)} ms`);
  assert.ok(Math.max(...took) <= 1000);
  for (const agent of [a, b]) assert.deepEqual((await enforced(agent)).components.map((c) => `${c.policy_name}/${c.component_id}`), ['p/root.0']);

  // New capacity: a fresh user gets exactly 3 across the group (the agents share buckets through the
  // distributed counter cache), whichever agent it reaches.
  await raw.put(decKey('default', 'p', 'root.0')).value(decision(3));
  await until(async () => accepted(a, `ready-${Date.now()}`), 1000, 'new decision on a');
  await until(async () => accepted(b, `ready-${Date.now()}`), 1000, 'new decision on b');
  assert.equal((await admitted(a, 'alice', 4)) + (await admitted(b, 'alice', 4)), 3);

  // Delete: pass-through again.
  await raw.delete().key(cfgKey('default', 'p', 'root.0'));
  await raw.delete().key(decKey('default', 'p', 'root.0'));
  await until(async () => accepted(a, 'alice'), 1000, 'a back to pass-through');
  await until(async () => accepted(b, 'alice'), 1000, 'b back to pass-through');
  assert.equal(await admitted(a, 'alice', 5), 5);
  assert.equal(await admitted(b, 'alice', 5), 5);
  assert.deepEqual((await enforced(a)).components, []);

  // The malformed keys were counted and nothing crashed.
  const metrics = await (await fetch(`${a.proc.base}/metrics`)).text();
  assert.match(metrics, /policy_malformed_values_total\{type="config"\} 2/);
  assert.equal(a.proc.child.exitCode, null);
  assert.equal(b.proc.child.exitCode, null);
});

test('etcd stopped for 3 × lease_ttl while traffic flows: agents keep enforcing, stay ready, and resync when it returns', async (t) => {
  const etcd = await startEtcd(t);
  const raw = new Etcd3({ hosts: [etcd.endpoint] });
  t.after(() => raw.close());
  const [a, b] = await agents(t, etcd, 2, { SLUICE_AGENT_ETCD_LEASE_TTL: '2s' }) as [Agent, Agent];
  await raw.put(decKey('default', 'p', 'root.0')).value(decision(0));
  await raw.put(cfgKey('default', 'p', 'root.0')).value(config('default', 'p', 'root.0'));
  for (const agent of [a, b]) await until(async () => !(await accepted(agent, `probe-${Date.now()}`)), 2000, 'enforcing');

  await etcd.stop();
  const until3Ttl = Date.now() + 3 * 2000;
  let checks = 0;
  let wronglyAccepted = 0;
  while (Date.now() < until3Ttl) {
    for (const agent of [a, b]) {
      checks++;
      if (await accepted(agent, `while-away-${checks}`)) wronglyAccepted++;
    }
    await sleep(50);
  }
  t.diagnostic(`${checks} checks while etcd was away, ${wronglyAccepted} accepted`);
  assert.equal(wronglyAccepted, 0, 'the last state stays enforced');
  for (const agent of [a, b]) {
    const state = await enforced(agent);
    assert.equal(state.etcd_state, 'unavailable');
    const ready = await fetch(`${agent.proc.base}/v1/status/system/readiness`);
    const body = await ready.json() as { checks: Record<string, { message: string }> };
    assert.equal(ready.status, 200, 'an agent is not taken out of service because etcd is away');
    assert.match(body.checks['readiness/service/etcd']?.message ?? '', /etcd unavailable/);
    assert.equal((await fetch(`${agent.proc.base}/v1/status/system/liveness`)).status, 200);
  }

  await etcd.start();
  // Changed as soon as etcd is back: the agents' resync (or their new watch) must see it.
  await raw.put(decKey('default', 'p', 'root.0')).value(decision(2));
  for (const [i, agent] of [a, b].entries()) {
    await until(async () => (await enforced(agent)).etcd_state === 'connected', 10_000, 'reconnected');
    await until(async () => accepted(agent, `back-${Date.now()}`), 5000, 'new decision after etcd returned');
    // One user per agent: the group shares each user's bucket.
    assert.equal(await admitted(agent, `bob-${i}`, 4), 2);
    assert.equal(agent.proc.child.exitCode, null, 'no restart');
  }
  const metrics = await (await fetch(`${a.proc.base}/metrics`)).text();
  assert.match(metrics, /etcd_client_reconnects_total [1-9]/);
});
