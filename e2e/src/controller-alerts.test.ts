// Alerts end to end: a real Prometheus scraping an exporter, the real controller running a policy that
// detects an overload (a PromQL latency above a setpoint, through a decider, into an alerter), and a
// real Alertmanager receiving the alert and resolving it.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { startEtcdServer, type EtcdServer } from '@sluice/etcd/testing';
import { startAlertmanager } from './support/alertmanager.js';
import { startPrometheus, startTestExporter } from './support/prometheus.js';
import { startController, until } from './support/processes.js';

async function startEtcd(t: TestContext): Promise<EtcdServer> {
  const etcd = await startEtcdServer();
  t.after(() => etcd.close());
  return etcd;
}

const s = (name: string) => ({ signal_name: name });

/** The latency (the exporter's gauge, through PromQL) above 100 is an overload, and raises an alert. */
const detectingOverload = {
  circuit: {
    evaluation_interval: '500ms',
    components: [
      { query: { promql: { query_string: 'max(sluice_e2e_capacity)', evaluation_interval: '500ms', out_ports: { output: s('LATENCY') } } } },
      { decider: { operator: 'gt', in_ports: { lhs: s('LATENCY'), rhs: { constant_signal: { value: 100 } } }, out_ports: { output: s('IS_OVERLOAD') } } },
      {
        alerter: {
          in_ports: { signal: s('IS_OVERLOAD') },
          parameters: { alert_name: 'Service Overloaded', severity: 'crit', resolve_timeout: '3s', alert_channels: ['oncall'], labels: { service: 'checkout' } },
        },
      },
    ],
  },
};

interface Listed { labels: Record<string, string>; startsAt: string; endsAt: string }

test('an overload detected through PromQL fires an alert that Alertmanager lists, and it resolves when the signal clears', async (t) => {
  const exporter = await startTestExporter(t, 20);
  const prom = await startPrometheus(t, [exporter.target], 'latency-exporter');
  const am = await startAlertmanager(t);
  const etcd = await startEtcd(t);
  const c = await startController(t, {
    env: {
      SLUICE_CONTROLLER_ETCD_ENDPOINTS: JSON.stringify([etcd.endpoint]),
      SLUICE_CONTROLLER_ETCD_LEASE_TTL: '2s',
      SLUICE_CONTROLLER_PROMETHEUS_ADDRESS: prom.address,
      SLUICE_CONTROLLER_ALERTS_ALERTMANAGERS: JSON.stringify([am.url]),
      SLUICE_CONTROLLER_OTEL_BATCH_ALERTS_TIMEOUT: '200ms',
    },
  });
  const put = await fetch(`${c.base}/v1/policies/overload`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ policy: detectingOverload }) });
  assert.equal(put.status, 200, await put.text());
  const listed = async (): Promise<Listed[]> => ((await (await fetch(`${c.base}/v1/alerts`)).json()) as { alerts: Listed[] }).alerts;

  // below the setpoint: the circuit runs (the signal is valid), and nothing fires
  await until(async () => /signal_reading_count\{[^}]*signal_name="LATENCY"[^}]*\} [1-9]/.test(await (await fetch(`${c.base}/metrics`)).text()), 20_000, 'LATENCY read');
  assert.deepEqual(await listed(), []);
  assert.deepEqual(await am.alerts(), []);

  exporter.set(500);
  await until(async () => (await am.alerts()).length === 1, 20_000, 'Alertmanager lists the alert');
  const [alert] = await am.alerts();
  assert.deepEqual(alert.labels, {
    alertname: 'Service Overloaded', severity: 'crit', alert_channels: 'oncall', service: 'checkout',
    policy_name: 'overload', component_id: 'root.2', type: 'alerter',
  });
  assert.equal(alert.status.state, 'active');
  const ours = await listed();
  assert.equal(ours.length, 1, 'the controller lists it too');
  assert.deepEqual(ours[0].labels, alert.labels);
  assert.equal(ours[0].startsAt, alert.startsAt);

  // it stays active while the overload lasts (each raise moves its end on)
  await new Promise((r) => setTimeout(r, 4000));
  assert.equal((await am.alerts()).length, 1, 'still active past one resolve timeout');

  exporter.set(20);
  await until(async () => (await listed()).length === 0, 20_000, 'the controller resolves it');
  await until(async () => (await am.alerts()).length === 0, 10_000, 'Alertmanager resolves it');
  const metrics = await (await fetch(`${c.base}/metrics`)).text();
  assert.match(metrics, /alerts_sent_total\{alertmanager="http:\/\/127\.0\.0\.1:\d+"\} [1-9]/);
  assert.doesNotMatch(metrics, /alerts_send_failures_total\{/);
});
