import assert from 'node:assert/strict';
import net from 'node:net';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { status } from '@grpc/grpc-js';
import { startCannedAgent } from './testing/canned-agent.js';
import { metricValue, send, startTestAgent, startTestTap, startUpstream } from './testing/fixture.js';

/** A loopback port with nothing listening on it. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

test('fail-open: an unreachable agent does not stop traffic; counted as unavailable', async (t) => {
  const upstream = await startUpstream(t, (_req, res) => res.end('through'));
  const { base, registry } = await startTestTap(t, upstream, `127.0.0.1:${await closedPort()}`, { checkTimeoutMs: 250 });
  for (let i = 0; i < 3; i++) {
    const started = Date.now();
    const reply = await send(`${base}/`);
    assert.equal(reply.status, 200);
    assert.equal(reply.text, 'through');
    assert.ok(Date.now() - started < 2000, 'answered within a bounded time');
  }
  assert.equal(await metricValue(registry, 'tap_fail_open_total'), 3);
  // A refused connection is UNAVAILABLE (or, while the channel is still connecting, the deadline).
  assert.equal(await metricValue(registry, 'tap_fail_open_total', { reason: 'unavailable' }) + await metricValue(registry, 'tap_fail_open_total', { reason: 'deadline' }), 3);
  assert.ok(await metricValue(registry, 'tap_fail_open_total', { reason: 'unavailable' }) >= 1);
  assert.equal(await metricValue(registry, 'tap_requests_total', { decision: 'fail_open' }), 3);
});

test('fail-open: a slow agent is given up on at the check timeout; counted as deadline', async (t) => {
  const upstream = await startUpstream(t, (_req, res) => res.end('through'));
  const agent = await startTestAgent(t, () => ({ response: { http_response: 'denied_response', denied_response: { status: 429, headers: [], body: '' } }, delayMs: 3000 }));
  const { base, registry } = await startTestTap(t, upstream, agent.address, { checkTimeoutMs: 150 });
  await send(`${base}/warm-up`); // the first call also connects the channel
  const started = Date.now();
  const reply = await send(`${base}/`);
  const took = Date.now() - started;
  assert.equal(reply.status, 200, 'the late denial is not applied');
  assert.ok(took >= 140 && took < 1500, `forwarded after ${took} ms`);
  assert.equal(await metricValue(registry, 'tap_fail_open_total', { reason: 'deadline' }), 2);
  assert.ok(await metricValue(registry, 'tap_check_duration_seconds_sum') >= 0.28);
});

test('fail-open: an error from the agent is counted as error', async (t) => {
  const upstream = await startUpstream(t, (_req, res) => res.end('through'));
  const agent = await startTestAgent(t, () => ({ error: { code: status.INTERNAL, message: 'boom' } }));
  const { base, registry } = await startTestTap(t, upstream, agent.address);
  const reply = await send(`${base}/`);
  assert.equal(reply.status, 200);
  assert.equal(await metricValue(registry, 'tap_fail_open_total', { reason: 'error' }), 1);
});

test('--fail-closed: no answer from the agent means 503 with Retry-After; the workload sees nothing', async (t) => {
  let hits = 0;
  const upstream = await startUpstream(t, (_req, res) => { hits++; res.end('through'); });
  const { base, registry } = await startTestTap(t, upstream, `127.0.0.1:${await closedPort()}`, { checkTimeoutMs: 100, failClosed: true });
  const reply = await send(`${base}/`);
  assert.equal(reply.status, 503);
  assert.equal(reply.headers['retry-after'], '1');
  assert.equal(JSON.parse(reply.text).code, 14);
  assert.equal(hits, 0);
  assert.equal(await metricValue(registry, 'tap_requests_total', { decision: 'fail_closed' }), 1);
  assert.equal(await metricValue(registry, 'tap_fail_open_total'), 1);
});

test('the tap recovers when the agent comes back', async (t) => {
  const upstream = await startUpstream(t, (_req, res) => res.end('through'));
  const agent = await startTestAgent(t, () => ({ response: { http_response: 'denied_response', denied_response: { status: 429, headers: [], body: 'limited' } } }));
  const { base, tap } = await startTestTap(t, upstream, agent.address, { checkTimeoutMs: 200 });
  assert.equal((await send(`${base}/`)).status, 429);
  await agent.close();
  assert.equal((await send(`${base}/`)).status, 200, 'fail-open while the agent is away');
  assert.ok(await metricValue(tap.metrics.registry, 'tap_fail_open_total') >= 1);
  // Back on the same port: the channel reconnects (backoff at most 2 s) and decisions apply again.
  const port = Number(agent.address.split(':')[1]);
  const again = await startCannedAgent(() => ({ response: { http_response: 'denied_response', denied_response: { status: 429, headers: [], body: 'limited' } } }), { port });
  t.after(() => again.close());
  let status = 0;
  for (let i = 0; i < 40 && status !== 429; i++) {
    status = (await send(`${base}/`)).status;
    if (status !== 429) await sleep(100);
  }
  assert.equal(status, 429);
});
