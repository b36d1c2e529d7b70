// The controller keeps what it publishes right (real etcd, controller and agents): keys changed,
// deleted or left behind by anyone else are corrected, and agents only ever see whole policies.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { EtcdServer } from '@sluice/etcd/testing';
import { Etcd3 } from 'etcd3';
import { grpcClient, unaryCall, type GrpcClient } from './support/clients.js';
import { endpointsJson, startEtcd } from './support/etcd.js';
import { startAgent, startController, until, type SluiceProcess } from './support/processes.js';

const b64 = (s: string): string => Buffer.from(s).toString('base64');

async function etcdGet(etcd: EtcdServer, key: string): Promise<string | undefined> {
  const r = await fetch(`${etcd.endpoint}/v3/kv/range`, { method: 'POST', body: JSON.stringify({ key: b64(key) }) });
  const kv = (await r.json() as { kvs?: { value?: string }[] }).kvs?.[0];
  return kv === undefined ? undefined : Buffer.from(kv.value ?? '', 'base64').toString();
}

async function etcdPut(etcd: EtcdServer, key: string, value: string): Promise<void> {
  assert.equal((await fetch(`${etcd.endpoint}/v3/kv/put`, { method: 'POST', body: JSON.stringify({ key: b64(key), value: b64(value) }) })).status, 200);
}

async function etcdDelete(etcd: EtcdServer, key: string): Promise<void> {
  assert.equal((await fetch(`${etcd.endpoint}/v3/kv/deleterange`, { method: 'POST', body: JSON.stringify({ key: b64(key) }) })).status, 200);
}

const limiters = (n: number, capacity: number): Record<string, unknown> => ({
  circuit: {
    evaluation_interval: '500ms',
    components: Array.from({ length: n }, (_, i) => ({ flow_control: { rate_limiter: {
      in_ports: { bucket_capacity: { constant_signal: { value: capacity } }, fill_amount: { constant_signal: { value: 0 } } },
      parameters: { label_key: 'user', interval: '3600s', continuous_fill: false },
      selectors: [{ control_point: `cp-${i}` }],
    } } })),
  },
});

async function post(c: SluiceProcess, name: string, policy: unknown): Promise<number> {
  const r = await fetch(`${c.base}/v1/policies/${name}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ policy }) });
  await r.arrayBuffer();
  return r.status;
}

let users = 0;
async function accepted(check: GrpcClient, cp: string): Promise<boolean> {
  const r = await unaryCall<{ decision_type: string }>(check, 'Check', { control_point: cp, labels: { user: `u${users++}` } });
  return r.decision_type === 'DECISION_TYPE_ACCEPTED';
}

async function repairs(c: SluiceProcess): Promise<string[]> {
  const text = await (await fetch(`${c.base}/metrics`)).text();
  return text.split('\n').filter((l) => l.startsWith('policy_publication_repairs_total{'));
}

const env = (etcd: EtcdServer): Record<string, string> => ({ SLUICE_CONTROLLER_ETCD_ENDPOINTS: endpointsJson(etcd), SLUICE_CONTROLLER_PROMETHEUS_ADDRESS: '127.0.0.1:9' });

test('a corrupted decision, a deleted configuration and a stray key are corrected; an agent started after it enforces', async (t) => {
  const etcd = await startEtcd(t);
  const controller = await startController(t, { env: env(etcd) });
  assert.equal(await post(controller, 'limit', limiters(1, 0)), 200);
  const decisionKey = 'sluice/decisions/default/limit/root.0';
  const configKey = 'sluice/config/default/limit/root.0';
  await until(async () => (await etcdGet(etcd, decisionKey)) !== undefined, 3000, 'published');
  const decision = await etcdGet(etcd, decisionKey);
  const config = await etcdGet(etcd, configKey);

  // A valid but wrong decision: pass-through.
  await etcdPut(etcd, decisionKey, JSON.stringify({ kind: 'rate_limiter', bucket_capacity: 1000, fill_amount: 0, pass_through: true }));
  await until(async () => (await etcdGet(etcd, decisionKey)) === decision, 3000, 'decision written back');
  await etcdDelete(etcd, configKey);
  await until(async () => (await etcdGet(etcd, configKey)) === config, 3000, 'configuration put back');
  await etcdPut(etcd, 'sluice/config/default/ghost/root.0', config ?? '');
  await until(async () => (await etcdGet(etcd, 'sluice/config/default/ghost/root.0')) === undefined, 3000, 'stray key deleted');
  const counted = await repairs(controller);
  t.diagnostic(counted.join('; '));
  for (const series of ['kind="decision",reason="changed"', 'kind="config",reason="deleted"', 'kind="config",reason="unowned"']) {
    assert.ok(counted.some((l) => l.includes(series) && !l.endsWith(' 0')), `counted ${series}`);
  }

  const agent = await startAgent(t, { env: { SLUICE_AGENT_ETCD_ENDPOINTS: endpointsJson(etcd) } });
  const check = grpcClient(t, 'flowControl', agent.address);
  await until(async () => !(await accepted(check, 'cp-0')), 3000, 'the agent started after the repair enforces');
});

test('a 400-component policy reaches a watching agent whole: it never enforces part of it', async (t) => {
  const etcd = await startEtcd(t);
  const controller = await startController(t, { env: env(etcd) });
  const agent = await startAgent(t, { env: { SLUICE_AGENT_ETCD_ENDPOINTS: endpointsJson(etcd) } });
  const raw = new Etcd3({ hosts: [etcd.endpoint] });
  t.after(() => raw.close());
  // Every revision at which configurations changed, with how many there were after it.
  const revisions = new Map<string, number>();
  const watcher = await raw.watch().prefix('sluice/config/').create();
  t.after(() => watcher.cancel());
  watcher.on('put', (kv) => revisions.set(String(kv.mod_revision), (revisions.get(String(kv.mod_revision)) ?? 0) + 1));

  const seen = new Set<number>();
  let polling = true;
  const poll = (async () => {
    while (polling) {
      const r = await fetch(`${agent.base}/v1/policies/enforced`);
      seen.add((await r.json() as { components: unknown[] }).components.length);
    }
  })();
  assert.equal(await post(controller, 'big', limiters(400, 0)), 200);
  await until(async () => seen.has(400), 15_000, 'all 400 enforced');
  assert.equal(await post(controller, 'big', limiters(399, 1)), 200);
  await until(async () => seen.has(399), 15_000, 'the new version (399) enforced');
  polling = false;
  await poll;
  t.diagnostic(`configuration transactions: ${[...revisions.values()].join(', ')}; component counts the agent showed: ${[...seen].join(', ')}`);
  assert.deepEqual([...seen].sort((a, b) => a - b), [0, 399, 400], 'only whole versions were ever enforced');
  assert.ok([...revisions.values()].every((n) => n <= 128), 'no transaction over etcd\'s 128 ops');
  const stored = await raw.getAll().prefix('sluice/config/default/big/').strings();
  assert.equal(Object.keys(stored).length, 399);
  assert.ok(Object.values(stored).every((v) => (JSON.parse(v) as { policy_components?: number }).policy_components === 399));
});
