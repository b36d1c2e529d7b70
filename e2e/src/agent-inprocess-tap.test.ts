// The agent serving the traffic tap itself (tap.enabled: one process per pod, as the injector's
// sidecar mode runs it): a real agent in front of a real workload, a policy published through the
// real controller and etcd limits the traffic on the agent's tap port; the flux meter and the
// preview see the flows; tap metrics are on the agent's /metrics. Configuration the tap cannot
// serve stops the agent with exit 2 and a message naming the key.
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { post, startWorkload } from './support/clients.js';
import { endpointsJson, startEtcd } from './support/etcd.js';
import { holdPort, processEnv, ROOT, spawnProc, startAgent, startController, until } from './support/processes.js';

const CP = 'ingress-inproc';

/** A rate limiter of 2 per x-user at CP (one more an hour: a denial's Retry-After is up to an hour) and a flux meter there. */
const POLICY = {
  circuit: {
    evaluation_interval: '500ms',
    components: [{ flow_control: { rate_limiter: {
      in_ports: { bucket_capacity: { constant_signal: { value: 2 } }, fill_amount: { constant_signal: { value: 1 } } },
      parameters: { label_key: 'http.request.header.x_user', interval: '3600s', continuous_fill: false },
      selectors: [{ control_point: CP }],
    } } }],
  },
  resources: { flow_control: { flux_meters: { 'inproc-latency': { selectors: [{ control_point: CP }] } } } },
};

async function metric(base: string, re: RegExp): Promise<number> {
  const text = await (await fetch(`${base}/metrics`)).text();
  let n = 0;
  for (const m of text.matchAll(new RegExp(re.source, 'gm'))) n += Number(m[1]);
  return n;
}

async function agentWithTap(t: TestContext) {
  const etcd = await startEtcd(t);
  const endpoints = endpointsJson(etcd);
  const controller = await startController(t, { env: { SLUICE_CONTROLLER_ETCD_ENDPOINTS: endpoints, SLUICE_CONTROLLER_PROMETHEUS_ADDRESS: '127.0.0.1:9' } });
  const workload = await startWorkload(t);
  const agent = await startAgent(t, {
    env: {
      SLUICE_AGENT_ETCD_ENDPOINTS: endpoints,
      SLUICE_AGENT_SERVER_HTTP_WRITE_TIMEOUT: '4s',
      SLUICE_AGENT_TAP_ENABLED: 'true',
      SLUICE_AGENT_TAP_LISTEN: '127.0.0.1:0',
      SLUICE_AGENT_TAP_UPSTREAM: workload.url,
      SLUICE_AGENT_TAP_CONTROL_POINT: CP,
    },
  });
  const line = await agent.waitForLine(/"tap started"/);
  const tapPort = (JSON.parse(line) as { meta: { listen: { port: number } } }).meta.listen.port;
  const send = async (user: string, path = '/orders') => {
    const r = await fetch(`http://127.0.0.1:${tapPort}${path}`, { headers: { 'x-user': user } });
    return { status: r.status, retry: r.headers.get('retry-after'), text: await r.text() };
  };
  return { controller, agent, workload, tapPort, send };
}

test('agent with tap.enabled: a policy from the controller limits traffic on its tap port; flux meter, preview and metrics see the flows', { timeout: 180_000 }, async (t) => {
  const { controller, agent, workload, tapPort, send } = await agentWithTap(t);
  assert.equal((await send('before')).status, 200, 'no policy yet: the request goes through');
  assert.equal(workload.seen.length, 1);

  const published = await post(`${controller.base}/v1/policies/inproc`, JSON.stringify({ policy: POLICY }));
  assert.equal(published.status, 200, published.text);
  // Enforced once a user's third request is turned away.
  let probe = 0;
  await until(async () => {
    const user = `probe-${probe++}`;
    await send(user);
    await send(user);
    return (await send(user)).status === 429;
  }, 30_000, 'the published rate limiter enforced through the tap');

  const seen = workload.seen.length;
  assert.equal((await send('alice')).status, 200);
  assert.equal((await send('alice')).status, 200);
  const limited = await send('alice');
  assert.equal(limited.status, 429, limited.text);
  assert.ok(Number(limited.retry) >= 1, `Retry-After ${limited.retry}`);
  assert.equal(JSON.parse(limited.text).code, 8, 'a gRPC-gateway error body: RESOURCE_EXHAUSTED');
  assert.equal((await send('bob')).status, 200, 'another user has a bucket of his own');
  assert.equal(workload.seen.length, seen + 3, 'the rejected request did not reach the workload');
  assert.equal(workload.seen.at(-1)?.headers['x-user'], 'bob');

  // Flow ends reach the flux meter: accepted flows with the workload's status, rejected ones at the check.
  const accepted = /^flux_meter_count\{flux_meter_name="inproc-latency",[^}]*decision_type="DECISION_TYPE_ACCEPTED",response_status="200"[^}]*\} (\d+)$/;
  await until(async () => await metric(agent.base, accepted) >= 3, 10_000, 'accepted flows measured');
  assert.ok(await metric(agent.base, /^flux_meter_count\{flux_meter_name="inproc-latency",[^}]*decision_type="DECISION_TYPE_REJECTED"[^}]*\} (\d+)$/) >= 1, 'rejected flows measured');
  assert.ok(await metric(agent.base, /^tap_requests_total\{decision="rejected"\} (\d+)$/) >= 2, 'the tap\'s metrics are on the agent\'s /metrics');
  assert.ok(await metric(agent.base, /^tap_requests_total\{decision="accepted"\} (\d+)$/) >= 4);

  // A preview of the control point sees the tap's requests, with the tap's address as their destination.
  let previewDone = false;
  const preview = post(`${agent.base}/v1/flowcontrol/preview/http_requests/${CP}?samples=2`, JSON.stringify({ match_labels: { 'http.target': '/preview-me' } }))
    .finally(() => { previewDone = true; });
  for (let i = 0; !previewDone && i < 300; i++) {
    await send(`viewer-${i}`, '/preview-me');
    await new Promise((r) => setTimeout(r, 10));
  }
  const r = await preview;
  assert.equal(r.status, 200, r.text);
  const samples = (JSON.parse(r.text) as { samples: { attributes: { request: { http: { path: string; headers: Record<string, string> } }; destination: { socketAddress: { port: number } } } }[] }).samples;
  assert.equal(samples.length, 2);
  for (const s of samples) {
    assert.equal(s.attributes.request.http.path, '/preview-me');
    assert.match(s.attributes.request.http.headers['x-user'] ?? '', /^viewer-/);
    assert.equal(s.attributes.destination.socketAddress.port, tapPort);
  }

  // SIGTERM: the tap stops with the agent, exit 0.
  agent.child.kill('SIGTERM');
  assert.deepEqual(await agent.exited, { code: 0, signal: null });
  await assert.rejects(fetch(`http://127.0.0.1:${tapPort}/`), 'the tap port is closed');
});

test('agent with tap.enabled refuses configuration the tap cannot serve: exit 2, the key named', { timeout: 120_000 }, async (t) => {
  const run = async (env: Record<string, string>) => {
    const p = spawnProc(t, `${ROOT}bin/sluice-agent`, [], processEnv('agent', env));
    const exit = await p.exited;
    return { code: exit.code, out: p.output() };
  };
  const noUpstream = await run({ SLUICE_AGENT_TAP_ENABLED: 'true' });
  assert.equal(noUpstream.code, 2, noUpstream.out);
  assert.match(noUpstream.out, /sluice-agent: tap\.upstream \(SLUICE_AGENT_TAP_UPSTREAM\): value "" must be set when tap\.enabled is true/);
  assert.match(noUpstream.out, /nothing was started/);

  const ownPort = await run({ SLUICE_AGENT_TAP_ENABLED: 'true', SLUICE_AGENT_TAP_UPSTREAM: 'http://127.0.0.1:3000', SLUICE_AGENT_SERVER_LISTENER_ADDR: '127.0.0.1:18071', SLUICE_AGENT_TAP_LISTEN: '127.0.0.1:18071' });
  assert.equal(ownPort.code, 2, ownPort.out);
  assert.match(ownPort.out, /tap\.listen \(SLUICE_AGENT_TAP_LISTEN\): value "127\.0\.0\.1:18071" has port 18071, also the port of server\.listener\.addr/);

  const held = await holdPort(t);
  const taken = await run({ SLUICE_AGENT_TAP_ENABLED: 'true', SLUICE_AGENT_TAP_UPSTREAM: 'http://127.0.0.1:3000', SLUICE_AGENT_TAP_LISTEN: `127.0.0.1:${held.port}` });
  assert.equal(taken.code, 2, taken.out);
  assert.match(taken.out, new RegExp(`sluice-agent: tap\\.listen "127\\.0\\.0\\.1:${held.port}": the port is in use by another process \\(EADDRINUSE\\)`));

  const https = await run({ SLUICE_AGENT_TAP_ENABLED: 'true', SLUICE_AGENT_TAP_UPSTREAM: 'https://127.0.0.1:3000' });
  assert.equal(https.code, 2, https.out);
  assert.match(https.out, /tap\.upstream \(SLUICE_AGENT_TAP_UPSTREAM\): value "https:\/\/127\.0\.0\.1:3000" is not http:\/\/host:port/);
});
