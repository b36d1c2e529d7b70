import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_HTTP_CLIENT_CONFIG } from '@sluice/clients';
import { compilePolicy } from '@sluice/policies';
import { Registry } from 'prom-client';
import { createPolicyController } from './controller.js';
import { MemoryEtcd } from './test-support.js';

const limiter = (fill: unknown, extra: unknown[] = []): Record<string, unknown> => ({
  circuit: {
    components: [{ flow_control: { rate_limiter: {
      in_ports: { bucket_capacity: { constant_signal: { value: 10 } }, fill_amount: fill },
      parameters: { interval: '1s' },
      selectors: [{ control_point: 'ingress' }],
    } } }, ...extra],
  },
});

const RL = 'spec.circuit.components[0].flow_control.rate_limiter';

test('check: the policy API\'s compile (with the prometheus.labels checks of queries), nothing applied', async (t) => {
  const etcd = new MemoryEtcd();
  const controller = createPolicyController({
    config: {
      prometheus: { address: '127.0.0.1:9', labels: [{ name: 'cluster', value: 'east' }], http_client: DEFAULT_HTTP_CLIENT_CONFIG },
      policies: { cr_watcher: { enabled: false }, promql_jobs_scheduler: { blocking_execution: false, worker_limit: 0 } },
    },
    etcd,
    language: { compilePolicy },
    registry: new Registry(),
    server: { addService: () => undefined, addGatewayRoute: () => undefined },
  });
  t.after(() => controller.shutdown());

  assert.deepEqual(controller.check('ok', limiter({ constant_signal: { value: 5 } })), { ok: true, ignored: [] });
  const inert = { ...limiter({ constant_signal: { value: 5 } }), resources: { infra_meters: {} } };
  assert.deepEqual(controller.check('inert', inert), { ok: true, ignored: ['spec.resources.infra_meters'] });

  const unread = controller.check('bad', limiter({ signal_name: 'NOPE' }));
  assert.equal(unread.ok, false);
  if (!unread.ok) assert.deepEqual(unread.problems.map((p) => p.path), [`${RL}.in_ports.fill_amount.signal_name`]);

  // A query the compiler accepts but prometheus.labels cannot be put into: named at the query's path.
  const query = limiter({ signal_name: 'Q' }, [{ query: { promql: { query_string: 'up{a="b"', out_ports: { output: { signal_name: 'Q' } } } } }]);
  const labelled = controller.check('query', query);
  assert.equal(labelled.ok, false);
  if (!labelled.ok) assert.match(labelled.problems[0].path, /^spec\.circuit\.components\[1\]\.query\.promql\.query_string$/);

  assert.equal(controller.check('bad name!', limiter({ constant_signal: { value: 5 } })).ok, false);

  // A resource's dynamicConfig is checked against the keys its components name.
  const keyed = limiter({ signal_name: 'FILL' }, [{ variable: { constant_output: { value: '5' }, config_key: 'fill', out_ports: { output: { signal_name: 'FILL' } } } }]);
  assert.deepEqual(controller.check('dyn', keyed, { fill: '7' }), { ok: true, ignored: [] });
  const badKey = controller.check('dyn', keyed, { fil: 7, fill: 'lots' });
  assert.equal(badKey.ok, false);
  if (!badKey.ok) assert.deepEqual(badKey.problems.map((p) => p.path), ['dynamicConfig.fil', 'dynamicConfig.fill']);
  // Nothing was applied.
  assert.deepEqual(controller.policies.namesOf('kubernetes'), []);
  assert.deepEqual([...etcd.data.keys()], []);
});
