import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_HTTP_CLIENT_CONFIG } from '@sluice/clients';
import { compilePolicy } from '@sluice/policies';
import { Registry } from 'prom-client';
import { createPolicyController, type PolicyController } from './controller.js';
import { MemoryEtcd, until } from './test-support.js';

const limiter = (capacity: number): Record<string, unknown> => ({
  circuit: {
    evaluation_interval: '100ms',
    components: [{ flow_control: { rate_limiter: {
      in_ports: { bucket_capacity: { constant_signal: { value: capacity } }, fill_amount: { constant_signal: { value: 1 } } },
      parameters: { interval: '1s' },
      selectors: [{ control_point: 'ingress' }],
    } } }],
  },
});

function controllerOn(t: TestContext, etcd: MemoryEtcd, crWatcher = false): PolicyController {
  const c = createPolicyController({
    config: {
      prometheus: { address: 'http://127.0.0.1:9', labels: [], http_client: { ...DEFAULT_HTTP_CLIENT_CONFIG, timeout: '1s' } },
      policies: { cr_watcher: { enabled: crWatcher }, promql_jobs_scheduler: { blocking_execution: false, worker_limit: 0 } },
    },
    etcd, language: { compilePolicy }, registry: new Registry(),
    server: { addService: () => undefined, addGatewayRoute: () => undefined },
  });
  c.start();
  t.after(() => c.shutdown());
  return c;
}

test('published keys outlive the controller; a restarted one keeps what exists and deletes what no longer does', async (t) => {
  const etcd = new MemoryEtcd();
  const first = controllerOn(t, etcd);
  await first.store.upsert('stays', limiter(5));
  await first.store.upsert('goes', limiter(7));
  await until(() => etcd.under('sluice/decisions/').size === 2, 2000, 'decisions published');
  await first.shutdown();
  assert.equal(etcd.under('sluice/config/').size, 2, 'configurations stay after shutdown');
  assert.equal(etcd.under('sluice/decisions/').size, 2, 'decisions stay after shutdown');

  // While no controller runs, the stored policy "goes" is deleted.
  await etcd.delete('sluice/policies/goes');
  const deleted: string[] = [];
  etcd.watchPrefix('sluice/', { reset: () => undefined, put: () => undefined, delete: (k) => { deleted.push(k); } });
  const second = controllerOn(t, etcd);
  await until(() => etcd.under('sluice/config/').size === 1 && etcd.under('sluice/decisions/').size === 1, 3000, 'keys of the deleted policy collected');
  assert.deepEqual([...etcd.under('sluice/config/').keys()], ['sluice/config/default/stays/root.0']);
  assert.deepEqual(deleted.sort(), ['sluice/config/default/goes/root.0', 'sluice/decisions/default/goes/root.0'], 'the kept policy\'s keys were never deleted');

  // A policy deleted through the API after the restart is removed at once.
  await second.store.remove('stays');
  await second.publisher.idle();
  assert.equal(etcd.under('sluice/config/').size + etcd.under('sluice/decisions/').size, 0);
});

test('with the CR watcher on, keys no policy owns wait for its first complete list', async (t) => {
  const etcd = new MemoryEtcd();
  await etcd.put('sluice/config/default/from-cr/root.0', '{}');
  await etcd.put('sluice/config/default/old-cr/root.0', '{}');
  const c = controllerOn(t, etcd, true);
  await until(() => c.storeSynced(), 2000, 'store read');
  await c.sink.apply('from-cr', limiter(3));
  await c.publisher.idle();
  assert.ok(etcd.data.has('sluice/config/default/old-cr/root.0'), 'not collected before the CRs were listed');
  c.sink.listed();
  await until(() => !etcd.data.has('sluice/config/default/old-cr/root.0'), 2000, 'collected after the list');
  assert.ok(etcd.data.has('sluice/config/default/from-cr/root.0'));
});
