import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import { test } from 'node:test';
import { metricValue, readAll, send, startTestAgent, startTestTap, startUpstream } from './testing/fixture.js';

test('a denial is answered with its status, Retry-After, headers and body; the workload sees nothing', async (t) => {
  let upstreamHits = 0;
  const upstream = await startUpstream(t, (_req, res) => { upstreamHits++; res.end('ok'); });
  const agent = await startTestAgent(t, () => ({
    response: { http_response: 'denied_response', denied_response: { status: 429, headers: [{ key: 'Retry-After', value: '3' }, { key: 'x-sluice-reason', value: 'RATE_LIMITED' }], body: 'slow down' } },
  }));
  const { base, registry } = await startTestTap(t, upstream, agent.address);
  const keepAlive = new http.Agent({ keepAlive: true, maxSockets: 1 });
  t.after(() => keepAlive.destroy());
  const reply = await send(`${base}/limited`, { agent: keepAlive });
  assert.equal(reply.status, 429);
  assert.equal(reply.headers['retry-after'], '3');
  assert.equal(reply.headers['x-sluice-reason'], 'RATE_LIMITED');
  assert.equal(reply.headers['content-type'], 'text/plain; charset=utf-8');
  assert.equal(reply.text, 'slow down');
  assert.equal(reply.headers.connection, 'keep-alive', 'a denial of a bodiless request keeps the connection');
  assert.equal(upstreamHits, 0);
  assert.equal(await metricValue(registry, 'tap_requests_total', { decision: 'rejected' }), 1);
});

test('a denial without Retry-After gets one from the wait time, rounded up', async (t) => {
  const upstream = await startUpstream(t, (_req, res) => res.end('ok'));
  const agent = await startTestAgent(t, () => ({
    response: {
      http_response: 'denied_response',
      denied_response: { status: 503, headers: [], body: '' },
      check_response: { decision_type: 'DECISION_TYPE_REJECTED', reject_reason: 'REJECT_REASON_NO_TOKENS', wait_time: { seconds: 1, nanos: 200_000_000 } },
    },
  }));
  const { base } = await startTestTap(t, upstream, agent.address);
  const reply = await send(`${base}/`);
  assert.equal(reply.status, 503);
  assert.equal(reply.headers['retry-after'], '2');
});

test('headers of the ok answer are added to the request to the workload', async (t) => {
  let seen: http.IncomingHttpHeaders = {};
  const upstream = await startUpstream(t, (req, res) => { seen = req.headers; res.end('ok'); });
  const agent = await startTestAgent(t, () => ({
    response: { http_response: 'ok_response', ok_response: { headers: [{ key: 'baggage', value: 'user_tier=gold' }, { key: 'X-Flow-Id', value: 'f1' }] } },
  }));
  const { base } = await startTestTap(t, upstream, agent.address);
  const reply = await send(`${base}/`, { headers: { baggage: 'old=1' } });
  assert.equal(reply.status, 200);
  assert.equal(seen.baggage, 'user_tier=gold');
  assert.equal(seen['x-flow-id'], 'f1');
});

test('the body sent to the agent is bounded; the workload receives all of it', async (t) => {
  let atWorkload = '';
  const upstream = await startUpstream(t, async (req, res) => { atWorkload = (await readAll(req)).toString(); res.end('ok'); });
  const agent = await startTestAgent(t);
  const { base } = await startTestTap(t, upstream, agent.address);
  const body = JSON.stringify({ items: 'é'.repeat(10_000) }); // 2-byte characters: the cut falls mid-character
  const reply = await send(`${base}/big-json`, { method: 'POST', headers: { 'content-type': 'application/json; charset=utf-8' }, body });
  assert.equal(reply.status, 200);
  assert.equal(atWorkload, body);
  const r = agent.requests[0];
  assert.ok(r);
  assert.ok(Buffer.byteLength(r.request.body) <= 8192, `agent saw ${Buffer.byteLength(r.request.body)} bytes`);
  assert.ok(Buffer.byteLength(r.request.body) >= 8190);
  assert.ok(body.startsWith(r.request.body), 'the sample is a prefix of the body, without a broken character');
  assert.equal(r.request.truncated_body, true);
  assert.equal(r.request.size, Buffer.byteLength(body));
});

test('a custom bound and a form body; a body that fits is not truncated', async (t) => {
  const upstream = await startUpstream(t, async (req, res) => { res.end(await readAll(req)); });
  const agent = await startTestAgent(t);
  const { base } = await startTestTap(t, upstream, agent.address, { bodyBytes: 16 });
  const a = await send(`${base}/f`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'a=1&b=2' });
  const b = await send(`${base}/f`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x'.repeat(40) });
  assert.equal(a.text, 'a=1&b=2');
  assert.equal(b.text, 'x'.repeat(40));
  assert.equal(agent.requests[0]?.request.body, 'a=1&b=2');
  assert.equal(agent.requests[0]?.request.truncated_body, false);
  assert.equal(agent.requests[1]?.request.body, 'x'.repeat(16));
  assert.equal(agent.requests[1]?.request.truncated_body, true);
});

test('a binary body is not waited for: the agent is asked as soon as the headers arrive', async (t) => {
  let atWorkload = '';
  const upstream = await startUpstream(t, async (req, res) => { atWorkload = (await readAll(req)).toString(); res.end('ok'); });
  let asked: () => void = () => {};
  const wasAsked = new Promise<void>((resolve) => { asked = resolve; });
  const agent = await startTestAgent(t, () => { asked(); return { response: { ok_response: { headers: [] } } }; });
  const { base } = await startTestTap(t, upstream, agent.address);
  const reply = await new Promise<string>((resolve, reject) => {
    const req = http.request(`${base}/bin`, { method: 'POST', headers: { 'content-type': 'application/octet-stream', 'content-length': '10' }, agent: false }, (res) => {
      readAll(res).then((b) => resolve(b.toString()), reject);
    });
    req.on('error', reject);
    req.flushHeaders();
    void wasAsked.then(() => req.end('0123456789')); // the body only once the agent was asked
  });
  assert.equal(reply, 'ok');
  assert.equal(atWorkload, '0123456789');
  assert.equal(agent.requests[0]?.request.body, '');
  assert.equal(agent.requests[0]?.request.truncated_body, true);
});

test('Expect: 100-continue: the 100 comes once the request is let through; a denial closes without reading the body', async (t) => {
  let atWorkload = '';
  const upstream = await startUpstream(t, async (req, res) => { atWorkload = (await readAll(req)).toString(); res.end('stored'); });
  let deny = false;
  const agent = await startTestAgent(t, () => (deny
    ? { response: { http_response: 'denied_response', denied_response: { status: 429, headers: [{ key: 'retry-after', value: '1' }], body: 'no' } } }
    : { response: { ok_response: { headers: [] } } }));
  const { base } = await startTestTap(t, upstream, agent.address);

  const ok = await new Promise<{ status: number; continued: boolean; body: string }>((resolve, reject) => {
    let continued = false;
    const req = http.request(`${base}/put`, { method: 'PUT', headers: { expect: '100-continue', 'content-type': 'application/json', 'content-length': '7' }, agent: false });
    req.on('continue', () => { continued = true; req.end('{"a":1}'); });
    req.on('response', (res) => readAll(res).then((b) => resolve({ status: res.statusCode ?? 0, continued, body: b.toString() }), reject));
    req.on('error', reject);
    req.flushHeaders();
  });
  assert.deepEqual(ok, { status: 200, continued: true, body: 'stored' });
  assert.equal(atWorkload, '{"a":1}');

  deny = true;
  const denied = await new Promise<{ status: number; continued: boolean; connection?: string }>((resolve, reject) => {
    let continued = false;
    const req = http.request(`${base}/put`, { method: 'PUT', headers: { expect: '100-continue', 'content-type': 'application/json', 'content-length': '7' }, agent: false });
    req.on('continue', () => { continued = true; req.end('{"a":1}'); });
    req.on('response', (res) => readAll(res).then(() => resolve({ status: res.statusCode ?? 0, continued, connection: res.headers.connection }), reject));
    req.on('error', reject);
    req.flushHeaders();
  });
  assert.deepEqual(denied, { status: 429, continued: false, connection: 'close' });
});

test('an unknown status from the agent becomes 403; HTTP/1.0 clients are served', async (t) => {
  const upstream = await startUpstream(t, (_req, res) => res.end('ok'));
  const agent = await startTestAgent(t, () => ({ response: { http_response: 'denied_response', denied_response: { status: 0, headers: [], body: '' } } }));
  const { tap } = await startTestTap(t, upstream, agent.address);
  const socket = net.connect(tap.address.port, '127.0.0.1');
  t.after(() => socket.destroy());
  let raw = '';
  socket.on('data', (d: Buffer) => { raw += d.toString(); });
  socket.write('GET / HTTP/1.0\r\n\r\n');
  await new Promise((resolve) => socket.once('end', resolve));
  assert.match(raw, /^HTTP\/1\.1 403 /);
  assert.equal(agent.requests[0]?.request.protocol, 'HTTP/1.0');
});
