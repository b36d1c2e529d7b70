// The controller's telemetry: the Prometheus it queries also receives its metrics by remote write
// (job sluice-controller), and its otel.ports serve the pipeline's health and own metrics.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { endpointsJson, startEtcd } from './support/etcd.js';
import { startController, until } from './support/processes.js';
import { startPrometheus } from './support/prometheus.js';
import { freePort } from './support/ports.js';

test('the controller pushes its metrics to prometheus.address and serves otel.ports', { timeout: 180_000 }, async (t) => {
  const etcd = await startEtcd(t);
  const prom = await startPrometheus(t, [], 'nothing', { remoteWriteReceiver: true });
  const [debug, health] = [await freePort(), await freePort()];
  const controller = await startController(t, {
    startMs: 60_000,
    env: {
      SLUICE_CONTROLLER_ETCD_ENDPOINTS: endpointsJson(etcd), SLUICE_CONTROLLER_PROMETHEUS_ADDRESS: prom.address,
      SLUICE_CONTROLLER_OTEL_EXPORT_INTERVAL: '1s',
      SLUICE_CONTROLLER_OTEL_PORTS_DEBUG_PORT: String(debug), SLUICE_CONTROLLER_OTEL_PORTS_HEALTH_CHECK_PORT: String(health),
    },
  });
  await until(async () => (await prom.series('log_messages_dropped_total{job="sluice-controller"}')).length === 1, 30_000, 'the controller\'s metrics in Prometheus');
  const [row] = await prom.series('log_messages_dropped_total{job="sluice-controller"}');
  assert.equal(row.agent_group, undefined, 'no agent group on the controller');
  assert.ok(row.instance);
  const h = await fetch(`http://127.0.0.1:${health}/`);
  assert.equal(h.status, 200);
  const own = await (await fetch(`http://127.0.0.1:${debug}/metrics`)).text();
  assert.match(own, /^sluice_telemetry_exports_total\{exporter="remote_write",result="success"[^}]*\} [1-9]/m);
  // The main port's /metrics is as it was: the pipeline's own counters are not there.
  assert.doesNotMatch(await (await fetch(`${controller.base}/metrics`)).text(), /sluice_telemetry_exports_total/);
});
