// Telemetry leaves the agent: a real agent that nothing scrapes pushes its metrics by Prometheus
// remote write to a real Prometheus (with its remote write receiver on), with the default export
// interval and batches; its rate limiters' decisions are queryable there within 30 s, labelled
// with the agent group and instance, beside the families of its /metrics.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkHttpRequest, grpcClient, unaryCall } from './support/clients.js';
import { startAgent, tempDir, writeFile } from './support/processes.js';
import { startPrometheus } from './support/prometheus.js';
import { freePort } from './support/ports.js';

interface HttpAnswer { denied_response?: { status: number } | null }

test('an agent nothing scrapes has its rate-limiter counters in Prometheus within 30 s, by remote write', { timeout: 180_000 }, async (t) => {
  const prom = await startPrometheus(t, [], 'nothing', { remoteWriteReceiver: true });
  const limiters = writeFile(tempDir(t), 'limiters.yaml', '- { name: strict, control_point: ingress, bucket_capacity: 3, fill_amount: 1, interval: 1h }\n');
  const agent = await startAgent(t, {
    args: ['--local-limiters', limiters],
    ready: 'live',
    env: { SLUICE_AGENT_PROMETHEUS_ADDRESS: prom.address, POD_NAMESPACE: 'shop', POD_NAME: 'agent-0' },
  });
  const checkHttp = grpcClient(t, 'flowControlHttp', agent.address);
  const statuses: number[] = [];
  for (let i = 0; i < 5; i++) {
    const r = await unaryCall<HttpAnswer>(checkHttp, 'CheckHTTP', checkHttpRequest('ingress', '/pay'));
    statuses.push(r.denied_response?.status ?? 200);
  }
  assert.deepEqual(statuses, [200, 200, 200, 429, 429], agent.output().slice(-4000));
  const checkedAt = Date.now();
  const total = (decision: string) => prom.query(`sum(sluice_limiter_decisions_total{agent_group="default",component_kind="rate_limiter",decision_type="${decision}"})`);
  let accepted: number | undefined;
  let rejected: number | undefined;
  while (Date.now() - checkedAt < 30_000) {
    accepted = await total('DECISION_TYPE_ACCEPTED');
    rejected = await total('DECISION_TYPE_REJECTED');
    if (accepted === 3 && rejected === 2) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  assert.equal(accepted, 3, `accepted decisions in Prometheus within 30 s\n${agent.output().slice(-3000)}`);
  assert.equal(rejected, 2);
  const rows = await prom.series('sluice_limiter_decisions_total');
  assert.ok(rows.length > 0);
  for (const r of rows) {
    assert.equal(r.agent_group, 'default');
    assert.equal(r.instance, 'agent-0');
    assert.equal(r.pod, 'agent-0');
    assert.equal(r.namespace, 'shop');
    assert.equal(r.job, 'sluice-agent');
  }
  // The families of /metrics come along (prom-client bridged into the pipeline), hidden ones excepted.
  assert.equal((await prom.series('log_messages_dropped_total{agent_group="default"}')).length, 1, 'a family of /metrics arrives');
  assert.equal((await prom.series('grpcserver_started_total')).length, 0, 'high-cardinality families stay home');
  // Nothing scraped it: Prometheus has no active target.
  const targets = await (await fetch(`${prom.url}/api/v1/targets`)).json() as { data: { activeTargets: unknown[] } };
  assert.deepEqual(targets.data.activeTargets, []);
});

test('otel.ports on the real agent: debug metrics with the rolled-up decisions, health, a CPU profile, zPages', { timeout: 120_000 }, async (t) => {
  const limiters = writeFile(tempDir(t), 'limiters.yaml', '- { name: strict, control_point: ingress, bucket_capacity: 1, fill_amount: 1, interval: 1h }\n');
  const [debug, health, pprof, zpages] = [await freePort(), await freePort(), await freePort(), await freePort()];
  const agent = await startAgent(t, {
    args: ['--local-limiters', limiters],
    ready: 'live',
    env: {
      SLUICE_AGENT_OTEL_PORTS_DEBUG_PORT: String(debug), SLUICE_AGENT_OTEL_PORTS_HEALTH_CHECK_PORT: String(health),
      SLUICE_AGENT_OTEL_PORTS_PPROF_PORT: String(pprof), SLUICE_AGENT_OTEL_PORTS_ZPAGES_PORT: String(zpages),
      SLUICE_AGENT_OTEL_BATCH_PREROLLUP_TIMEOUT: '0s', SLUICE_AGENT_OTEL_BATCH_POSTROLLUP_TIMEOUT: '0s',
    },
  });
  const checkHttp = grpcClient(t, 'flowControlHttp', agent.address);
  for (let i = 0; i < 2; i++) await unaryCall<HttpAnswer>(checkHttp, 'CheckHTTP', checkHttpRequest('ingress', '/pay'));
  // Batches of 0s: each decision is rolled up and counted at once; the debug port renders the pipeline's meter.
  const own = await (await fetch(`http://127.0.0.1:${debug}/metrics`)).text();
  assert.match(own, /^sluice_limiter_decisions_total\{[^}]*decision_type="DECISION_TYPE_ACCEPTED"[^}]*\} 1$/m, own);
  assert.match(own, /^sluice_limiter_decisions_total\{[^}]*decision_type="DECISION_TYPE_REJECTED"[^}]*\} 1$/m);
  const h = await fetch(`http://127.0.0.1:${health}/`);
  assert.equal(h.status, 200);
  const cpu = await fetch(`http://127.0.0.1:${pprof}/debug/pprof/profile?seconds=1`);
  assert.equal(cpu.status, 200);
  assert.ok((await cpu.arrayBuffer()).byteLength > 0);
  const z = await (await fetch(`http://127.0.0.1:${zpages}/debug/servicez`)).json() as { service: string };
  assert.equal(z.service, 'sluice-agent');
  // The main port's /metrics stays as it was.
  assert.doesNotMatch(await (await fetch(`${agent.base}/metrics`)).text(), /sluice_limiter_decisions_total/);
});
