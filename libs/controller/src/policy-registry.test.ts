import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_HTTP_CLIENT_CONFIG } from '@sluice/clients';
import { compilePolicy } from '@sluice/policies';
import { Registry } from 'prom-client';
import { createPolicyController } from './controller.js';
import { PolicyRejectedError } from './policy-errors.js';
import { fakePrometheus, MemoryEtcd, until } from './test-support.js';
import { startTestController } from './test-controller.js';
import { silentLogger } from '@sluice/telemetry/logger';

const limiter = (capacity: unknown, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  circuit: {
    evaluation_interval: '100ms',
    components: [{ flow_control: { rate_limiter: {
      in_ports: { bucket_capacity: capacity, fill_amount: { constant_signal: { value: 5 } } },
      parameters: { interval: '1s' },
      selectors: [{ control_point: 'ingress' }],
    } } }, ...((extra.components as unknown[]) ?? [])],
  },
});

const promqlPolicy = (query: string): Record<string, unknown> => limiter({ signal_name: 'C' }, {
  components: [
    { query: { promql: { query_string: query, evaluation_interval: '100ms', out_ports: { output: { signal_name: 'Q' } } } } },
    { arithmetic_combinator: { operator: 'mul', in_ports: { lhs: { signal_name: 'Q' }, rhs: { constant_signal: { value: 2 } } }, out_ports: { output: { signal_name: 'C' } } } },
  ],
});

async function setup(t: TestContext, promValue: () => unknown = () => ({ status: 'success', data: { resultType: 'scalar', result: [0, '21'] } })) {
  const etcd = new MemoryEtcd();
  const prom = await fakePrometheus(() => ({ body: promValue() }));
  t.after(() => prom.close());
  const routes: unknown[] = [];
  const registry = new Registry();
  const controller = createPolicyController({
    config: {
      prometheus: { address: prom.url, labels: [{ name: 'cluster', value: 'east' }], http_client: { ...DEFAULT_HTTP_CLIENT_CONFIG, timeout: '2s' } },
      policies: { cr_watcher: { enabled: false }, promql_jobs_scheduler: { blocking_execution: false, worker_limit: 0 } },
    },
    etcd,
    language: { compilePolicy },
    registry,
    server: { addService: () => undefined, addGatewayRoute: (r) => { routes.push(r); } },
  });
  controller.start();
  t.after(() => controller.shutdown());
  return { etcd, prom, controller, registry, routes };
}

const decisionOf = (etcd: MemoryEtcd, policy: string): Record<string, unknown> | undefined => {
  const v = etcd.data.get(`sluice/decisions/default/${policy}/root.0`);
  return v === undefined ? undefined : JSON.parse(v) as Record<string, unknown>;
};

test('an API policy is stored, its component and decision published on no lease; a change rewrites only the decision; delete removes all', async (t) => {
  const { etcd, controller, routes } = await setup(t);
  assert.equal(routes.length, 10, 'ten gateway routes (policies, decisions, variables, dynamic configurations)');
  await controller.store.upsert('p1', limiter({ constant_signal: { value: 10 } }));
  assert.ok(etcd.data.has('sluice/policies/p1'), 'stored without lease');
  assert.ok(!etcd.leasedKeys.has('sluice/policies/p1'));
  await until(() => decisionOf(etcd, 'p1')?.bucket_capacity === 10, 2000, 'decision published');
  const config = JSON.parse(etcd.data.get('sluice/config/default/p1/root.0')!) as Record<string, unknown>;
  assert.equal(config.kind, 'rate_limiter');
  assert.equal(config.policy_components, 1, 'the configuration counts the policy\'s components in its group');
  assert.equal(etcd.leasedKeys.size, 0, 'nothing published on the lease: agents keep it when the controller is away');

  // Ticks every 100 ms write nothing while nothing changes.
  const writes = etcd.writes;
  await new Promise((r) => setTimeout(r, 350));
  assert.equal(etcd.writes, writes, 'unchanged decisions are not rewritten');

  await controller.store.patch('p1', { circuit: { components: limiter({ constant_signal: { value: 3 } }).circuit && (limiter({ constant_signal: { value: 3 } }).circuit as { components: unknown }).components } });
  await until(() => decisionOf(etcd, 'p1')?.bucket_capacity === 3, 2000, 'new capacity');
  assert.equal(controller.policies.view('p1')?.status, 'running');
  assert.deepEqual(controller.policies.decisions('rate_limiter').map((d) => [d.policy_name, d.decision.kind === 'rate_limiter' && d.decision.bucket_capacity]), [['p1', 3]]);

  await controller.store.remove('p1');
  await controller.publisher.idle();
  assert.deepEqual([...etcd.under('sluice/')], [], 'every key is gone');
  assert.equal(controller.policies.view('p1'), undefined);
});

test('a bad policy is refused with the field path and disturbs nothing', async (t) => {
  const { etcd, controller } = await setup(t);
  await controller.store.upsert('good', limiter({ constant_signal: { value: 10 } }));
  await controller.publisher.idle();
  const before = JSON.stringify([...etcd.data]);
  const bad: [string, unknown][] = [
    ['negative capacity', limiter({ constant_signal: { value: -1 } })],
    ['undefined signal', limiter({ signal_name: 'NOPE' })],
    ['not an object', 'x'],
  ];
  for (const [what, spec] of bad) {
    await assert.rejects(controller.store.upsert('good', spec), (err: unknown) => {
      assert.ok(err instanceof PolicyRejectedError, what);
      assert.match(err.problems[0].path, /^spec/, what);
      return true;
    });
  }
  await assert.rejects(controller.store.upsert('other', limiter({ constant_signal: { value: -5 } })), PolicyRejectedError);
  await controller.publisher.idle();
  assert.equal(JSON.stringify([...etcd.data]), before, 'etcd unchanged');
  assert.deepEqual(controller.policies.list().map((p) => p.name), ['good']);
});

test('PromQL: queries carry prometheus.labels, results drive the capacity, an invalid result keeps the last good value', async (t) => {
  let answer: unknown = { status: 'success', data: { resultType: 'vector', result: [{ metric: {}, value: [0, '21'] }] } };
  const { etcd, controller, prom, registry } = await setup(t, () => answer);
  await controller.store.upsert('pq', promqlPolicy('sum(rate(flux_meter_count[1m]))'));
  await until(() => decisionOf(etcd, 'pq')?.bucket_capacity === 42, 3000, 'capacity from PromQL');
  assert.ok(prom.queries.includes('sum(rate(flux_meter_count{cluster="east"}[1m]))'), prom.queries[0]);
  answer = { status: 'success', data: { resultType: 'vector', result: [] } };
  await until(() => /0 series/.test(controller.policies.view('pq')?.last_error ?? ''), 3000, 'error shown');
  assert.equal(decisionOf(etcd, 'pq')?.bucket_capacity, 42, 'last good value kept');
  const failures = (await registry.getSingleMetric('promql_job_failures_total')!.get()).values;
  assert.ok(failures.some((v) => v.labels.reason === 'result' && v.value >= 1));
  answer = { status: 'success', data: { resultType: 'scalar', result: [0, '5'] } };
  await until(() => decisionOf(etcd, 'pq')?.bucket_capacity === 10, 3000, 'follows the new value');
  const ticks = (await registry.getSingleMetric('circuit_ticks_total')!.get()).values;
  assert.ok(ticks.some((v) => v.labels.policy_name === 'pq' && v.value >= 2));
});

test('variables: set through the registry, unknown signal or policy refused', async (t) => {
  const { etcd, controller } = await setup(t);
  const spec = limiter({ signal_name: 'V' }, { components: [{ variable: { constant_output: { value: 4 }, out_ports: { output: { signal_name: 'V' } } } }] });
  await controller.store.upsert('v', spec);
  await until(() => decisionOf(etcd, 'v')?.bucket_capacity === 4, 2000, 'initial');
  controller.policies.setVariable('v', 'V', 9);
  await until(() => decisionOf(etcd, 'v')?.bucket_capacity === 9, 2000, 'set');
  assert.throws(() => controller.policies.setVariable('v', 'W', 1), { name: 'NotFoundError' });
  assert.throws(() => controller.policies.setVariable('nope', 'V', 1), { name: 'NotFoundError' });
  assert.throws(() => controller.policies.setVariable('v', 'V', Number.NaN), { name: 'InvalidArgumentError' });
  // A replacement keeps the value of a variable it still has.
  await controller.store.patch('v', { circuit: { evaluation_interval: '200ms' } });
  await new Promise((r) => setTimeout(r, 250));
  assert.equal(decisionOf(etcd, 'v')?.bucket_capacity, 9);
});

test('etcd away: circuits keep running, decisions are published when it returns', async (t) => {
  const { etcd, controller } = await setup(t);
  const spec = limiter({ signal_name: 'V' }, { components: [{ variable: { constant_output: { value: 4 }, out_ports: { output: { signal_name: 'V' } } } }] });
  await controller.store.upsert('e', spec);
  await until(() => decisionOf(etcd, 'e')?.bucket_capacity === 4, 2000, 'initial');
  etcd.setState('unavailable');
  controller.policies.setVariable('e', 'V', 7);
  await new Promise((r) => setTimeout(r, 300));
  assert.equal(decisionOf(etcd, 'e')?.bucket_capacity, 4);
  assert.match(controller.policies.view('e')?.last_error ?? '', /etcd unavailable/);
  await assert.rejects(controller.store.upsert('f', spec), { name: 'UnavailableError' });
  etcd.setState('connected');
  await until(() => decisionOf(etcd, 'e')?.bucket_capacity === 7, 2000, 'republished');
});

test('the CR sink: a good resource runs, a bad one reports its problems and keeps the last good version, remove stops it', async (t) => {
  const { etcd, controller } = await setup(t);
  const ok = await controller.sink.apply('ns.cr1', limiter({ constant_signal: { value: 8 } }));
  assert.equal(ok.ok, true);
  await until(() => decisionOf(etcd, 'ns.cr1')?.bucket_capacity === 8, 2000, 'cr published');
  const bad = await controller.sink.apply('ns.cr1', limiter({ constant_signal: { value: -1 } }));
  assert.equal(bad.ok, false);
  assert.match(bad.ok ? '' : bad.message, /bucket_capacity.*below the minimum/);
  assert.equal(controller.policies.view('ns.cr1')?.status, 'failed');
  assert.equal(decisionOf(etcd, 'ns.cr1')?.bucket_capacity, 8, 'last good version still runs');
  await assert.rejects(controller.store.upsert('ns', limiter({ constant_signal: { value: 1 } })).then(() => controller.store.remove('ns.cr1')), { name: 'PolicyManagedElsewhereError' });
  assert.deepEqual((await controller.sink.apply('Bad/Name', {})).ok, false);
  assert.deepEqual(await controller.sink.names(), ['Bad/Name', 'ns.cr1'].filter((n) => n === 'ns.cr1'));
  await controller.sink.remove('ns.cr1');
  await controller.publisher.idle();
  assert.equal(etcd.data.has('sluice/config/default/ns.cr1/root.0'), false);
});

test('stored policies come back on start (a restart loses nothing)', async (t) => {
  const etcd = new MemoryEtcd();
  const spec = limiter({ constant_signal: { value: 6 } });
  const hash = compilePolicy('kept', spec).hash;
  await etcd.put('sluice/policies/kept', JSON.stringify({ name: 'kept', spec, hash, source: 'api' }));
  await etcd.put('sluice/policies/broken', '{not json');
  const controller = startTestController(t, { etcd }).c;
  await until(() => decisionOf(etcd, 'kept')?.bucket_capacity === 6, 2000, 'republished after restart');
  assert.equal(controller.policies.view('broken')?.status, 'failed');
  assert.equal(controller.storeSynced(), true);
});

test('late watch events of the store\'s own writes never bring back an older version', async (t) => {
  const etcd = new MemoryEtcd();
  const events: string[] = [];
  const logger = { ...silentLogger, info: (msg: string, meta?: Record<string, unknown>) => { if (/policy (started|replaced|stopped)/.test(msg)) events.push(`${msg} ${String(meta?.policy)}`); }, warn: () => undefined };
  const controller = startTestController(t, { etcd, logger }).c;
  etcd.holdEvents = true;
  await controller.store.upsert('x', limiter({ constant_signal: { value: 1 } }));
  await controller.store.upsert('x', limiter({ constant_signal: { value: 2 } }));
  await controller.store.remove('x');
  await controller.store.upsert('x', limiter({ constant_signal: { value: 3 } }));
  // The watch delivers them one by one, each reconciled before the next.
  while (etcd.releaseOne()) await controller.policies.reconcile();
  etcd.releaseEvents();
  await controller.publisher.idle();
  assert.deepEqual(events, ['policy started x', 'policy replaced x', 'policy stopped x', 'policy started x']);
  assert.equal(decisionOf(etcd, 'x')?.bucket_capacity, 3);
  // A write from elsewhere (another controller) still applies.
  const spec = limiter({ constant_signal: { value: 4 } });
  await etcd.put('sluice/policies/x', JSON.stringify({ name: 'x', spec, hash: compilePolicy('x', spec).hash, source: 'api' }));
  await controller.policies.reconcile();
  await until(() => decisionOf(etcd, 'x')?.bucket_capacity === 4, 2000, 'external write applied');
});

test('a query whose selectors cannot be read is refused at its query_string (prometheus.labels set)', async (t) => {
  const { controller } = await setup(t);
  await assert.rejects(controller.store.upsert('q', promqlPolicy('sum(x{a="b)')), (err: unknown) => {
    assert.ok(err instanceof PolicyRejectedError);
    assert.equal(err.problems[0].path, 'spec.circuit.components[1].query.promql.query_string');
    assert.match(err.problems[0].message, /not valid PromQL at offset/);
    return true;
  });
  assert.equal(controller.policies.view('q'), undefined);
});
