import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { compilePolicy, POLICY_NAME_MAX_LENGTH } from '@sluice/policies';
import { checkPolicyName } from './policy-name.js';
import { MemoryEtcd, until } from './test-support.js';
import { startTestController } from './test-controller.js';

const limiter = (value: number): Record<string, unknown> => ({
  circuit: {
    components: [{ flow_control: { rate_limiter: {
      in_ports: { bucket_capacity: { constant_signal: { value } }, fill_amount: { constant_signal: { value: 1 } } },
      parameters: { interval: '1s' }, selectors: [{ control_point: 'ingress' }],
    } } }],
  },
});

function start(t: TestContext, etcd: MemoryEtcd) {
  return startTestController(t, { etcd }).c;
}

const stored = (name: string, value: number): string => JSON.stringify({ name, spec: limiter(value), hash: 'x', source: 'api' });

test('one name rule on every path: API, compile, CR sink', async (t) => {
  const controller = start(t, new MemoryEtcd());
  const longest = `${'a'.repeat(POLICY_NAME_MAX_LENGTH - 2)}.b`;
  assert.equal(checkPolicyName(longest), longest);
  assert.equal(checkPolicyName('ns.rate-limit-1'), 'ns.rate-limit-1');
  for (const bad of ['', 'Upper', '-a', 'a-', 'a/b', 'a_b', 'a'.repeat(POLICY_NAME_MAX_LENGTH + 1), 5, undefined]) {
    assert.throws(() => checkPolicyName(bad), { name: 'InvalidArgumentError' }, String(bad));
    if (typeof bad === 'string') {
      assert.throws(() => compilePolicy(bad, limiter(1)), { name: 'PolicyCompileError' }, `compile ${bad}`);
      assert.equal((await controller.sink.apply(bad, limiter(1))).ok, false, `sink ${bad}`);
    }
  }
});

test('a policy written into etcd under a name the API refuses is never run (initial read and watch)', async (t) => {
  const etcd = new MemoryEtcd();
  await etcd.put('sluice/policies/Bad_Name', stored('Bad_Name', 3));
  await etcd.put('sluice/policies/good', stored('good', 3));
  const controller = start(t, etcd);
  await until(() => controller.policies.view('good')?.status === 'running', 2000, 'the good one runs');
  assert.equal(controller.policies.view('Bad_Name'), undefined);
  await etcd.put(`sluice/policies/${'x'.repeat(300)}`, stored('x', 3));
  await etcd.put('sluice/policies/UPPER', stored('UPPER', 3));
  await etcd.put('sluice/policies/later', stored('later', 4));
  await until(() => controller.policies.view('later')?.status === 'running', 2000, 'a later good one runs');
  assert.equal(controller.policies.view('x'.repeat(300)), undefined);
  assert.equal(controller.policies.view('UPPER'), undefined);
  await controller.publisher.idle();
  const published = [...etcd.data.keys()].filter((k) => !k.startsWith('sluice/policies/'));
  assert.ok(published.some((k) => k.includes('/good/')), JSON.stringify(published));
  assert.deepEqual(published.filter((k) => /Bad_Name|UPPER|xxx/.test(k)), [], 'nothing published for the refused names');
});

test('an API policy and a Policy resource never share a name: the resource is refused in its status, the API refuses a resource\'s name', async (t) => {
  const controller = start(t, new MemoryEtcd());
  await controller.store.upsert('shared', limiter(5));
  const clash = await controller.sink.apply('shared', limiter(9));
  assert.equal(clash.ok, false);
  assert.match(clash.ok ? '' : clash.message, /exists through the policy API/);
  await controller.policies.reconcile();
  assert.equal(controller.policies.view('shared')?.status, 'running');
  assert.equal(controller.policies.view('shared')?.hash, compilePolicy('shared', limiter(5)).hash, 'the API policy keeps running');
  assert.ok((await controller.sink.apply('from-cr', limiter(2))).ok);
  await assert.rejects(controller.store.upsert('from-cr', limiter(3)), { name: 'PolicyManagedElsewhereError' });
  // Once the API policy is gone, the resource may take the name.
  await controller.store.remove('shared');
  assert.ok((await controller.sink.apply('shared', limiter(9))).ok);
});
