// How the controller publishes what agents enforce, end to end with real etcd, a real controller
// and real agents: enforcement outlives the controller (its keys are on no lease), keys of a
// policy deleted while it was away go when it returns, and concurrent API writes are all kept.
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import type { EtcdServer } from '@sluice/etcd/testing';
import { grpcClient, unaryCall, type GrpcClient } from './support/clients.js';
import { endpointsJson, startEtcd } from './support/etcd.js';
import { startAgent, startController, until, type SluiceProcess } from './support/processes.js';

const LEASE_TTL_S = 2;
const b64 = (s: string): string => Buffer.from(s).toString('base64');

async function etcdRange(etcd: EtcdServer, prefix: string): Promise<Map<string, string>> {
  const end = prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
  const r = await fetch(`${etcd.endpoint}/v3/kv/range`, { method: 'POST', body: JSON.stringify({ key: b64(prefix), range_end: b64(end) }) });
  const body = await r.json() as { kvs?: { key: string; value: string }[] };
  return new Map((body.kvs ?? []).map((kv) => [Buffer.from(kv.key, 'base64').toString(), Buffer.from(kv.value ?? '', 'base64').toString()]));
}

async function etcdDelete(etcd: EtcdServer, key: string): Promise<void> {
  const r = await fetch(`${etcd.endpoint}/v3/kv/deleterange`, { method: 'POST', body: JSON.stringify({ key: b64(key) }) });
  assert.equal(r.status, 200);
}

const limiter = (cp: string, capacity: number): Record<string, unknown> => ({
  circuit: {
    evaluation_interval: '500ms',
    components: [{ flow_control: { rate_limiter: {
      in_ports: { bucket_capacity: { constant_signal: { value: capacity } }, fill_amount: { constant_signal: { value: 0 } } },
      parameters: { label_key: 'user', interval: '3600s', continuous_fill: false },
      selectors: [{ control_point: cp }],
    } } }],
  },
});

async function send(c: SluiceProcess, method: string, path: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const r = await fetch(`${c.base}${path}`, { method, ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }) });
  const text = await r.text();
  return { status: r.status, body: text === '' ? {} : JSON.parse(text) as Record<string, unknown> };
}

let users = 0;
async function accepted(check: GrpcClient, cp: string): Promise<boolean> {
  const r = await unaryCall<{ decision_type: string }>(check, 'Check', { control_point: cp, labels: { user: `u${users++}` } });
  return r.decision_type === 'DECISION_TYPE_ACCEPTED';
}

function controllerEnv(endpoints: string): Record<string, string> {
  return { SLUICE_CONTROLLER_ETCD_ENDPOINTS: endpoints, SLUICE_CONTROLLER_ETCD_LEASE_TTL: `${LEASE_TTL_S}s`, SLUICE_CONTROLLER_PROMETHEUS_ADDRESS: '127.0.0.1:9' };
}

async function agents(t: TestContext, endpoints: string, n: number): Promise<GrpcClient[]> {
  const out: GrpcClient[] = [];
  for (let i = 0; i < n; i++) {
    const agent = await startAgent(t, { env: { SLUICE_AGENT_ETCD_ENDPOINTS: endpoints, SLUICE_AGENT_ETCD_LEASE_TTL: `${LEASE_TTL_S}s` } });
    out.push(grpcClient(t, 'flowControl', agent.address));
  }
  return out;
}

test(`controller killed for 3× the lease (${LEASE_TTL_S} s) under traffic: agents keep enforcing; a policy deleted meanwhile goes when it returns; an API delete after that goes at once`, async (t) => {
  const etcd = await startEtcd(t);
  const endpoints = endpointsJson(etcd);
  let controller = await startController(t, { env: controllerEnv(endpoints) });
  const checks = await agents(t, endpoints, 2);
  // Capacity 0: every flow is turned away while a policy is enforced.
  assert.equal((await send(controller, 'POST', '/v1/policies/keep', { policy: limiter('cp-keep', 0) })).status, 200);
  assert.equal((await send(controller, 'POST', '/v1/policies/drop', { policy: limiter('cp-drop', 0) })).status, 200);
  for (const c of checks) {
    await until(async () => !(await accepted(c, 'cp-keep')) && !(await accepted(c, 'cp-drop')), 5000, 'both policies enforced');
  }
  const stored = await etcdRange(etcd, 'sluice/');
  assert.ok(stored.has('sluice/decisions/default/keep/root.0') && stored.has('sluice/config/default/keep/root.0'));

  controller.child.kill('SIGKILL');
  await controller.exited;
  // While no controller runs, the stored policy "drop" is deleted (as another controller, or an operator, would).
  await etcdDelete(etcd, 'sluice/policies/drop');
  let admitted = 0;
  let asked = 0;
  const until3x = Date.now() + 3 * LEASE_TTL_S * 1000 + 500;
  while (Date.now() < until3x) {
    for (const c of checks) {
      for (const cp of ['cp-keep', 'cp-drop']) {
        asked++;
        if (await accepted(c, cp)) admitted++;
      }
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  t.diagnostic(`controller away ${3 * LEASE_TTL_S} s+: ${admitted} of ${asked} flows admitted (capacity 0)`);
  assert.equal(admitted, 0, 'enforcement held while the controller was away');
  assert.ok((await etcdRange(etcd, 'sluice/config/')).size === 2, 'configurations still in etcd after 3× the lease');

  controller = await startController(t, { env: controllerEnv(endpoints) });
  for (const c of checks) await until(async () => await accepted(c, 'cp-drop'), 10_000, 'the policy deleted meanwhile is gone from the agents');
  assert.deepEqual([...(await etcdRange(etcd, 'sluice/config/')).keys()], ['sluice/config/default/keep/root.0']);
  for (const c of checks) assert.equal(await accepted(c, 'cp-keep'), false, 'the kept policy was enforced throughout the restart');

  assert.equal((await send(controller, 'DELETE', '/v1/policies/keep')).status, 200);
  for (const c of checks) await until(async () => await accepted(c, 'cp-keep'), 5000, 'the API delete reached the agents');
  assert.equal((await etcdRange(etcd, 'sluice/config/')).size + (await etcdRange(etcd, 'sluice/decisions/')).size, 0);
});

test('20 concurrent PATCHes each adding a flux meter: every 200 is a kept write', async (t) => {
  const etcd = await startEtcd(t);
  const controller = await startController(t, { env: controllerEnv(endpointsJson(etcd)) });
  assert.equal((await send(controller, 'POST', '/v1/policies/meters', { policy: limiter('cp', 5) })).status, 200);
  const replies = await Promise.all(Array.from({ length: 20 }, (_, i) => send(controller, 'PATCH', '/v1/policies/meters', {
    policy: { resources: { flow_control: { flux_meters: { [`m${i}`]: { selectors: [{ control_point: 'cp' }] } } } } },
  })));
  assert.deepEqual(replies.map((r) => r.status), Array(20).fill(200));
  const names = (p: unknown): string[] => Object.keys(((p as { resources?: { flow_control?: { flux_meters?: object } } }).resources?.flow_control?.flux_meters) ?? {}).sort();
  const want = Array.from({ length: 20 }, (_, i) => `m${i}`).sort();
  assert.deepEqual(names((await send(controller, 'GET', '/v1/policies/meters')).body.spec), want, 'every flux meter in the policy');
  const kept = JSON.parse((await etcdRange(etcd, 'sluice/policies/meters')).get('sluice/policies/meters') ?? '{}') as { spec?: unknown };
  assert.deepEqual(names(kept.spec), want, 'every flux meter stored in etcd');
});

test('POST racing DELETE on one policy: the answers, GET, etcd and a restarted controller agree', async (t) => {
  const etcd = await startEtcd(t);
  const endpoints = endpointsJson(etcd);
  let controller = await startController(t, { env: controllerEnv(endpoints) });
  for (let round = 0; round < 25; round++) {
    assert.equal((await send(controller, 'POST', '/v1/policies/race', { policy: limiter('cp', round) })).status, 200);
    const [post, del] = await Promise.all([
      send(controller, 'POST', '/v1/policies/race', { policy: limiter('cp', round + 100) }),
      send(controller, 'DELETE', '/v1/policies/race'),
    ]);
    assert.equal(post.status, 200);
    assert.ok(del.status === 200 || del.status === 404, `DELETE: ${del.status}`);
    const get = await send(controller, 'GET', '/v1/policies/race');
    const inEtcd = (await etcdRange(etcd, 'sluice/policies/race')).size === 1;
    assert.equal(get.status === 200, inEtcd, `round ${round}: GET ${get.status} while etcd ${inEtcd ? 'holds' : 'lacks'} the policy`);
    await until(async () => (await etcdRange(etcd, 'sluice/config/default/race/')).size === (inEtcd ? 1 : 0), 3000, `round ${round}: published keys follow`);
    if (get.status === 200) assert.equal((await send(controller, 'DELETE', '/v1/policies/race')).status, 200);
  }
  controller.child.kill('SIGTERM');
  await controller.exited;
  controller = await startController(t, { env: controllerEnv(endpoints) });
  assert.equal((await send(controller, 'GET', '/v1/policies/race')).status, 404, 'nothing comes back after a restart');
  await until(async () => (await etcdRange(etcd, 'sluice/config/')).size === 0, 3000, 'no published keys');
});
