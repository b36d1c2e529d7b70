// cloudext end to end: a real controller and agent send heartbeats to local receivers (the
// controller over gRPC, the agent over HTTP), with their identity, their policies and hashes,
// the services the agent saw, and the API key in x-api-key, never in their logs; heartbeats
// resume after the receiver restarts. disable_local_otel_pipeline takes /metrics away;
// enable_cloud_controller is refused at start.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { startEtcdServer } from '@sluice/etcd/testing';
import { checkHttpRequest, get, grpcClient, unaryCall } from './support/clients.js';
import { startGrpcHeartbeatReceiver, startHttpHeartbeatReceiver, type ReceivedHeartbeat } from './support/heartbeat-receiver.js';
import { processEnv, ROOT, startAgent, startController, until } from './support/processes.js';

const INTERVAL_MS = 400;
const AGENT_KEY = 'agent-key-5f1c0e9a7d';
const CONTROLLER_KEY = 'controller-key-92b4e6';

const limiter = {
  circuit: {
    evaluation_interval: '200ms',
    components: [{ flow_control: { rate_limiter: {
      in_ports: { bucket_capacity: { constant_signal: { value: 10 } }, fill_amount: { constant_signal: { value: 5 } } },
      parameters: { interval: '1s', label_key: 'user' },
      selectors: [{ control_point: 'ingress', agent_group: 'hb-group' }],
    } } }],
  },
};

function gaps(beats: ReceivedHeartbeat[]): number[] {
  return beats.slice(1).map((b, i) => b.atMs - beats[i].atMs);
}

test('controller (gRPC) and agent (HTTP) send heartbeats with identity, policies, services and the key; they resume after the receiver restarts', { timeout: 180_000 }, async (t) => {
  const etcd = await startEtcdServer();
  t.after(() => etcd.close());
  const [grpcRx, httpRx] = await Promise.all([startGrpcHeartbeatReceiver(t), startHttpHeartbeatReceiver(t)]);
  const etcdEnv = { SLUICE_CONTROLLER_ETCD_ENDPOINTS: JSON.stringify([etcd.endpoint]) };
  const controller = await startController(t, {
    env: {
      ...etcdEnv, SLUICE_CONTROLLER_PROMETHEUS_ADDRESS: '127.0.0.1:9',
      SLUICE_CONTROLLER_CLOUDEXT_API_KEY: CONTROLLER_KEY, SLUICE_CONTROLLER_CLOUDEXT_ENDPOINT: grpcRx.endpoint,
      SLUICE_CONTROLLER_CLOUDEXT_CLIENT_GRPC_INSECURE: 'true', SLUICE_CONTROLLER_CLOUDEXT_HEARTBEAT_INTERVAL: `${INTERVAL_MS}ms`,
      SLUICE_CONTROLLER_CLOUDEXT_CONTROLLER_ID: 'ctl-7', SLUICE_CONTROLLER_CLOUDEXT_INSTALLATION_MODE: 'KUBERNETES_DAEMONSET',
    },
  });
  const created = await fetch(`${controller.base}/v1/policies/hb`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ policy: limiter }) });
  assert.equal(created.status, 200, await created.text());
  const hash = (JSON.parse((await get(`${controller.base}/v1/policies/hb`)).text) as { policy?: { hash?: string }; hash?: string });
  const policyHash = hash.hash ?? hash.policy?.hash;
  assert.ok(typeof policyHash === 'string' && policyHash !== '', JSON.stringify(hash));

  const agent = await startAgent(t, {
    env: {
      SLUICE_AGENT_ETCD_ENDPOINTS: JSON.stringify([etcd.endpoint]), SLUICE_AGENT_AGENT_INFO_AGENT_GROUP: 'hb-group',
      SLUICE_AGENT_CLOUDEXT_API_KEY: AGENT_KEY, SLUICE_AGENT_CLOUDEXT_ENDPOINT: httpRx.endpoint,
      SLUICE_AGENT_CLOUDEXT_HEARTBEAT_INTERVAL: `${INTERVAL_MS}ms`, SLUICE_AGENT_CLOUDEXT_CONTROLLER_ID: 'ctl-7',
      // Retries come quickly in this test: 100 ms, then x1.6, at most 500 ms.
      SLUICE_AGENT_CLOUDEXT_CLIENT_GRPC_BACKOFF_BASE_DELAY: '100ms', SLUICE_AGENT_CLOUDEXT_CLIENT_GRPC_BACKOFF_MAX_DELAY: '500ms',
      // The destination of the flow below belongs to service `checkout`.
      SLUICE_AGENT_SERVICE_DISCOVERY_STATIC_ENTITIES: JSON.stringify([{ ip_address: '127.0.0.1', uid: 'shop-1', services: ['checkout'] }]),
    },
  });
  // A flow of service `checkout` at control point `ingress`: the agent has seen that service.
  const client = grpcClient(t, 'flowControlHttp', agent.address);
  await unaryCall(client, 'CheckHTTP', checkHttpRequest('ingress', '/x', { 'x-user': 'u1' }));

  // The controller's heartbeats: over gRPC, its identity, its policy with the hash, the key as metadata.
  await until(() => grpcRx.received.some((b) => (b.report.policies as unknown[] | undefined)?.length === 1), 30_000, 'controller heartbeat with the policy');
  const cBeat = grpcRx.received.find((b) => (b.report.policies as unknown[] | undefined)?.length === 1) as ReceivedHeartbeat;
  assert.equal(cBeat.apiKey, CONTROLLER_KEY);
  assert.equal(cBeat.report.service, 'sluice-controller');
  assert.equal(cBeat.report.controller_id, 'ctl-7');
  assert.equal(cBeat.report.installation_mode, 'KUBERNETES_DAEMONSET');
  assert.match(String(cBeat.report.version), /^\d+\.\d+\.\d+/);
  assert.deepEqual(cBeat.report.policies, [{ name: 'hb', hash: policyHash }]);

  // The agent's: over HTTP, its group, the policy it enforces with the same hash, the service it saw.
  await until(() => httpRx.received.some((b) => (b.report.policies as unknown[] | undefined)?.length === 1), 30_000, 'agent heartbeat with the policy');
  const aBeat = httpRx.received.filter((b) => (b.report.policies as unknown[] | undefined)?.length === 1).at(-1) as ReceivedHeartbeat;
  assert.equal(aBeat.apiKey, AGENT_KEY);
  assert.equal(aBeat.report.service, 'sluice-agent');
  assert.equal(aBeat.report.agent_group, 'hb-group');
  assert.equal(aBeat.report.controller_id, 'ctl-7');
  assert.equal(aBeat.report.installation_mode, 'LINUX_BARE_METAL');
  assert.deepEqual(aBeat.report.policies, [{ name: 'hb', hash: policyHash }]);
  await until(() => JSON.stringify(httpRx.received.at(-1)?.report.services ?? []).includes('checkout'), 10_000, 'agent heartbeat with the service seen');
  assert.deepEqual(httpRx.received.at(-1)?.report.services, [{ name: 'checkout', control_points: ['ingress'] }]);

  // At the interval: consecutive heartbeats of a run are about INTERVAL_MS apart (never much sooner).
  const beats = await httpRx.waitFor(httpRx.received.length + 3);
  for (const gap of gaps(beats.slice(-4))) assert.ok(gap >= INTERVAL_MS * 0.7, `gap ${gap} ms for an interval of ${INTERVAL_MS} ms`);
  const seqs = beats.map((b) => Number(b.report.sequence));
  assert.deepEqual(seqs, seqs.map((_, i) => i + 1), 'sequence numbers count the delivered heartbeats');

  // The receiver goes away and comes back on the same port: heartbeats resume.
  await httpRx.stop();
  const before = httpRx.received.length;
  await new Promise((r) => setTimeout(r, 3 * INTERVAL_MS));
  assert.equal(httpRx.received.length, before);
  await httpRx.start();
  const resumed = await httpRx.waitFor(before + 2, 20_000);
  assert.equal(Number(resumed[before].report.sequence), Number(resumed[before - 1].report.sequence) + 1, 'the next heartbeat after the outage');
  await until(() => /cloudext heartbeats delivered again/.test(agent.output()), 10_000, 'recovery logged');

  // The keys are never in the processes' output.
  assert.match(agent.output(), /cloudext heartbeat failed; retrying with backoff/);
  assert.ok(!agent.output().includes(AGENT_KEY), 'agent logs hold no API key');
  assert.ok(!controller.output().includes(CONTROLLER_KEY), 'controller logs hold no API key');
});

test('cloudext.disable_local_otel_pipeline takes /metrics away; without it /metrics is served', { timeout: 60_000 }, async (t) => {
  const [off, on] = await Promise.all([
    startAgent(t, { env: { SLUICE_AGENT_CLOUDEXT_DISABLE_LOCAL_OTEL_PIPELINE: 'true' } }),
    // Its own etcd namespace: a controller removes the keys of policies it does not hold.
    startController(t, { env: { SLUICE_CONTROLLER_CLOUDEXT_DISABLE_LOCAL_OTEL_PIPELINE: 'false', SLUICE_CONTROLLER_ETCD_NAMESPACE: `cloudext-e2e-${process.pid}` } }),
  ]);
  assert.equal((await get(`${off.base}/metrics`)).status, 404);
  assert.match(off.output(), /local metrics pipeline off/);
  assert.equal((await get(`${off.base}/v1/status/system/readiness`)).status, 200, 'the rest still serves');
  const metrics = await get(`${on.base}/metrics`);
  assert.equal(metrics.status, 200);
  assert.match(metrics.text, /^http_requests_total/m);
});

test('cloudext.enable_cloud_controller true: the controller refuses to start, exit 2, with the reason', () => {
  const r = spawnSync(join(ROOT, 'bin', 'sluice-controller'), [], {
    env: processEnv('controller', { SLUICE_CONTROLLER_CLOUDEXT_ENABLE_CLOUD_CONTROLLER: 'true' }), encoding: 'utf8', timeout: 30_000,
  });
  assert.equal(r.status, 2, r.stderr);
  assert.match(r.stderr, /cloudext\.enable_cloud_controller \(SLUICE_CONTROLLER_CLOUDEXT_ENABLE_CLOUD_CONTROLLER\): value true is not supported: no hosted controller is available/);
  assert.doesNotMatch(r.stdout + r.stderr, /serving gRPC and HTTP/);
});
