import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_HTTP_CLIENT_CONFIG } from '@sluice/clients';
import { compilePolicy, podScalerReportKey, type PodScalerReport } from '@sluice/policies';
import { Registry } from 'prom-client';
import { createPolicyController } from './controller.js';
import { PodScalerReports } from './pod-scaler-reports.js';
import { fakePrometheus, MemoryEtcd, until } from './test-support.js';
import { silentLogger } from '@sluice/telemetry/logger';

const WEB = { namespace: 'shop', api_version: 'apps/v1', kind: 'Deployment', name: 'web' };

/** A pod scaler (root.1) with its three out-ports wired, and a decider reading `running` (root.2). */
const POLICY = {
  circuit: {
    evaluation_interval: '100ms',
    components: [
      { variable: { constant_output: { value: 3 }, out_ports: { output: { signal_name: 'want' } } } },
      {
        auto_scale: {
          pod_scaler: {
            kubernetes_object_selector: WEB,
            in_ports: { replicas: { signal_name: 'want' } },
            out_ports: { actual_replicas: { signal_name: 'running' }, configured_replicas: { signal_name: 'configured' }, desired_replicas: { signal_name: 'steering' } },
          },
        },
      },
      { decider: { operator: 'lt', in_ports: { lhs: { signal_name: 'running' }, rhs: { constant_signal: { value: 3 } } }, out_ports: { output: { signal_name: 'short' } } } },
    ],
  },
};

const report = (agent: string, over: Partial<PodScalerReport> = {}): PodScalerReport => ({
  kind: 'pod_scaler', agent, leader_since_ms: 1000,
  kubernetes_object: { namespace: 'shop', kind: 'Deployment', name: 'web' },
  actual_replicas: 2, configured_replicas: 3, desired_replicas: 3, ...over,
});
const keyOf = (agent: string, group = 'default', component = 'root.1') => podScalerReportKey('sluice', group, 'scale', component, agent);

async function setup(t: TestContext) {
  const etcd = new MemoryEtcd();
  const prom = await fakePrometheus(() => ({ body: { status: 'success', data: { resultType: 'scalar', result: [0, '0'] } } }));
  t.after(() => prom.close());
  const registry = new Registry();
  const warnings: Record<string, unknown>[] = [];
  const controller = createPolicyController({
    config: {
      prometheus: { address: prom.url, labels: [], http_client: { ...DEFAULT_HTTP_CLIENT_CONFIG, timeout: '2s' } },
      policies: { cr_watcher: { enabled: false }, promql_jobs_scheduler: { blocking_execution: false, worker_limit: 0 } },
    },
    etcd,
    language: { compilePolicy },
    registry,
    server: { addService: () => undefined, addGatewayRoute: () => undefined },
    logger: { ...silentLogger, warn(msg, meta) { if (msg === 'pod scaler report ignored') warnings.push(meta ?? {}); } },
  });
  controller.start();
  t.after(() => controller.shutdown());
  await controller.store.upsert('scale', POLICY);
  const signals = () => {
    const s = controller.policies.view('scale')?.signals ?? {};
    return { running: s.running, configured: s.configured, steering: s.steering, short: s.short };
  };
  await until(() => signals().short !== undefined, 2000, 'the circuit runs');
  const expect = (want: ReturnType<typeof signals>, what: string) => until(() => JSON.stringify(signals()) === JSON.stringify(want), 2000, `${what}: ${JSON.stringify(want)} (now ${JSON.stringify(signals())})`);
  const INVALID = { running: null, configured: null, steering: null, short: 0 };
  return { etcd, registry, warnings, signals, expect, INVALID, controller };
}

test('an agent\'s report becomes the pod scaler\'s out-port signals; removed (its lease gone): invalid', async (t) => {
  const { etcd, expect, INVALID } = await setup(t);
  await expect(INVALID, 'no report');
  await etcd.leased.put(keyOf('agent-a'), JSON.stringify(report('agent-a')));
  await expect({ running: 2, configured: 3, steering: 3, short: 1 }, 'the report read');
  await etcd.leased.put(keyOf('agent-a'), JSON.stringify(report('agent-a', { actual_replicas: 3, desired_replicas: null })));
  await expect({ running: 3, configured: 3, steering: null, short: 0 }, 'a changed report');
  await etcd.leased.delete(keyOf('agent-a'));
  await expect(INVALID, 'the report removed');
});

test('of two agents\' reports the later Lease holder\'s wins; another group\'s, component\'s or object\'s is not used', async (t) => {
  const { etcd, expect, INVALID } = await setup(t);
  await etcd.leased.put(keyOf('agent-b', 'edge'), JSON.stringify(report('agent-b')));
  await etcd.leased.put(keyOf('agent-b', 'default', 'root.0'), JSON.stringify(report('agent-b')));
  await etcd.leased.put(keyOf('agent-c'), JSON.stringify(report('agent-c', { kubernetes_object: { namespace: 'shop', kind: 'StatefulSet', name: 'web' } })));
  await new Promise((r) => setTimeout(r, 200));
  await expect(INVALID, 'another group, component or object');
  await etcd.leased.put(keyOf('agent-a'), JSON.stringify(report('agent-a', { leader_since_ms: 1000, actual_replicas: 1 })));
  await etcd.leased.put(keyOf('agent-b'), JSON.stringify(report('agent-b', { leader_since_ms: 5000, actual_replicas: 4, configured_replicas: 4, desired_replicas: 4 })));
  await expect({ running: 4, configured: 4, steering: 4, short: 0 }, 'the later holder');
  await etcd.leased.delete(keyOf('agent-b'));
  await expect({ running: 1, configured: 3, steering: 3, short: 1 }, 'the earlier one once the later is gone');
});

test('reports are not used while etcd is unavailable (they may be stale), and are again when it returns', async (t) => {
  const { etcd, expect, INVALID } = await setup(t);
  await etcd.leased.put(keyOf('agent-a'), JSON.stringify(report('agent-a')));
  await expect({ running: 2, configured: 3, steering: 3, short: 1 }, 'read');
  etcd.setState('unavailable');
  await expect(INVALID, 'etcd away');
  etcd.setState('connected');
  await expect({ running: 2, configured: 3, steering: 3, short: 1 }, 'etcd back');
});

test('bad reports are ignored, logged once per key and counted; a bad value replacing a good one makes the signals invalid', async (t) => {
  const { etcd, registry, warnings, expect, INVALID } = await setup(t);
  await etcd.leased.put(keyOf('agent-a'), JSON.stringify(report('agent-a')));
  await expect({ running: 2, configured: 3, steering: 3, short: 1 }, 'a good report');
  const bad: [string, string][] = [
    ['sluice/reports/default/scale/root.1', JSON.stringify(report('x'))],
    ['sluice/reports/default/scale/root.1/x/y', JSON.stringify(report('x'))],
    [keyOf('agent-z'), '{not json'],
    [keyOf('agent-z'), JSON.stringify(report('agent-z', { actual_replicas: -2 }))],
    [keyOf('agent-y'), JSON.stringify(report('agent-a', { leader_since_ms: 9e12 }))],
  ];
  for (const [k, v] of bad) await etcd.leased.put(k, v);
  await new Promise((r) => setTimeout(r, 200));
  await expect({ running: 2, configured: 3, steering: 3, short: 1 }, 'the good report still in force');
  assert.deepEqual(warnings.map((w) => w.key), ['sluice/reports/default/scale/root.1', 'sluice/reports/default/scale/root.1/x/y', keyOf('agent-z'), keyOf('agent-y')], 'logged once per key');
  const metrics = await registry.metrics();
  assert.match(metrics, /pod_scaler_reports_rejected_total\{reason="key"\} 2/);
  assert.match(metrics, /pod_scaler_reports_rejected_total\{reason="value"\} 3/);
  assert.match(metrics, /^pod_scaler_reports 1$/m);
  await etcd.leased.put(keyOf('agent-a'), JSON.stringify({ ...report('agent-a'), configured_replicas: 'three' }));
  await expect(INVALID, 'the good report turned bad');
  assert.match(String(warnings.at(-1)?.error), /configured_replicas/);
});

test('PodScalerReports on its own: reads what etcd holds at start, by policy; stop ends the watch', () => {
  const etcd = new MemoryEtcd();
  const reports = new PodScalerReports(etcd);
  const scaler = compilePolicy('scale', POLICY).components;
  etcd.data.set(keyOf('agent-a'), JSON.stringify(report('agent-a')));
  reports.start();
  assert.deepEqual([...reports.signalsOf('scale', scaler)], [['root.1', { actual_replicas: 2, configured_replicas: 3, desired_replicas: 3 }]]);
  assert.equal(reports.signalsOf('other', scaler).size, 0, 'another policy');
  void reports.shutdown();
  void etcd.leased.delete(keyOf('agent-a'));
  assert.equal(reports.signalsOf('scale', scaler).size, 1, 'no longer watched after stop');
});

test('a loop through the pod scaler: the decision the controller publishes follows the reported replicas', async (t) => {
  const { etcd, controller } = await setup(t);
  // One more than configured while the variable says overloaded and the last step runs.
  await controller.store.upsert('loop', {
    circuit: {
      evaluation_interval: '100ms',
      components: [
        { variable: { constant_output: { value: 1 }, out_ports: { output: { signal_name: 'OVERLOADED' } } } },
        { decider: { operator: 'gte', in_ports: { lhs: { signal_name: 'RUNNING' }, rhs: { signal_name: 'CONFIGURED' } }, out_ports: { output: { signal_name: 'SETTLED' } } } },
        { arithmetic_combinator: { operator: 'mul', in_ports: { lhs: { signal_name: 'OVERLOADED' }, rhs: { signal_name: 'SETTLED' } }, out_ports: { output: { signal_name: 'STEP' } } } },
        { arithmetic_combinator: { operator: 'add', in_ports: { lhs: { signal_name: 'CONFIGURED' }, rhs: { signal_name: 'STEP' } }, out_ports: { output: { signal_name: 'WANT' } } } },
        { auto_scale: { pod_scaler: { kubernetes_object_selector: WEB, in_ports: { replicas: { signal_name: 'WANT' } }, out_ports: { actual_replicas: { signal_name: 'RUNNING' }, configured_replicas: { signal_name: 'CONFIGURED' } }, max_replicas: 5 } } },
      ],
    },
  });
  const decision = () => etcd.data.get('sluice/decisions/default/loop/root.4');
  const loopKey = podScalerReportKey('sluice', 'default', 'loop', 'root.4', 'agent-a');
  await new Promise((r) => setTimeout(r, 200));
  assert.equal(decision(), undefined, 'no report: no decision');
  await etcd.leased.put(loopKey, JSON.stringify(report('agent-a', { actual_replicas: 3, configured_replicas: 3 })));
  await until(() => decision() === '{"kind":"pod_scaler","replicas":4}', 2000, 'one more than configured');
  await etcd.leased.put(loopKey, JSON.stringify(report('agent-a', { actual_replicas: 4, configured_replicas: 4 })));
  await until(() => decision() === '{"kind":"pod_scaler","replicas":5}', 2000, 'and one more once it runs');
  await etcd.leased.put(loopKey, JSON.stringify(report('agent-a', { actual_replicas: 5, configured_replicas: 5 })));
  await new Promise((r) => setTimeout(r, 200));
  assert.equal(decision(), '{"kind":"pod_scaler","replicas":5}', 'max_replicas');
});
