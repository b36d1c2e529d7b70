import { test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { Registry } from 'prom-client';
import { createTelemetryPipeline } from './pipeline.js';
import { startTelemetryPorts, type PortsConfig } from './ports.js';
import { fetchHttp, startTestReceiver } from './test-receiver.js';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => { const { port } = s.address() as AddressInfo; s.close(() => resolve(port)); });
  });
}

const profilers = { cpu_profiler: false, profiles_path: 'default', register_http_routes: false };
const OFF: PortsConfig = { debug_port: 0, health_check_port: 0, pprof_port: 0, zpages_port: 0 };

async function setup(t: import('node:test').TestContext, ports: Partial<PortsConfig>, status = 204) {
  const rx = await startTestReceiver(status === 204 ? [] : [status]);
  const pipeline = createTelemetryPipeline({
    registry: new Registry(), highCardinality: false, exportIntervalMs: 60_000, resource: {},
    remoteWrite: { url: rx.url, http: fetchHttp, labels: {}, backoff: { next: () => 1, reset: () => undefined } },
  });
  const served = await startTelemetryPorts({ ports: { ...OFF, ...ports }, pipeline, profilers, service: 'agent', host: '127.0.0.1' });
  t.after(async () => { await served.shutdown(); await pipeline.shutdown(); await rx.close(); });
  return { pipeline, served };
}

test('0 is off: no port is served', async (t) => {
  const { served } = await setup(t, {});
  assert.deepEqual(served.bound, {});
});

test('debug_port serves the pipeline\'s own metrics on /metrics', async (t) => {
  const port = await freePort();
  const { pipeline } = await setup(t, { debug_port: port });
  pipeline.meter.createCounter('sluice_limiter_decisions_total').add(3, { policy_name: 'p' });
  await pipeline.forceFlush();
  const r = await fetch(`http://127.0.0.1:${port}/metrics`);
  assert.equal(r.status, 200);
  const text = await r.text();
  assert.match(text, /^sluice_telemetry_exporter_sent_metric_points_total\{exporter="remote_write"[^}]*\} [1-9]/m);
  assert.match(text, /^sluice_limiter_decisions_total\{policy_name="p"[^}]*\} 3$/m);
  assert.equal((await fetch(`http://127.0.0.1:${port}/nope`)).status, 404);
});

test('health_check_port answers 200 while exports succeed and 503 after one failed', async (t) => {
  const port = await freePort();
  const { pipeline } = await setup(t, { health_check_port: port }, 400);
  const before = await fetch(`http://127.0.0.1:${port}/`);
  assert.equal(before.status, 200);
  assert.equal((await before.json() as { status: string }).status, 'Server available');
  await pipeline.forceFlush();
  const after = await fetch(`http://127.0.0.1:${port}/`);
  assert.equal(after.status, 503);
  const body = await after.json() as { exporters: { exporter: string; healthy: boolean; last_error: string }[] };
  assert.equal(body.exporters[0].healthy, false);
  assert.match(body.exporters[0].last_error, /HTTP 400/);
});

test('pprof_port serves a CPU profile and a heap profile, whatever profilers.register_http_routes says', async (t) => {
  const port = await freePort();
  await setup(t, { pprof_port: port });
  const cpu = await fetch(`http://127.0.0.1:${port}/debug/pprof/profile?seconds=1`);
  assert.equal(cpu.status, 200);
  const bytes = Buffer.from(await cpu.arrayBuffer());
  assert.equal(bytes[0], 0x1f, 'gzip');
  assert.equal(bytes[1], 0x8b);
  const heap = await fetch(`http://127.0.0.1:${port}/debug/pprof/heap`);
  assert.equal(heap.status, 200);
  assert.ok((await heap.arrayBuffer()).byteLength > 0);
});

test('zpages_port serves /debug/servicez and /debug/pipelinez', async (t) => {
  const port = await freePort();
  const { pipeline } = await setup(t, { zpages_port: port });
  await pipeline.forceFlush();
  const service = await (await fetch(`http://127.0.0.1:${port}/debug/servicez`)).json() as { service: string; exporting: boolean };
  assert.equal(service.service, 'sluice-agent');
  assert.equal(service.exporting, true);
  const pipes = await (await fetch(`http://127.0.0.1:${port}/debug/pipelinez`)).json() as { pipelines: { exporters: { exporter: string; exports: number }[] }[] };
  assert.equal(pipes.pipelines[0].exporters[0].exporter, 'remote_write');
  assert.equal(pipes.pipelines[0].exporters[0].exports, 1);
});

test('a port that is taken fails start-up and closes the ones already bound', async (t) => {
  const blocker = net.createServer();
  await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
  t.after(() => new Promise<void>((r) => blocker.close(() => r())));
  const taken = (blocker.address() as AddressInfo).port;
  const debug = await freePort();
  const pipeline = createTelemetryPipeline({ registry: new Registry(), highCardinality: false, exportIntervalMs: 60_000, resource: {} });
  t.after(() => pipeline.shutdown());
  await assert.rejects(startTelemetryPorts({ ports: { ...OFF, debug_port: debug, zpages_port: taken }, pipeline, profilers, service: 'agent', host: '127.0.0.1' }), /EADDRINUSE/);
  // The debug port was released again.
  const probe = net.createServer();
  await new Promise<void>((resolve, reject) => { probe.once('error', reject); probe.listen(debug, '127.0.0.1', resolve); });
  await new Promise<void>((r) => probe.close(() => r()));
});
