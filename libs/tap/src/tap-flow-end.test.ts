import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { AgentConnection } from './check/agent-connection.js';
import { FlowEndClient, flowEndRequestOf } from './check/flow-end.js';
import type { CannedAnswer } from './testing/canned-agent.js';
import { send, startTestAgent, startTestTap, startUpstream } from './testing/fixture.js';

const MEASURED: CannedAnswer = { response: { ok_response: { headers: [] }, flow_id: 'flow-1', check_response: { expect_end: true } } };

async function until(cond: () => boolean, ms = 3000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond() && Date.now() < end) await sleep(10);
}

test('expect_end: the flow end is reported with the workload status and the duration once the response ended', async (t) => {
  const upstream = await startUpstream(t, (req, res) => {
    setTimeout(() => { res.statusCode = req.url === '/missing' ? 404 : 200; res.end('x'); }, 60);
  });
  const agent = await startTestAgent(t, () => MEASURED);
  const { base } = await startTestTap(t, upstream, agent.address);
  assert.equal((await send(`${base}/`)).status, 200);
  assert.equal((await send(`${base}/missing`)).status, 404);
  await until(() => agent.flowEnds.length >= 2);
  assert.equal(agent.flowEnds.length, 2);
  const [first, second] = agent.flowEnds;
  assert.equal(first?.control_point, 'ingress');
  assert.equal(first?.flow_id, 'flow-1');
  assert.deepEqual(agent.flowEnds.map((f) => f.status_code).sort(), [200, 404]);
  const ms = Number(second?.duration?.seconds ?? 0) * 1000 + (second?.duration?.nanos ?? 0) / 1e6;
  assert.ok(ms >= 50 && ms < 3000, `duration ${ms} ms`);
});

test('expect_end with a workload that is down: the flow end says 502', async (t) => {
  const upstream = await startUpstream(t, (_req, res) => res.end());
  const agent = await startTestAgent(t, () => MEASURED);
  const { base } = await startTestTap(t, upstream, agent.address);
  await new Promise((resolve) => upstream.server.close(resolve));
  assert.equal((await send(`${base}/`)).status, 502);
  await until(() => agent.flowEnds.length >= 1);
  assert.equal(agent.flowEnds[0]?.status_code, 502);
});

test('no expect_end, or no flow id: nothing is reported', async (t) => {
  const upstream = await startUpstream(t, (_req, res) => res.end('ok'));
  let answer: CannedAnswer = { response: { ok_response: { headers: [] }, flow_id: 'f', check_response: { expect_end: false } } };
  const agent = await startTestAgent(t, () => answer);
  const { base } = await startTestTap(t, upstream, agent.address);
  assert.equal((await send(`${base}/`)).status, 200);
  answer = { response: { ok_response: { headers: [] }, flow_id: '', check_response: { expect_end: true } } };
  assert.equal((await send(`${base}/`)).status, 200);
  await sleep(150);
  assert.equal(agent.flowEnds.length, 0);
});

test('FlowEndClient: bounded in flight, failures counted, never throws', async (t) => {
  const failures: string[] = [];
  // Nothing listens on port 1: every call fails.
  const connection = new AgentConnection('127.0.0.1:1');
  t.after(() => connection.shutdown());
  const client = new FlowEndClient((headers) => connection.request(headers), { maxInFlight: 2, timeoutMs: 500, onFailure: (r) => failures.push(r) });
  t.after(() => client.shutdown());
  for (let i = 0; i < 5; i++) client.report({ controlPoint: 'c', flowId: `f${i}`, statusCode: 200, durationMs: 1 });
  assert.equal(client.inFlight, 2);
  assert.deepEqual(failures, ['dropped', 'dropped', 'dropped']);
  await until(() => client.inFlight === 0);
  assert.deepEqual(failures.filter((f) => f === 'error').length, 2);
  client.shutdown();
  client.report({ controlPoint: 'c', flowId: 'late', statusCode: 200, durationMs: 1 });
  assert.equal(failures.at(-1), 'dropped');
});

test('flowEndRequestOf: the duration as seconds and nanos, never negative', () => {
  assert.deepEqual(flowEndRequestOf({ controlPoint: 'c', flowId: 'f', statusCode: 201, durationMs: 1500.25 }),
    { control_point: 'c', flow_id: 'f', status_code: 201, duration: { seconds: 1, nanos: 500_250_000 } });
  assert.deepEqual(flowEndRequestOf({ controlPoint: 'c', flowId: 'f', statusCode: 200, durationMs: -3 }).duration, { seconds: 0, nanos: 0 });
});
