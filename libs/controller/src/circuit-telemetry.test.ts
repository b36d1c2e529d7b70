import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { DEFAULT_HTTP_CLIENT_CONFIG } from '@sluice/clients';
import { ControllerConfigSchema, defaultsOf, type ControllerConfig } from '@sluice/config';
import { compilePolicy } from '@sluice/policies';
import { Registry } from 'prom-client';
import { createAlerting } from './alerting.js';
import { createPolicyController } from './controller.js';
import { MemoryEtcd, until } from './test-support.js';

const s = (name: string) => ({ signal_name: name });

/** A variable OVERLOAD (settable through the API) feeding an alerter, PASS = OVERLOAD × 2 and RATIO = OVERLOAD × +Inf. */
const alerterPolicy = {
  circuit: {
    evaluation_interval: '100ms',
    components: [
      { variable: { constant_output: { value: 0 }, out_ports: { output: s('OVERLOAD') } } },
      { arithmetic_combinator: { operator: 'mul', in_ports: { lhs: s('OVERLOAD'), rhs: { constant_signal: { value: 2 } } }, out_ports: { output: s('PASS') } } },
      { arithmetic_combinator: { operator: 'mul', in_ports: { lhs: s('OVERLOAD'), rhs: { constant_signal: { special_value: '+Inf' } } }, out_ports: { output: s('RATIO') } } },
      { alerter: { in_ports: { signal: s('OVERLOAD') }, parameters: { alert_name: 'Overloaded', severity: 'crit', resolve_timeout: '300ms', labels: { team: 'edge' } } } },
    ],
  },
};

async function setup(t: TestContext) {
  const registry = new Registry();
  const alerting = createAlerting({ config: defaultsOf(ControllerConfigSchema) as ControllerConfig, registry });
  const controller = createPolicyController({
    config: {
      prometheus: { address: 'http://127.0.0.1:9', labels: [], http_client: DEFAULT_HTTP_CLIENT_CONFIG },
      policies: { cr_watcher: { enabled: false }, promql_jobs_scheduler: { blocking_execution: false, worker_limit: 0 } },
    },
    etcd: new MemoryEtcd(),
    language: { compilePolicy },
    registry,
    server: { addService: () => undefined, addGatewayRoute: () => undefined },
    alerts: alerting.book,
  });
  alerting.start();
  controller.start();
  t.after(async () => { await controller.shutdown(); await alerting.shutdown(); });
  return { registry, alerting, controller };
}

function listed(alerting: ReturnType<typeof createAlerting>): { labels: Record<string, string> }[] {
  let body: unknown;
  alerting.route(undefined, { json: (b) => { body = b; } });
  return (body as { alerts: { labels: Record<string, string> }[] }).alerts;
}

test('an alerter in a running policy raises its alert while its signal is non-zero; it resolves after its resolve timeout', async (t) => {
  const { alerting, controller } = await setup(t);
  await controller.store.upsert('svc', alerterPolicy);
  await until(() => controller.policies.view('svc')?.status === 'running', 3000, 'running');
  await new Promise((r) => setTimeout(r, 250));
  assert.deepEqual(listed(alerting), [], 'signal 0: no alert');
  controller.policies.setVariable('svc', 'OVERLOAD', 1);
  const alerts = listed(alerting);
  assert.equal(alerts.length, 1);
  assert.deepEqual(alerts[0].labels, { policy_name: 'svc', component_id: 'root.3', type: 'alerter', team: 'edge', alertname: 'Overloaded', severity: 'crit' });
  await new Promise((r) => setTimeout(r, 500));
  assert.equal(listed(alerting).length, 1, 'raised at every tick: still active past one resolve timeout');
  controller.policies.setVariable('svc', 'OVERLOAD', 0);
  await until(() => listed(alerting).length === 0, 3000, 'resolved');
});

/** The value of the sample `name` carrying every label of `labels` (undefined when none does). */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue;
    if (Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`))) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}

test('signal_reading, invalid_signal_readings_total and infinite_signal_readings_total per policy, writing component and signal', async (t) => {
  const { registry, controller } = await setup(t);
  await controller.store.upsert('svc', alerterPolicy);
  await until(() => controller.policies.view('svc')?.status === 'running', 3000, 'running');
  controller.policies.setVariable('svc', 'OVERLOAD', 3);
  const pass = { policy_name: 'svc', component_id: 'root.1', signal_name: 'PASS', sub_circuit_id: 'root' };
  const ratio = { policy_name: 'svc', component_id: 'root.2', signal_name: 'RATIO', sub_circuit_id: 'root' };
  let text = await registry.metrics();
  assert.ok((sample(text, 'signal_reading_count', pass) ?? 0) >= 1);
  assert.equal(sample(text, 'signal_reading', { ...pass, quantile: '1' }), 6);
  assert.ok((sample(text, 'infinite_signal_readings_total', ratio) ?? 0) >= 1, '3 × +Inf');
  assert.equal(sample(text, 'signal_reading_count', ratio), undefined, 'an infinite reading is not in the summary');
  controller.policies.setVariable('svc', 'OVERLOAD', 0);
  text = await registry.metrics();
  assert.ok((sample(text, 'invalid_signal_readings_total', ratio) ?? 0) >= 1, '0 × +Inf is NaN: invalid');
  assert.equal(sample(text, 'signal_reading', { ...pass, quantile: '0' }), 0);
  await controller.store.remove('svc');
  await until(() => controller.policies.view('svc') === undefined, 3000, 'stopped');
  text = await registry.metrics();
  for (const name of ['signal_reading_count', 'invalid_signal_readings_total', 'infinite_signal_readings_total']) {
    assert.equal(sample(text, name, { policy_name: 'svc' }), undefined, `${name} of a deleted policy is gone`);
  }
});
