import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { GrpcCode } from '@sluice/errors';
import { type PolicyController } from './controller.js';
import { PolicyChangedError } from './policy-store.js';
import { MemoryEtcd } from './test-support.js';
import { startTestController } from './test-controller.js';

const spec = (capacity: number): Record<string, unknown> => ({
  circuit: {
    evaluation_interval: '1s',
    components: [{ flow_control: { rate_limiter: {
      in_ports: { bucket_capacity: { constant_signal: { value: capacity } }, fill_amount: { constant_signal: { value: 1 } } },
      parameters: { interval: '1s' },
      selectors: [{ control_point: 'ingress' }],
    } } }],
  },
});

function setup(t: TestContext): { etcd: MemoryEtcd; c: PolicyController } {
  return startTestController(t);
}

const meters = (s: unknown): string[] => Object.keys((s as { resources?: { flow_control?: { flux_meters?: object } } }).resources?.flow_control?.flux_meters ?? {}).sort();

test('20 concurrent merge patches of one policy are all kept', async (t) => {
  const { etcd, c } = setup(t);
  await c.store.upsert('p', spec(5));
  const names = Array.from({ length: 20 }, (_, i) => `m${String(i).padStart(2, '0')}`);
  await Promise.all(names.map((n) => c.store.patch('p', { resources: { flow_control: { flux_meters: { [n]: { selectors: [{ control_point: 'ingress' }] } } } } })));
  assert.deepEqual(meters(c.policies.view('p')?.spec), names);
  assert.deepEqual(meters((JSON.parse(etcd.data.get('sluice/policies/p')!) as { spec: unknown }).spec), names);
});

test('a patch whose policy another writer changed after the read is refused (ABORTED, 409) and writes nothing', async (t) => {
  const { etcd, c } = setup(t);
  await c.store.upsert('p', spec(5));
  const other = JSON.stringify({ name: 'p', spec: spec(9), hash: 'x', source: 'api' });
  etcd.afterGet = () => { etcd.afterGet = undefined; void etcd.put('sluice/policies/p', other); };
  await assert.rejects(c.store.patch('p', { circuit: { evaluation_interval: '2s' } }), (err: unknown) => {
    assert.ok(err instanceof PolicyChangedError);
    assert.equal(err.grpcCode, GrpcCode.ABORTED);
    assert.equal(err.httpStatus, 409);
    assert.match(err.message, /changed by another writer.*read it again and retry/);
    return true;
  });
  assert.equal(etcd.data.get('sluice/policies/p'), other, 'the other writer\'s policy stands');
  // The next patch merges into what the other writer stored.
  await c.store.patch('p', { circuit: { evaluation_interval: '2s' } });
  const stored = JSON.parse(etcd.data.get('sluice/policies/p')!) as { spec: { circuit: { evaluation_interval: string; components: unknown[] } } };
  assert.equal(stored.spec.circuit.evaluation_interval, '2s');
  assert.deepEqual(stored.spec.circuit.components, (spec(9).circuit as { components: unknown[] }).components);
});

test('an upsert racing a remove: the registry and etcd end the same, whichever came last', async (t) => {
  const { etcd, c } = setup(t);
  for (let round = 0; round < 20; round++) {
    await c.store.upsert('r', spec(round + 1));
    const results = await Promise.allSettled(round % 2 === 0
      ? [c.store.upsert('r', spec(100 + round)), c.store.remove('r')]
      : [c.store.remove('r'), c.store.upsert('r', spec(100 + round))]);
    assert.ok(results.every((r) => r.status === 'fulfilled'), JSON.stringify(results));
    const inRegistry = c.policies.view('r') !== undefined;
    assert.equal(inRegistry, etcd.data.has('sluice/policies/r'), `round ${round}`);
    assert.equal(inRegistry, round % 2 === 1, `round ${round}: the last write wins`);
    if (inRegistry) await c.store.remove('r');
  }
});
