import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import { Registry } from 'prom-client';
import { createServer, type InjectRequest } from '@sluice/server';
import { AgentCallError, AgentHub, AgentLink, agentFunctionsService, HTTP_FUNCTION, allowedAgentRoute } from './index.js';
import { TEST_GRPC_CLIENT } from './testdata/grpc-client.js';
import { TEST_SERVER_CONFIG, until } from './testdata/server.js';

async function startHub(t: TestContext, tokenFile?: string): Promise<{ hub: AgentHub; endpoint: string }> {
  const hub = new AgentHub();
  const server = createServer({ ...TEST_SERVER_CONFIG, ...(tokenFile !== undefined ? { auth: { token_file: tokenFile } } : {}) }, { registry: new Registry() });
  server.addService(agentFunctionsService().service, hub.serviceImpl());
  await server.start();
  t.after(() => server.shutdown({ deadlineMs: 2000 }));
  return { hub, endpoint: `127.0.0.1:${server.address().port}` };
}

function link(t: TestContext, endpoint: string, name: string, inject: (r: InjectRequest) => Promise<{ status: number; body: unknown }>, token?: () => string | undefined): AgentLink {
  const l = new AgentLink({ endpoints: [endpoint], grpc: TEST_GRPC_CLIENT, hello: () => ({ agent_group: 'g', agent_name: name, address: '127.0.0.1:1', version: '9' }), inject, ...(token !== undefined ? { token } : {}) });
  l.start();
  t.after(() => l.shutdown());
  return l;
}

test('an agent dials, says hello, and answers http calls through its routes; disallowed routes are refused by the agent itself', async (t) => {
  const { hub, endpoint } = await startHub(t);
  const seen: InjectRequest[] = [];
  link(t, endpoint, 'a1', async (r) => { seen.push(r); return { status: 200, body: { path: r.path, got: r.body ?? null } }; });
  await until(() => hub.list().length === 1);
  assert.deepEqual(hub.list().map((a) => [a.agent_group, a.agent_name, a.version, a.functions]), [['g', 'a1', '9', [HTTP_FUNCTION]]]);
  const r = await hub.call('g', 'a1', HTTP_FUNCTION, { method: 'POST', path: '/v1/flowcontrol/preview/labels/ingress?samples=1', body: { match_labels: {} } }, 5000);
  assert.deepEqual(r, { status: 200, body: { path: '/v1/flowcontrol/preview/labels/ingress?samples=1', got: { match_labels: {} } } });
  await assert.rejects(hub.call('g', 'a1', HTTP_FUNCTION, { method: 'POST', path: '/v1/policies/x' }, 5000), (e: unknown) => e instanceof AgentCallError && e.code === grpc.status.PERMISSION_DENIED);
  await assert.rejects(hub.call('g', 'a1', 'shell', {}, 5000), (e: unknown) => e instanceof AgentCallError && e.code === grpc.status.UNIMPLEMENTED);
  await assert.rejects(hub.call('g', 'nobody', HTTP_FUNCTION, {}, 5000), (e: unknown) => e instanceof AgentCallError && e.code === grpc.status.NOT_FOUND);
  assert.equal(seen.length, 1, 'only the allowed call reached the routes');
});

test('a call without an answer in time fails with DEADLINE_EXCEEDED; a reconnecting agent replaces its old stream', async (t) => {
  const { hub, endpoint } = await startHub(t);
  link(t, endpoint, 'slow', () => new Promise(() => undefined));
  await until(() => hub.list().length === 1);
  await assert.rejects(hub.call('g', 'slow', HTTP_FUNCTION, { method: 'GET', path: '/v1/peers' }, 200), (e: unknown) => e instanceof AgentCallError && e.code === grpc.status.DEADLINE_EXCEEDED);
  const first = hub.list()[0]?.connected_at;
  await new Promise((r) => setTimeout(r, 5));
  link(t, endpoint, 'slow', async () => ({ status: 200, body: 'second' }));
  await until(() => hub.list().length === 1 && hub.list()[0]?.connected_at !== first);
  assert.deepEqual(await hub.call('g', 'slow', HTTP_FUNCTION, { method: 'GET', path: '/v1/peers' }, 5000), { status: 200, body: 'second' }, 'calls go to the newer stream');
});

test('an agent process killed with SIGKILL leaves the list (its dead connection is closed)', async (t) => {
  const { hub, endpoint } = await startHub(t);
  const child = fork(new URL('./testdata/agent-child.js', import.meta.url), [endpoint], { stdio: 'ignore' });
  t.after(() => child.kill('SIGKILL'));
  await until(() => hub.list().length === 1, 20_000);
  child.kill('SIGKILL');
  await until(() => hub.list().length === 0, 10_000);
});

test('a stream that does not start with a hello is refused', async (t) => {
  const { hub, endpoint } = await startHub(t);
  const Ctor = agentFunctionsService();
  const client = new Ctor(endpoint, grpc.credentials.createInsecure());
  t.after(() => client.close());
  const stream = (client as unknown as { Connect(): grpc.ClientDuplexStream<unknown, unknown> }).Connect();
  const status = new Promise<grpc.StatusObject>((resolve) => { stream.on('status', resolve); stream.on('error', () => undefined); });
  stream.write({ hello: { agent_group: 'g', agent_name: 'has space' } });
  assert.equal((await status).code, grpc.status.INVALID_ARGUMENT);
  assert.equal(hub.list().length, 0);
});

test('the agent routes the controller may call: reads and previews only', () => {
  assert.ok(allowedAgentRoute('GET', '/v1/flowcontrol/controlpoints'));
  assert.ok(allowedAgentRoute('POST', '/v1/flowcontrol/preview/http_requests/ingress?samples=3'));
  assert.ok(allowedAgentRoute('GET', '/v1/distcache/stats'));
  for (const [m, p] of [['POST', '/v1/flowcontrol/checkhttp'], ['GET', '/metrics'], ['POST', '/v1/policies/enforced'], ['GET', '/v1/flowcontrol/../policies'], ['GET', '/debug/pprof/heap']]) {
    assert.equal(allowedAgentRoute(m as string, p as string), false, `${m} ${p}`);
  }
});

test('a controller with bearer tokens takes the agent that presents one of them and refuses the others; a rotated token is used at the next connection', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'agentfn-token-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const tokens = join(dir, 'tokens');
  writeFileSync(tokens, '# the agents\nagents-token\n');
  const { hub, endpoint } = await startHub(t, tokens);
  const answer = async (): Promise<{ status: number; body: unknown }> => ({ status: 200, body: 'ok' });
  link(t, endpoint, 'none', answer);
  link(t, endpoint, 'wrong', answer, () => 'guess');
  const good = link(t, endpoint, 'good', answer, () => 'agents-token');
  await until(() => hub.list().length === 1);
  assert.deepEqual(hub.list().map((a) => a.agent_name), ['good']);
  assert.deepEqual(await hub.call('g', 'good', HTTP_FUNCTION, { method: 'GET', path: '/v1/peers' }, 5000), { status: 200, body: 'ok' });
  // The others keep being refused (they retry with their backoff).
  await new Promise((r) => setTimeout(r, 700));
  assert.deepEqual(hub.list().map((a) => a.agent_name), ['good'], 'no token, or a wrong one: refused');
  assert.deepEqual(good.connectedEndpoints(), [endpoint]);
  // Rotation: the controller's file now holds a new token alone; new streams need it.
  writeFileSync(tokens, 'rotated-token\n');
  await new Promise((r) => setTimeout(r, 1100)); // the server looks at its file at most once a second
  link(t, endpoint, 'stale', answer, () => 'agents-token');
  link(t, endpoint, 'rotated', answer, () => 'rotated-token');
  await until(() => hub.list().some((a) => a.agent_name === 'rotated'));
  await new Promise((r) => setTimeout(r, 500));
  assert.deepEqual(hub.list().map((a) => a.agent_name), ['good', 'rotated'], 'the old token no longer opens a stream');
});
