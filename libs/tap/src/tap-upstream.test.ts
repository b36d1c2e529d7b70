import assert from 'node:assert/strict';
import http from 'node:http';
import { test } from 'node:test';
import { metricValue, send, startTestAgent, startTestTap, startUpstream } from './testing/fixture.js';

test('a workload that is down: 502 in the gateway error shape, counted', async (t) => {
  const upstream = await startUpstream(t, (_req, res) => res.end());
  const agent = await startTestAgent(t);
  const { base, registry } = await startTestTap(t, upstream, agent.address);
  await new Promise((resolve) => upstream.server.close(resolve));
  const reply = await send(`${base}/`);
  assert.equal(reply.status, 502);
  assert.deepEqual(JSON.parse(reply.text), { code: 14, message: 'the workload is unreachable', details: [] });
  assert.equal(await metricValue(registry, 'tap_upstream_errors_total', { reason: 'connect' }), 1);
});

test('a workload that does not answer in time: 504, counted', async (t) => {
  const upstream = await startUpstream(t, () => { /* never answers */ });
  const agent = await startTestAgent(t);
  const { base, registry } = await startTestTap(t, upstream, agent.address, { upstreamTimeoutMs: 200 });
  const started = Date.now();
  const reply = await send(`${base}/`);
  assert.equal(reply.status, 504);
  assert.equal(JSON.parse(reply.text).code, 4);
  assert.ok(Date.now() - started < 3000);
  assert.equal(await metricValue(registry, 'tap_upstream_errors_total', { reason: 'timeout' }), 1);
});

test('a client that goes away mid-request: the request to the workload is aborted too', async (t) => {
  let upstreamClosed: () => void = () => {};
  const closedEarly = new Promise<void>((resolve) => { upstreamClosed = resolve; });
  let started: () => void = () => {};
  const reached = new Promise<void>((resolve) => { started = resolve; });
  const upstream = await startUpstream(t, (req, res) => {
    started();
    res.on('close', () => { if (!res.writableFinished) upstreamClosed(); });
  });
  const agent = await startTestAgent(t);
  const { base } = await startTestTap(t, upstream, agent.address);
  const req = http.request(`${base}/slow`, { agent: false });
  req.on('error', () => {});
  req.end();
  await reached;
  req.destroy();
  await closedEarly; // resolves only if the tap closed its side towards the workload
  assert.ok(true);
});

test('a workload that resets mid-response: the client connection is cut, not left hanging', async (t) => {
  const upstream = await startUpstream(t, (_req, res) => {
    res.writeHead(200, { 'content-length': '100' });
    res.write('partial');
    setTimeout(() => res.socket?.destroy(), 20);
  });
  const agent = await startTestAgent(t);
  const { base } = await startTestTap(t, upstream, agent.address);
  const outcome = await new Promise<string>((resolve) => {
    const req = http.get(`${base}/`, { agent: false }, (res) => {
      res.on('data', () => {});
      res.on('end', () => resolve('end'));
      res.on('error', () => resolve('error'));
      res.on('aborted', () => resolve('aborted'));
    });
    req.on('error', () => resolve('error'));
  });
  assert.notEqual(outcome, 'end');
});

test('a request reset on a reused keep-alive connection before any answer is retried once when idempotent', async (t) => {
  const perSocket = new WeakMap<object, number>();
  let posts = 0;
  const upstream = await startUpstream(t, (req, res) => {
    const n = (perSocket.get(req.socket) ?? 0) + 1;
    perSocket.set(req.socket, n);
    // The second request on a connection, and every POST, is dropped unanswered, as a workload closing an idle connection would.
    if (req.method === 'POST') posts++;
    if (n === 2 || req.method === 'POST') {
      req.socket.destroy();
      return;
    }
    res.end(`answer on connection ${upstream.connections}`);
  });
  const agent = await startTestAgent(t);
  const { base, registry } = await startTestTap(t, upstream, agent.address);
  assert.equal((await send(`${base}/a`)).text, 'answer on connection 1');
  const second = await send(`${base}/b`);
  assert.equal(second.status, 200);
  assert.equal(second.text, 'answer on connection 2');
  assert.equal(await metricValue(registry, 'tap_upstream_errors_total'), 0);
  // Not a POST (the workload may have acted on it): it is answered 502, and the workload saw it once.
  for (const body of ['x', 'y'.repeat(20_000)]) {
    posts = 0;
    const third = await send(`${base}/c`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body });
    assert.equal(third.status, 502);
    assert.equal(posts, 1);
  }
  assert.equal(await metricValue(registry, 'tap_upstream_errors_total', { reason: 'reset' }), 2);
});

test('a 103 from the workload: its hints reach the client, and a malformed Link is dropped without harm', async (t) => {
  const upstream = await startUpstream(t, (req, res) => {
    const link = req.url === '/bad' ? 'not a link' : '</style.css>; rel=preload; as=style';
    res.socket?.write(`HTTP/1.1 103 Early Hints\r\nLink: ${link}\r\n\r\n`);
    res.end('done');
  });
  const agent = await startTestAgent(t);
  const { base } = await startTestTap(t, upstream, agent.address);
  const hints: string[] = [];
  const get = (path: string): Promise<string> => new Promise((resolve, reject) => {
    const req = http.get(`${base}${path}`, { agent: false }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => { text += c.toString(); });
      res.on('end', () => resolve(`${res.statusCode} ${text}`));
    });
    req.on('information', (info) => { if (info.statusCode === 103) hints.push(String(info.headers.link)); });
    req.on('error', reject);
  });
  assert.equal(await get('/good'), '200 done');
  assert.deepEqual(hints, ['</style.css>; rel=preload; as=style']);
  assert.equal(await get('/bad'), '200 done');
  assert.equal(await get('/good'), '200 done');
  assert.equal(hints.length, 2);
});
