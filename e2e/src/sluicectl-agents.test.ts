// The whole of sluicectl against real processes: etcd, a controller with bearer tokens, two agents of
// different groups with a sluice-tap each in front of a workload, and traffic. The agents learn the
// controller's address only from what the controller's sidecar injector gives an injected agent (the
// default endpoints); they present a token, and an agent without one is refused. Every command works;
// previews reach the agents through the controller; after a controller restart the agents dial again
// and the commands still work.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import fastJsonPatch from 'fast-json-patch';
import { endpointsJson, startEtcd } from './support/etcd.js';
import { ROOT, startAgent, startController, startTap, tempDir, until, type SluiceProcess } from './support/processes.js';
import { freePort } from './support/ready-daemon.js';

interface Run { code: number; out: string; err: string }
type Obj = Record<string, unknown>;
/** Between two polls through sluicectl (each a Node process start): waiting does not keep a core busy. */
const CLI_POLL_MS = 500;

/** The agent-functions variables the controller's injector gives an agent it injects into a pod (sidecar mode). */
async function injectedAgentFunctionsEnv(controller: SluiceProcess): Promise<Record<string, string>> {
  const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web-0', namespace: 'shop', annotations: { 'sluice.dev/inject': 'true' } }, spec: { containers: [{ name: 'web', image: 'web', ports: [{ name: 'http', containerPort: 3000 }] }] } };
  const review = { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', request: { uid: 'u-1', kind: { group: '', version: 'v1', kind: 'Pod' }, resource: { group: '', version: 'v1', resource: 'pods' }, namespace: 'shop', operation: 'CREATE', object: pod } };
  const r = await fetch(`${controller.base}/v1/admission/inject`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(review) });
  assert.equal(r.status, 200);
  const response = ((await r.json()) as { response: { patch: string } }).response;
  const patch = JSON.parse(Buffer.from(response.patch, 'base64').toString('utf8')) as fastJsonPatch.Operation[];
  const patched = fastJsonPatch.applyPatch(structuredClone(pod), patch, true, false).newDocument as { spec: { containers: Obj[] } };
  const agent = patched.spec.containers.find((c) => c.name === 'sluice-agent') ?? assert.fail('an agent is injected');
  return Object.fromEntries((agent.env as Obj[]).filter((e) => String(e.name).startsWith('SLUICE_AGENT_AGENT_FUNCTIONS_')).map((e) => [String(e.name), String(e.value)]));
}

/** A workload answering every request with 200. */
async function workload(t: TestContext): Promise<string> {
  const server = http.createServer((req, res) => { req.resume(); req.on('end', () => res.end('ok')); });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  t.after(() => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

test('sluicectl against a controller, two agent groups, taps and traffic: every command, the default endpoints, agent tokens, a controller restart', { timeout: 600_000 }, async (t) => {
  const etcd = await startEtcd(t);
  const dir = tempDir(t);
  const tokens = join(dir, 'tokens');
  writeFileSync(tokens, 'operator-token\nagents-token\n');
  const agentToken = join(dir, 'agent-token');
  writeFileSync(agentToken, '# the agents\' token\nagents-token\n');
  const port = await freePort();
  const controllerEnv = {
    SLUICE_CONTROLLER_ETCD_ENDPOINTS: endpointsJson(etcd), SLUICE_CONTROLLER_PROMETHEUS_ADDRESS: '127.0.0.1:9',
    SLUICE_CONTROLLER_SERVER_LISTENER_ADDR: `127.0.0.1:${port}`, SLUICE_CONTROLLER_SERVER_AUTH_TOKEN_FILE: tokens,
    // What the controller chart sets: its own Service, here its loopback address.
    SLUICE_CONTROLLER_INJECTOR_MODE: 'sidecar', SLUICE_CONTROLLER_INJECTOR_CONTROLLER_ADDRESS: `127.0.0.1:${port}`,
  };
  let controller = await startController(t, { ready: 'live', env: controllerEnv });
  const injected = await injectedAgentFunctionsEnv(controller);
  assert.deepEqual(injected, { SLUICE_AGENT_AGENT_FUNCTIONS_ENDPOINTS: `["127.0.0.1:${port}"]`, SLUICE_AGENT_AGENT_FUNCTIONS_CLIENT_GRPC_INSECURE: 'true' });

  // The agents: their group, etcd, the token file; the controller's address only as injected.
  const agentEnv = (group: string, token: boolean): Record<string, string> => ({
    SLUICE_AGENT_ETCD_ENDPOINTS: endpointsJson(etcd), SLUICE_AGENT_AGENT_INFO_AGENT_GROUP: group,
    SLUICE_AGENT_AGENT_FUNCTIONS_CLIENT_GRPC_BACKOFF_MAX_DELAY: '1s', ...injected,
    ...(token ? { SLUICE_AGENT_AGENT_FUNCTIONS_TOKEN_FILE: agentToken } : {}),
  });
  const [blue, green, red] = await Promise.all([
    startAgent(t, { ready: 'live', env: agentEnv('blue', true) }),
    startAgent(t, { ready: 'live', env: agentEnv('green', true) }),
    startAgent(t, { ready: 'live', env: agentEnv('red', false) }),
  ]);
  assert.ok(blue && green && red);
  const upstream = await workload(t);
  const [tapBlue, tapGreen] = await Promise.all([startTap(t, upstream, blue.address, 'ingress'), startTap(t, upstream, green.address, 'checkout')]);

  const ctl = (args: string[]): Promise<Run> => new Promise((resolve) => {
    execFile(join(ROOT, 'bin', 'sluicectl'), args, { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', SLUICE_CONTROLLER: controller.base, SLUICE_TOKEN: 'operator-token' }, timeout: 90_000 }, (err, out, errText) => {
      resolve({ code: err === null ? 0 : Number((err as { code?: number }).code ?? -1), out, err: errText });
    });
  });
  const ok = async (args: string[]): Promise<string> => {
    const r = await ctl(args);
    assert.equal(r.code, 0, `sluicectl ${args.join(' ')}: ${r.err}`);
    assert.doesNotMatch(r.err, /\n\s+at /);
    return r.out;
  };
  type Listed = { agents: Array<{ agent_group: string; agent_name: string }> };
  const groups = async (): Promise<string[]> => ((JSON.parse(await ok(['-o', 'json', 'agents'])) as Listed).agents.map((a) => a.agent_group));
  await until(async () => (await groups()).length === 2, 60_000, 'the two agents with a token connected', CLI_POLL_MS);
  await new Promise((r) => setTimeout(r, 2000));
  assert.deepEqual(await groups(), ['blue', 'green'], 'the agent without a token is refused');
  assert.match(await ok(['agents']), /GROUP[\s\S]*blue[\s\S]*green/);

  // Traffic through both taps, all along.
  let stop = false;
  const traffic = (async () => {
    for (let i = 0; !stop; i++) {
      const method = i % 2 === 0 ? 'POST' : 'GET';
      await Promise.allSettled([tapBlue, tapGreen].map((tap) => fetch(`${tap.base}/orders/${i}`, { method, headers: { user: `u${i % 3}` }, ...(method === 'POST' ? { body: 'x' } : {}) }).then((r) => r.arrayBuffer())));
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  t.after(async () => { stop = true; await traffic; });

  await until(async () => /ingress/.test(await ok(['flow-control', 'control-points', '--agent-group', 'blue'])), 30_000, 'blue saw ingress', CLI_POLL_MS);
  assert.match(await ok(['flow-control', 'control-points', '--agent-group', 'green']), /checkout/);
  const preview = async (group: string, cp: string, extra: string[]): Promise<Array<{ agent_name: string; status: number; body: { samples: Obj[] } }>> =>
    (JSON.parse(await ok(['-o', 'json', 'flow-control', 'preview', cp, '--agent-group', group, '--samples', '2', ...extra])) as { answers: Array<{ agent_name: string; status: number; body: { samples: Obj[] } }> }).answers;
  const blueAnswers = await preview('blue', 'ingress', ['--match', 'http.method=POST']);
  assert.equal(blueAnswers[0]?.status, 200);
  assert.equal(blueAnswers[0]?.body.samples.length, 2);
  for (const s of blueAnswers[0]?.body.samples ?? []) assert.match(JSON.stringify(s), /"method":"POST"/);
  const labels = await preview('green', 'checkout', ['--labels']);
  assert.match(JSON.stringify(labels[0]?.body.samples), /http\.request\.header\.user/);
  assert.match(await ok(['flow-control', 'preview', 'ingress', '--agent-group', 'blue', '--samples', '1']), /AGENT[\s\S]*(POST|GET) /);
  assert.match(await ok(['discovery', 'entities', '--agent-group', 'blue']), /AGENT|\(none\)/);

  // Policies: generated from a blueprint for group blue, applied, shown, decided, configured, deleted.
  const values = join(dir, 'values.yaml');
  writeFileSync(values, 'policy_name: blue-limit\nrate_limiter:\n  bucket_capacity: 5\n  fill_amount: 1\n  label_key: http.request.header.user\n  selectors: [{control_point: ingress, agent_group: blue}]\n');
  await ok(['blueprints', 'generate', 'rate-limiting', '--values-file', values, '--output-dir', dir]);
  assert.match(await ok(['compile', '-f', join(dir, 'blue-limit.yaml'), '--svg', join(dir, 'blue-limit.svg')]), /1 component.*it compiles/);
  assert.match(await ok(['apply', 'policy', '-f', join(dir, 'blue-limit.yaml')]), /^policy blue-limit applied/);
  assert.match(await ok(['policies']), /blue-limit/);
  assert.match(await ok(['policy', 'blue-limit']), /rate_limiter:/);
  await until(async () => /blue-limit/.test(await ok(['decisions', 'rate_limiter'])), 30_000, 'the limiter\'s decision', CLI_POLL_MS);
  // Heavy traffic of one user through blue's tap is limited now.
  await until(async () => (await fetch(`${tapBlue.base}/x`, { headers: { user: 'heavy' } })).status === 429, 30_000, 'blue limits the heavy user');

  // The controller restarts on its port: the agents dial again; the commands work after.
  controller.child.kill('SIGTERM');
  await controller.exited;
  controller = await startController(t, { ready: 'live', env: controllerEnv });
  await until(async () => (await ctl(['-o', 'json', 'agents'])).code === 0 && (await groups()).join() === 'blue,green', 90_000, 'both agents back on the new controller', CLI_POLL_MS);
  const again = await preview('blue', 'ingress', ['--match', 'http.method=GET']);
  assert.equal(again[0]?.status, 200);
  for (const s of again[0]?.body.samples ?? []) assert.match(JSON.stringify(s), /"method":"GET"/);
  assert.match(await ok(['policies']), /blue-limit/);
  assert.match(await ok(['flow-control', 'control-points', '--agent-group', 'green']), /checkout/);
  assert.match(await ok(['delete', 'policy', 'blue-limit']), /deleted/);

  // A group nobody is in: the controller's message, exit 1.
  const none = await ctl(['flow-control', 'control-points', '--agent-group', 'nobody']);
  assert.equal(none.code, 1);
  assert.match(none.err, /^sluicectl: .*nobody/);
  stop = true;
  await traffic;
});
