import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import * as grpc from '@grpc/grpc-js';
import { Registry } from 'prom-client';
import { createServer, type InjectRequest } from '@sluice/server';
import { jsonToValue, valueToJson, type ProtoValue } from '@sluice/proto';
import { AgentHub, AgentLink, agentFunctionsService, agentsService, agentsServiceImpl } from './index.js';
import { TEST_GRPC_CLIENT } from './testdata/grpc-client.js';
import { TEST_SERVER_CONFIG, until } from './testdata/server.js';

interface Answer { agent_group: string; answers: Array<{ agent_name: string; status: number; body: ProtoValue }>; missing: Array<{ agent_name: string; error: string }> }
type Unary = (req: unknown, cb: (err: grpc.ServiceError | null, res: unknown) => void) => void;

/** A controller's server with both services, `agents` linked agents of group g, and a client of the fan-out. */
async function setup(t: TestContext, agents: Record<string, (r: InjectRequest) => Promise<{ status: number; body: unknown }>>) {
  const hub = new AgentHub();
  const server = createServer(TEST_SERVER_CONFIG, { registry: new Registry() });
  server.addService(agentFunctionsService().service, hub.serviceImpl());
  server.addService(agentsService().service, agentsServiceImpl(hub, { timeoutMs: 1500 }));
  await server.start();
  t.after(() => server.shutdown({ deadlineMs: 2000 }));
  const endpoint = `127.0.0.1:${server.address().port}`;
  for (const [name, inject] of Object.entries(agents)) {
    const l = new AgentLink({ endpoints: [endpoint], grpc: TEST_GRPC_CLIENT, hello: () => ({ agent_group: 'g', agent_name: name, address: '127.0.0.1:1', version: '9' }), inject });
    l.start();
    t.after(() => l.shutdown());
  }
  await until(() => hub.list().length === Object.keys(agents).length);
  const Ctor = agentsService();
  const client = new Ctor(endpoint, grpc.credentials.createInsecure()) as unknown as grpc.Client & { ListAgents: Unary; CallAgents: Unary };
  t.after(() => client.close());
  const call = <T>(method: 'ListAgents' | 'CallAgents', req: unknown): Promise<T> =>
    new Promise((resolve, reject) => client[method].call(client, req, (err, res) => (err ? reject(err) : resolve(res as T))));
  return { call };
}

test('ListAgents lists the connected agents; CallAgents asks one agent or the whole group, bodies as JSON values', async (t) => {
  const { call } = await setup(t, {
    a1: async (r) => ({ status: 200, body: { from: 'a1', path: r.path, got: r.body ?? null } }),
    a2: async () => ({ status: 200, body: [1, 'two'] }),
  });
  const list = await call<{ agents: Array<{ agent_group: string; agent_name: string; version: string }> }>('ListAgents', {});
  assert.deepEqual(list.agents.map((a) => [a.agent_group, a.agent_name, a.version]).sort(), [['g', 'a1', '9'], ['g', 'a2', '9']]);
  const one = await call<Answer>('CallAgents', { agent_group: 'g', agent_name: 'a1', method: 'POST', path: '/v1/flowcontrol/preview/labels/ingress?samples=1', body: jsonToValue({ match_labels: { user: 'x' } }) });
  assert.deepEqual(one.answers.map((a) => [a.agent_name, a.status, valueToJson(a.body)]), [['a1', 200, { from: 'a1', path: '/v1/flowcontrol/preview/labels/ingress?samples=1', got: { match_labels: { user: 'x' } } }]]);
  const all = await call<Answer>('CallAgents', { agent_group: 'g', method: 'GET', path: '/v1/peers' });
  assert.deepEqual(all.answers.map((a) => [a.agent_name, valueToJson(a.body)]).sort(), [['a1', { from: 'a1', path: '/v1/peers', got: null }], ['a2', [1, 'two']]]);
  assert.deepEqual(all.missing, []);
});

test('CallAgents names an agent that does not answer in time, and refuses what is no agent function', async (t) => {
  const { call } = await setup(t, {
    quick: async () => ({ status: 200, body: 'ok' }),
    stuck: () => new Promise(() => undefined),
  });
  const all = await call<Answer>('CallAgents', { agent_group: 'g', method: 'GET', path: '/v1/peers' });
  assert.deepEqual(all.answers.map((a) => a.agent_name), ['quick']);
  assert.deepEqual(all.missing.map((m) => m.agent_name), ['stuck']);
  assert.match(all.missing[0]?.error ?? '', /no answer within/);
  const refused = async (req: unknown, code: grpc.status, message: RegExp): Promise<void> => {
    await assert.rejects(call('CallAgents', req), (e: grpc.ServiceError) => e.code === code && message.test(e.details));
  };
  await refused({ agent_group: 'g', method: 'POST', path: '/v1/policies/x' }, grpc.status.NOT_FOUND, /is not an agent function/);
  await refused({ agent_group: 'g', method: 'DELETE', path: '/v1/peers' }, grpc.status.INVALID_ARGUMENT, /method: GET or POST/);
  await refused({ agent_group: '', method: 'GET', path: '/v1/peers' }, grpc.status.INVALID_ARGUMENT, /agent_group: required/);
  await refused({ agent_group: 'g', method: 'GET', path: 'v1/peers' }, grpc.status.INVALID_ARGUMENT, /path:/);
  await refused({ agent_group: 'nobody', method: 'GET', path: '/v1/peers' }, grpc.status.NOT_FOUND, /no agent of group nobody/);
  await refused({ agent_group: 'g', agent_name: 'ghost', method: 'GET', path: '/v1/peers' }, grpc.status.NOT_FOUND, /no agent ghost/);
});
