import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { status } from '@grpc/grpc-js';
import { startCannedAgent, type CannedAnswer } from './testing/canned-agent.js';
import { metricValue, send, startTestAgent, startTestTap, startUpstream } from './testing/fixture.js';
import type { CheckHTTPRequest } from './check/types.js';

const DENY: CannedAnswer = { response: { http_response: 'denied_response', denied_response: { status: 429, headers: [], body: 'limited' } } };

test('checks go on one stream; each request gets its own decision, answered out of order', async (t) => {
  const upstream = await startUpstream(t, (req, res) => res.end(`through ${req.url}`));
  const agent = await startTestAgent(t, (r: CheckHTTPRequest) => {
    if (r.request.path.startsWith('/slow-deny')) return { ...DENY, delayMs: 200 };
    if (r.request.path.startsWith('/slow')) return { response: { ok_response: { headers: [{ key: 'x-decided', value: r.request.path }] } }, delayMs: 120 };
    return { response: { ok_response: { headers: [{ key: 'x-decided', value: r.request.path }] } } };
  });
  const { base, registry } = await startTestTap(t, upstream, agent.address);
  await send(`${base}/warm-up`);
  const finished: string[] = [];
  const one = (path: string) => send(`${base}${path}`).then((r) => { finished.push(path); return r; });
  const [slowDeny, slow, fast1, fast2] = await Promise.all([one('/slow-deny'), one('/slow'), one('/fast-1'), one('/fast-2')]);
  assert.equal(slowDeny.status, 429);
  assert.equal(slowDeny.text, 'limited');
  assert.equal(slow.status, 200);
  assert.equal(slow.text, 'through /slow');
  assert.equal(fast1.text, 'through /fast-1');
  assert.equal(fast2.text, 'through /fast-2');
  assert.deepEqual(finished.slice(2), ['/slow', '/slow-deny'], 'the quick decisions did not wait for the slow ones');
  assert.equal(agent.calls.streams, 1, 'one stream for every check');
  assert.equal(agent.calls.streamed, 5);
  assert.equal(agent.calls.unary, 0);
  assert.equal(await metricValue(registry, 'tap_requests_total', { decision: 'accepted' }), 4);
  assert.equal(await metricValue(registry, 'tap_requests_total', { decision: 'rejected' }), 1);
  assert.equal(await metricValue(registry, 'tap_fail_open_total'), 0);
});

test('an agent without the stream (UNIMPLEMENTED) is asked with unary CheckHTTP, the first request included', async (t) => {
  const upstream = await startUpstream(t, (_req, res) => res.end('through'));
  const agent = await startCannedAgent((r) => (r.request.path === '/deny' ? DENY : { response: { ok_response: { headers: [] } } }), { unaryOnly: true });
  t.after(() => agent.close());
  const { base, registry } = await startTestTap(t, upstream, agent.address);
  const first = await Promise.all([send(`${base}/deny`), send(`${base}/ok`)]);
  assert.deepEqual(first.map((r) => r.status), [429, 200], 'the checks sent on the refused stream are decided, not failed open');
  for (let i = 0; i < 3; i++) assert.equal((await send(`${base}/deny`)).status, 429);
  assert.equal(agent.calls.unary, 5);
  assert.equal(agent.calls.streamed, 0);
  assert.equal(await metricValue(registry, 'tap_fail_open_total'), 0);
  assert.equal(await metricValue(registry, 'tap_requests_total', { decision: 'rejected' }), 4);
});

test('a broken stream fails its waiting checks at once as unavailable; the next requests are decided and the stream re-opens', async (t) => {
  const upstream = await startUpstream(t, (_req, res) => res.end('through'));
  const agent = await startTestAgent(t, (r) => (r.request.path === '/held' ? { ...DENY, delayMs: 5000 } : DENY));
  const { base, registry } = await startTestTap(t, upstream, agent.address, { checkTimeoutMs: 3000 });
  assert.equal((await send(`${base}/first`)).status, 429);
  const started = Date.now();
  const held = send(`${base}/held`);
  while (agent.requests.length < 2) await sleep(5);
  agent.breakStreams(status.UNAVAILABLE, 'going away');
  const reply = await held;
  assert.equal(reply.status, 200, 'failed open');
  assert.ok(Date.now() - started < 1500, 'not at the check timeout');
  assert.equal(await metricValue(registry, 'tap_fail_open_total', { reason: 'unavailable' }), 1);
  // Decided during the backoff (unary) and after it (a new stream).
  assert.equal((await send(`${base}/next`)).status, 429);
  await sleep(300);
  assert.equal((await send(`${base}/later`)).status, 429);
  assert.equal(agent.calls.streams, 2, 'the stream was opened again');
  assert.equal(await metricValue(registry, 'tap_fail_open_total'), 1);
});

test('--fail-closed: checks waiting on a broken stream are refused with 503', async (t) => {
  let hits = 0;
  const upstream = await startUpstream(t, (_req, res) => { hits++; res.end('through'); });
  const agent = await startTestAgent(t, () => ({ ...DENY, delayMs: 5000 }));
  const { base, registry } = await startTestTap(t, upstream, agent.address, { checkTimeoutMs: 3000, failClosed: true });
  const held = send(`${base}/held`);
  while (agent.requests.length < 1) await sleep(5);
  agent.breakStreams(status.INTERNAL, 'broken');
  const reply = await held;
  assert.equal(reply.status, 503);
  assert.equal(reply.headers['retry-after'], '1');
  assert.equal(hits, 0);
  assert.equal(await metricValue(registry, 'tap_fail_open_total', { reason: 'error' }), 1);
  assert.equal(await metricValue(registry, 'tap_requests_total', { decision: 'fail_closed' }), 1);
});

test('an answer refused on the stream (RESOURCE_EXHAUSTED for its id) counts as error; the stream goes on', async (t) => {
  const upstream = await startUpstream(t, (_req, res) => res.end('through'));
  const agent = await startTestAgent(t, (r) => (r.request.path === '/busy' ? { error: { code: status.RESOURCE_EXHAUSTED, message: 'too many' } } : DENY));
  const { base, registry } = await startTestTap(t, upstream, agent.address);
  assert.equal((await send(`${base}/busy`)).status, 200);
  assert.equal((await send(`${base}/x`)).status, 429);
  assert.equal(await metricValue(registry, 'tap_fail_open_total', { reason: 'error' }), 1);
  assert.equal(agent.calls.streams, 1);
});
