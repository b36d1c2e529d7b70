import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { InvalidArgumentError, NotFoundError } from '@sluice/errors';
import { type PolicyController } from './controller.js';
import { MemoryEtcd, until } from './test-support.js';
import { startTestController } from './test-controller.js';

/** A rate limiter whose capacity is a variable read from the dynamic configuration, and a sampler whose pass-through values are too. */
const spec = (): Record<string, unknown> => ({
  circuit: {
    evaluation_interval: '10s',
    components: [
      { variable: { constant_output: { value: '5' }, config_key: 'capacity', out_ports: { output: { signal_name: 'CAP' } } } },
      { flow_control: { rate_limiter: {
        in_ports: { bucket_capacity: { signal_name: 'CAP' }, fill_amount: { constant_signal: { value: 1 } } },
        parameters: { interval: '1s' },
        selectors: [{ control_point: 'ingress' }],
      } } },
      { flow_control: { sampler: {
        in_ports: { accept_percentage: { constant_signal: { value: 50 } } },
        parameters: { label_key: 'user', selectors: [{ control_point: 'ingress' }] },
        pass_through_label_values_config_key: 'sampler.always',
      } } },
    ],
  },
});

function setup(t: TestContext, etcd = new MemoryEtcd()): { etcd: MemoryEtcd; c: PolicyController } {
  return startTestController(t, { etcd });
}

const decision = (etcd: MemoryEtcd) => JSON.parse(etcd.data.get('sluice/decisions/default/p/root.1') ?? 'null') as { bucket_capacity: number } | null;
const sampler = (etcd: MemoryEtcd) => JSON.parse(etcd.data.get('sluice/config/default/p/root.2') ?? 'null') as { pass_through_label_values: string[]; policy_hash: string } | null;

test('a dynamic configuration sets a variable and a sampler\'s pass-through values without publishing the policy again', async (t) => {
  const { etcd, c } = setup(t);
  await c.store.upsert('p', spec());
  await until(() => decision(etcd)?.bucket_capacity === 5, 5000, 'the constant capacity');
  const limiterConfig = etcd.data.get('sluice/config/default/p/root.1');
  const hash = sampler(etcd)?.policy_hash;
  const effective = await c.dynamicConfigs.set('p', { capacity: '42', sampler: { always: ['alice'] } });
  assert.deepEqual(effective, { capacity: '42', sampler: { always: ['alice'] } });
  assert.deepEqual(c.policies.view('p')?.signals, { CAP: 42 }, 'the circuit ran at once with the value');
  await until(() => decision(etcd)?.bucket_capacity === 42 && sampler(etcd)?.pass_through_label_values[0] === 'alice', 5000, 'the new values published');
  assert.deepEqual(sampler(etcd)?.pass_through_label_values, ['alice']);
  assert.equal(sampler(etcd)?.policy_hash, hash, 'same policy version');
  assert.equal(etcd.data.get('sluice/config/default/p/root.1'), limiterConfig, 'the rate limiter is not published again');
  assert.deepEqual(JSON.parse(etcd.data.get('sluice/dynamic-configs/p')!), { capacity: '42', sampler: { always: ['alice'] } });
  assert.deepEqual(c.dynamicConfigs.get('p'), { capacity: '42', sampler: { always: ['alice'] } });
});

test('a member no component names, or a value of the wrong type, is a 400 naming it, and nothing changes', async (t) => {
  const { etcd, c } = setup(t);
  await c.store.upsert('p', spec());
  await assert.rejects(c.dynamicConfigs.set('p', { capacty: 1 }), (err: unknown) => {
    assert.ok(err instanceof InvalidArgumentError);
    assert.equal(err.field, 'dynamic_config.capacty');
    assert.match(err.message, /unknown key.*the keys are capacity, sampler\.always/);
    return true;
  });
  await assert.rejects(c.dynamicConfigs.set('p', { capacity: 'lots' }), (err: unknown) => err instanceof InvalidArgumentError && err.field === 'dynamic_config.capacity' && /"lots" is not a finite number/.test(err.message));
  await assert.rejects(c.dynamicConfigs.set('p', { sampler: { always: 'alice' } }), (err: unknown) => err instanceof InvalidArgumentError && err.field === 'dynamic_config.sampler.always' && /list of strings/.test(err.message));
  await assert.rejects(c.dynamicConfigs.set('nope', { capacity: 1 }), NotFoundError);
  assert.equal(etcd.data.get('sluice/dynamic-configs/p'), undefined);
  assert.throws(() => c.dynamicConfigs.get('p'), NotFoundError);
});

test('dynamic configurations are kept in etcd across controller restarts, and deleting one brings back the spec\'s values', async (t) => {
  const etcd = new MemoryEtcd();
  const first = setup(t, etcd);
  await first.c.store.upsert('p', spec());
  await first.c.dynamicConfigs.set('p', { capacity: 7 });
  await until(() => decision(etcd)?.bucket_capacity === 7, 5000, 'the posted value');
  await first.c.shutdown();
  etcd.data.delete('sluice/decisions/default/p/root.1');
  const second = setup(t, etcd);
  await until(() => decision(etcd)?.bucket_capacity === 7, 5000, 'the stored value after a restart');
  assert.deepEqual(second.c.dynamicConfigs.get('p'), { capacity: 7 });
  await second.c.dynamicConfigs.remove('p');
  assert.equal(etcd.data.get('sluice/dynamic-configs/p'), undefined);
  await assert.rejects(second.c.dynamicConfigs.remove('p'), NotFoundError);
  // The variable keeps its last value until something sets it (as with the variables API); a new
  // value from the document sets it again.
  await second.c.dynamicConfigs.set('p', { capacity: 9 });
  await until(() => decision(etcd)?.bucket_capacity === 9, 5000, 'the value posted again');
});

test('a Policy resource\'s dynamicConfig is checked and applied; the API\'s members win over it', async (t) => {
  const { etcd, c } = setup(t);
  const refused = await c.sink.apply('k', spec(), { capacity: true });
  assert.equal(refused.ok, false);
  assert.match((refused as { message: string }).message, /dynamicConfig\.capacity: boolean is not a finite number/);
  const ok = await c.sink.apply('k', spec(), { capacity: 3, sampler: { always: ['bob'] } });
  assert.equal(ok.ok, true);
  const k = () => JSON.parse(etcd.data.get('sluice/decisions/default/k/root.1') ?? 'null') as { bucket_capacity: number } | null;
  await until(() => k()?.bucket_capacity === 3, 5000, 'the resource\'s value');
  await c.dynamicConfigs.set('k', { capacity: 4 });
  await until(() => k()?.bucket_capacity === 4, 5000, 'the API\'s value over the resource\'s');
  assert.deepEqual(c.dynamicConfigs.get('k'), { capacity: 4, sampler: { always: ['bob'] } });
  await until(() => etcd.data.has('sluice/config/default/k/root.2'), 5000, 'the sampler published');
  assert.deepEqual((JSON.parse(etcd.data.get('sluice/config/default/k/root.2')!) as { pass_through_label_values: string[] }).pass_through_label_values, ['bob']);
});
