import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Engine } from '@sluice/flowcontrol';
import { configKey, type PublishedComponent } from '@sluice/policies';
import { Registry } from 'prom-client';
import { PolicyEnforcement } from './policy-enforcement.js';
import { FakeEtcd } from './test-support.js';

const N = 400;

function limiter(id: string, hash: string, count: number | undefined, cp = 'ingress'): PublishedComponent {
  return {
    kind: 'rate_limiter', policy_name: 'big', policy_hash: hash, component_id: id, agent_group: 'default',
    selectors: [{ control_point: cp, agent_group: 'default' }],
    parameters: { interval_ms: 60_000, continuous_fill: false, max_idle_time_ms: 7_200_000, lazy_sync: { enabled: false, num_sync: 4 } },
    ...(count !== undefined ? { policy_components: count } : {}),
  } as PublishedComponent;
}

function setup() {
  const etcd = new FakeEtcd();
  const engine = new Engine({ agentGroup: 'default' });
  const enforcement = new PolicyEnforcement({ etcd, engine, agentGroup: 'default', registry: new Registry() });
  enforcement.start();
  return { etcd, enforcement };
}

/** The distinct (count, hash) states the agent enforced while `write` ran, after every single change. */
function statesDuring(etcd: FakeEtcd, enforcement: PolicyEnforcement, write: () => void): string[] {
  const states: string[] = [];
  const record = (): void => {
    const hashes = [...new Set(enforcement.enforced().map((e) => e.policy_hash))].sort().join('+');
    const s = `${enforcement.enforced().length}:${hashes}`;
    if (states.at(-1) !== s) states.push(s);
  };
  const put = etcd.put.bind(etcd);
  const del = etcd.delete.bind(etcd);
  etcd.put = (k: string, v: string) => { put(k, v); record(); };
  etcd.delete = (k: string) => { del(k); record(); };
  record();
  write();
  etcd.put = put;
  etcd.delete = del;
  return states;
}

test(`a ${N}-component policy written key by key is enforced only whole: none, then all ${N}; a new version replaces it whole`, () => {
  const { etcd, enforcement } = setup();
  const ids = Array.from({ length: N }, (_, i) => `root.${i}`);
  assert.deepEqual(statesDuring(etcd, enforcement, () => {
    for (const id of ids) etcd.put(configKey('sluice', 'default', 'big', id), JSON.stringify(limiter(id, 'h1', N)));
  }), ['0:', `${N}:h1`]);
  // Version 2 has one component fewer: written key by key, then the extra key deleted.
  assert.deepEqual(statesDuring(etcd, enforcement, () => {
    for (const id of ids.slice(0, N - 1)) etcd.put(configKey('sluice', 'default', 'big', id), JSON.stringify(limiter(id, 'h2', N - 1, 'egress')));
    etcd.delete(configKey('sluice', 'default', 'big', ids[N - 1]!));
  }), [`${N}:h1`, `${N - 1}:h2`]);
  // Deleted key by key: the whole version stays until the last key goes.
  assert.deepEqual(statesDuring(etcd, enforcement, () => {
    for (const id of ids.slice(0, N - 1)) etcd.delete(configKey('sluice', 'default', 'big', id));
  }), [`${N - 1}:h2`, '0:']);
});

test('configurations without policy_components stand alone (each enforced as it comes)', () => {
  const { etcd, enforcement } = setup();
  etcd.put(configKey('sluice', 'default', 'big', 'root.0'), JSON.stringify(limiter('root.0', 'h1', undefined)));
  assert.equal(enforcement.enforced().length, 1);
  etcd.put(configKey('sluice', 'default', 'big', 'root.1'), JSON.stringify(limiter('root.1', 'h1', undefined)));
  assert.equal(enforcement.enforced().length, 2);
});
