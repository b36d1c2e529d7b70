// Agent functions with real processes: two agents of different groups dial a real controller
// (agent_functions.endpoints; the test never gives the controller an agent's address), the
// controller lists them and serves their read-only routes, one agent's and a whole group's, a
// preview included; a route that is no agent function is refused; a controller restart on the same
// port is survived (the agents dial again); an agent that is gone is named.
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import * as grpc from '@grpc/grpc-js';
import { agentsService } from '@sluice/agentfunctions';
import { valueToJson, type ProtoValue } from '@sluice/proto';
import { apertureCheckHttpRequest, post } from './support/clients.js';
import { endpointsJson, startEtcd } from './support/etcd.js';
import { processEnv, ROOT, startAgent, startController, tempDir, until, writeFile } from './support/processes.js';

interface Agent { agent_group: string; agent_name: string; address: string; version: string }

const json = async (url: string, init?: RequestInit): Promise<{ status: number; body: Record<string, unknown> }> => {
  const r = await fetch(url, init);
  return { status: r.status, body: (await r.json()) as Record<string, unknown> };
};

test('agents dial the controller; their routes, a preview and a group fan-out through it; a controller restart is survived', { timeout: 300_000 }, async (t) => {
  const etcd = await startEtcd(t);
  const controllerEnv = { SLUICE_CONTROLLER_ETCD_ENDPOINTS: endpointsJson(etcd), SLUICE_CONTROLLER_PROMETHEUS_ADDRESS: '127.0.0.1:9' };
  let controller = await startController(t, { ready: 'live', env: controllerEnv });
  const port = controller.port;
  const agentEnv = (group: string) => ({
    SLUICE_AGENT_ETCD_ENDPOINTS: endpointsJson(etcd),
    SLUICE_AGENT_AGENT_INFO_AGENT_GROUP: group,
    SLUICE_AGENT_AGENT_FUNCTIONS_ENDPOINTS: JSON.stringify([`127.0.0.1:${port}`]),
    SLUICE_AGENT_AGENT_FUNCTIONS_CLIENT_GRPC_INSECURE: 'true',
    SLUICE_AGENT_AGENT_FUNCTIONS_CLIENT_GRPC_BACKOFF_MAX_DELAY: '1s',
  });
  const [a1, a2] = await Promise.all([startAgent(t, { ready: 'live', env: agentEnv('blue') }), startAgent(t, { ready: 'live', env: agentEnv('green') })]);

  const agents = async (): Promise<Agent[]> => ((await json(`${controller.base}/v1/agents`)).body.agents as Agent[]);
  await until(async () => (await agents()).length === 2, 30_000, 'both agents connected');
  const listed = await agents();
  assert.deepEqual(listed.map((a) => a.agent_group), ['blue', 'green']);
  const blue = listed[0] as Agent;
  assert.equal(blue.address, `127.0.0.1:${a1.port}`, 'the agent says where it serves');
  assert.equal(blue.version, '0.1.0');

  // Traffic on the blue agent: a control point to see.
  await post(`${a1.base}/v1/flowcontrol/checkhttp`, JSON.stringify(apertureCheckHttpRequest('ingress', '/seen')));
  const one = await json(`${controller.base}/v1/agents/blue/${blue.agent_name}/v1/flowcontrol/controlpoints`);
  assert.equal(one.status, 200);
  assert.deepEqual((one.body.control_points as Array<{ control_point: string }>).map((c) => c.control_point), ['ingress']);
  const fan = await json(`${controller.base}/v1/agents/blue/v1/policies/enforced`);
  assert.equal(fan.status, 200);
  assert.deepEqual((fan.body.answers as Array<{ agent_name: string; status: number; body: { agent_group: string } }>).map((a) => [a.agent_name, a.status, a.body.agent_group]), [[blue.agent_name, 200, 'blue']]);
  assert.deepEqual(fan.body.missing, []);

  // The same over gRPC (sluice.agentfunctions.v1.AgentsService on the controller's port).
  const Agents = agentsService();
  const grpcClient = new Agents(`127.0.0.1:${port}`, grpc.credentials.createInsecure()) as unknown as grpc.Client & Record<'ListAgents' | 'CallAgents', (req: unknown, cb: (err: grpc.ServiceError | null, res: unknown) => void) => void>;
  t.after(() => grpcClient.close());
  const unary = <T>(method: 'ListAgents' | 'CallAgents', req: unknown): Promise<T> =>
    new Promise((resolve, reject) => grpcClient[method].call(grpcClient, req, (err, res) => (err ? reject(err) : resolve(res as T))));
  assert.deepEqual((await unary<{ agents: Agent[] }>('ListAgents', {})).agents.map((a) => a.agent_group).sort(), ['blue', 'green']);
  const overGrpc = await unary<{ answers: Array<{ agent_name: string; status: number; body: ProtoValue }>; missing: unknown[] }>('CallAgents', { agent_group: 'blue', method: 'GET', path: '/v1/flowcontrol/controlpoints' });
  assert.deepEqual(overGrpc.answers.map((a) => [a.agent_name, a.status, (valueToJson(a.body) as { control_points: Array<{ control_point: string }> }).control_points.map((c) => c.control_point)]), [[blue.agent_name, 200, ['ingress']]]);

  // A preview through the controller, with traffic arriving at the agent meanwhile.
  const preview = json(`${controller.base}/v1/agents/blue/${blue.agent_name}/v1/flowcontrol/preview/http_requests/ingress?samples=2`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ match_labels: { 'http.method': 'POST' } }),
  });
  let done = false;
  void preview.finally(() => { done = true; });
  for (let i = 0; !done && i < 200; i++) {
    await post(`${a1.base}/v1/flowcontrol/checkhttp`, JSON.stringify(apertureCheckHttpRequest('ingress', `/p/${i}`, {}, i % 2 === 0 ? 'POST' : 'GET')));
    await new Promise((r) => setTimeout(r, 20));
  }
  const p = await preview;
  assert.equal(p.status, 200, JSON.stringify(p.body));
  const samples = p.body.samples as Array<{ request?: { method?: string } }>;
  assert.equal(samples.length, 2);

  // The same through sluicectl, which was never told an agent's address either.
  const ctl = (args: string[]): Promise<{ code: number; out: string; err: string }> => new Promise((resolve) => {
    execFile(join(ROOT, 'bin', 'sluicectl'), ['--controller', controller.base, ...args], { timeout: 60_000 }, (err, out, errText) => {
      resolve({ code: err === null ? 0 : Number((err as { code?: number }).code ?? -1), out, err: errText });
    });
  });
  const listedByCtl = await ctl(['agents']);
  assert.equal(listedByCtl.code, 0, listedByCtl.err);
  assert.match(listedByCtl.out, new RegExp(`blue .*${blue.agent_name}`));
  const cps = await ctl(['flow-control', 'control-points', '--agent-group', 'blue']);
  assert.equal(cps.code, 0, cps.err);
  assert.match(cps.out, new RegExp(`${blue.agent_name} .*ingress`));
  const previewByCtl = ctl(['-o', 'json', 'flow-control', 'preview', 'ingress', '--agent-group', 'blue', '--samples', '1', '--match', 'http.method=POST']);
  let ctlDone = false;
  void previewByCtl.finally(() => { ctlDone = true; });
  for (let i = 0; !ctlDone && i < 300; i++) {
    await post(`${a1.base}/v1/flowcontrol/checkhttp`, JSON.stringify(apertureCheckHttpRequest('ingress', `/c/${i}`, {}, 'POST')));
    await new Promise((r) => setTimeout(r, 20));
  }
  const pv = await previewByCtl;
  assert.equal(pv.code, 0, pv.err);
  assert.equal(((JSON.parse(pv.out) as { answers: Array<{ body: { samples: unknown[] } }> }).answers[0]?.body.samples ?? []).length, 1);

  // Not an agent function; an unknown group; an unknown agent.
  assert.equal((await json(`${controller.base}/v1/agents/blue/v1/flowcontrol/checkhttp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).status, 404);
  assert.equal((await json(`${controller.base}/v1/agents/red/v1/policies/enforced`)).status, 404);
  assert.match(String((await json(`${controller.base}/v1/agents/blue/nobody/v1/policies/enforced`)).body.message), /no agent nobody of group blue/);

  // The controller restarts on the same port: the agents dial again.
  controller.child.kill('SIGTERM');
  await controller.exited;
  controller = await startController(t, { ready: 'live', env: { ...controllerEnv, SLUICE_CONTROLLER_SERVER_LISTENER_ADDR: `127.0.0.1:${port}` } });
  await until(async () => (await agents()).length === 2, 60_000, 'both agents connected to the new controller');
  assert.equal((await json(`${controller.base}/v1/agents/green/v1/policies/enforced`)).status, 200);

  // An agent that is gone leaves the list; a call to it names it.
  a2.child.kill('SIGKILL');
  await a2.exited;
  await until(async () => (await agents()).length === 1, 60_000, 'the killed agent left the list');
  assert.equal((await json(`${controller.base}/v1/agents/green/v1/policies/enforced`)).status, 404);
});

test('an agent whose agent_functions.token_file cannot be read or holds no token exits 2 naming it', { timeout: 60_000 }, (t) => {
  const dir = tempDir(t);
  const run = (file: string) => spawnSync(join(ROOT, 'bin', 'sluice-agent'), [], {
    cwd: ROOT, encoding: 'utf8', timeout: 40_000,
    env: processEnv('agent', { SLUICE_AGENT_AGENT_FUNCTIONS_ENDPOINTS: '["127.0.0.1:9"]', SLUICE_AGENT_AGENT_FUNCTIONS_TOKEN_FILE: file, SLUICE_AGENT_DIST_CACHE_AUTH_INSECURE: 'true' }),
  });
  const missing = run(join(dir, 'absent'));
  assert.equal(missing.status, 2, missing.stderr);
  assert.match(missing.stderr, /^sluice-agent: agent_functions\.token_file "[^"]*absent" cannot be read: ENOENT$/m);
  const empty = run(writeFile(dir, 'token', '# none yet\n'));
  assert.equal(empty.status, 2, empty.stderr);
  assert.match(empty.stderr, /^sluice-agent: agent_functions\.token_file "[^"]*token" holds no token$/m);
});
