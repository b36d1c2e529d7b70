import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import { test } from 'node:test';
import { metricValue, readAll, send, startTestAgent, startTestTap, startUpstream } from './testing/fixture.js';

test('forwards method, path with query, end-to-end headers and body; adds X-Forwarded-*', async (t) => {
  let seen: { method?: string; url?: string; headers: http.IncomingHttpHeaders; body: string } | undefined;
  const upstream = await startUpstream(t, async (req, res) => {
    seen = { method: req.method, url: req.url, headers: req.headers, body: (await readAll(req)).toString() };
    res.writeHead(201, { 'x-from': 'workload', 'content-type': 'text/plain' });
    res.end('made');
  });
  const agent = await startTestAgent(t);
  const { base, registry } = await startTestTap(t, upstream, agent.address);

  const reply = await send(`${base}/orders/7?x=1&y=two`, {
    method: 'PUT',
    headers: { 'content-type': 'application/octet-stream', 'x-custom': 'abc', 'keep-alive': 'timeout=5', 'proxy-authorization': 'Basic eA==', 'x-hop': '1', connection: 'x-hop' },
    body: 'payload',
  });
  assert.equal(reply.status, 201);
  assert.equal(reply.text, 'made');
  assert.equal(reply.headers['x-from'], 'workload');
  assert.ok(seen);
  assert.equal(seen.method, 'PUT');
  assert.equal(seen.url, '/orders/7?x=1&y=two');
  assert.equal(seen.body, 'payload');
  assert.equal(seen.headers['x-custom'], 'abc');
  assert.equal(seen.headers['content-length'], '7');
  assert.equal(seen.headers['x-forwarded-for'], '127.0.0.1');
  assert.equal(seen.headers['x-forwarded-proto'], 'http');
  assert.equal(seen.headers['x-forwarded-host'], `127.0.0.1:${new URL(base).port}`);
  assert.equal(seen.headers.host, `127.0.0.1:${new URL(base).port}`, 'the client Host is kept');
  assert.equal(seen.headers['proxy-authorization'], undefined);
  assert.equal(seen.headers['x-hop'], undefined, 'a header named by Connection is hop-by-hop');
  assert.equal(await metricValue(registry, 'tap_requests_total', { decision: 'accepted' }), 1);
  assert.equal(await metricValue(registry, 'tap_check_duration_seconds_count'), 1);
});

test('the agent receives the request attributes', async (t) => {
  const upstream = await startUpstream(t, (_req, res) => res.end('ok'));
  const agent = await startTestAgent(t);
  const { base, tap } = await startTestTap(t, upstream, agent.address, { controlPoint: 'checkout' });

  // Raw request: two X-Multi headers and a mixed-case name.
  const socket = net.connect(tap.address.port, '127.0.0.1');
  t.after(() => socket.destroy());
  await new Promise<void>((resolve) => socket.once('connect', resolve));
  const localPort = socket.localPort;
  socket.write('POST /api/items?id=3 HTTP/1.1\r\nHost: shop.example:80\r\nX-Multi: a\r\nx-multi: b\r\nUser-AGENT: t\r\nContent-Type: application/json\r\nContent-Length: 9\r\nConnection: close\r\n\r\n{"a":"b"}');
  let raw = '';
  socket.on('data', (d: Buffer) => { raw += d.toString(); });
  await new Promise((resolve) => socket.once('end', resolve));
  assert.match(raw, /^HTTP\/1\.1 200 /);

  assert.equal(agent.requests.length, 1);
  const r = agent.requests[0];
  assert.ok(r);
  assert.equal(r.control_point, 'checkout');
  assert.deepEqual(r.source, { protocol: 'TCP', address: '127.0.0.1', port: localPort });
  assert.deepEqual(r.destination, { protocol: 'TCP', address: '127.0.0.1', port: Number(new URL(base).port) });
  assert.equal(r.request.method, 'POST');
  assert.equal(r.request.path, '/api/items?id=3');
  assert.equal(r.request.host, 'shop.example:80');
  assert.equal(r.request.scheme, 'http');
  assert.equal(r.request.protocol, 'HTTP/1.1');
  assert.equal(r.request.size, 9);
  assert.equal(r.request.headers['x-multi'], 'a, b');
  assert.equal(r.request.headers['user-agent'], 't');
  assert.equal(r.request.body, '{"a":"b"}');
  assert.equal(r.request.truncated_body, false);
});

test('keep-alive: client connections and upstream connections are reused', async (t) => {
  const upstream = await startUpstream(t, (_req, res) => res.end('ok'));
  const agent = await startTestAgent(t);
  const { base, tap } = await startTestTap(t, upstream, agent.address);
  let clientConnections = 0;
  const counting = new http.Agent({ keepAlive: true, maxSockets: 1 });
  t.after(() => counting.destroy());
  // Count the tap's accepted connections by the client's sockets.
  const seenSockets = new Set<net.Socket>();
  for (let i = 0; i < 5; i++) {
    const reply = await new Promise<http.IncomingMessage>((resolve, reject) => {
      const req = http.get(`${base}/r${i}`, { agent: counting }, resolve);
      req.on('socket', (s) => { if (!seenSockets.has(s)) { seenSockets.add(s); clientConnections++; } });
      req.on('error', reject);
    });
    assert.equal(reply.statusCode, 200);
    assert.equal(reply.headers.connection, 'keep-alive');
    await readAll(reply);
  }
  assert.equal(clientConnections, 1, 'one client connection for five requests');
  assert.equal(upstream.connections, 1, 'one upstream connection for five requests');
  assert.ok(tap.address.port > 0);
});

test('response headers: hop-by-hop ones from the workload are dropped', async (t) => {
  const upstream = await startUpstream(t, (_req, res) => {
    res.writeHead(200, { 'keep-alive': 'timeout=1', 'x-secret-hop': 'no', connection: 'x-secret-hop', 'x-app': 'yes', 'content-length': '2' });
    res.end('ok');
  });
  const agent = await startTestAgent(t);
  const { base } = await startTestTap(t, upstream, agent.address);
  const reply = await send(`${base}/`);
  assert.equal(reply.headers['x-app'], 'yes');
  assert.equal(reply.headers['x-secret-hop'], undefined);
  assert.notEqual(reply.headers['keep-alive'], 'timeout=1');
  assert.equal(reply.text, 'ok');
});

test('HEAD and 204/304 answers carry no body and keep the connection usable', async (t) => {
  const upstream = await startUpstream(t, (req, res) => {
    if (req.url === '/empty') { res.writeHead(204); res.end(); return; }
    if (req.url === '/cached') { res.writeHead(304, { etag: '"v1"' }); res.end(); return; }
    res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '5' });
    res.end(req.method === 'HEAD' ? undefined : 'hello');
  });
  const agent = await startTestAgent(t);
  const { base } = await startTestTap(t, upstream, agent.address);
  const keepAlive = new http.Agent({ keepAlive: true, maxSockets: 1 });
  t.after(() => keepAlive.destroy());
  const head = await send(`${base}/doc`, { method: 'HEAD', agent: keepAlive });
  assert.equal(head.status, 200);
  assert.equal(head.headers['content-length'], '5');
  assert.equal(head.body.length, 0);
  assert.equal((await send(`${base}/empty`, { agent: keepAlive })).status, 204);
  const cached = await send(`${base}/cached`, { agent: keepAlive, headers: { 'if-none-match': '"v1"' } });
  assert.equal(cached.status, 304);
  assert.equal(cached.headers.etag, '"v1"');
  assert.equal((await send(`${base}/doc`, { agent: keepAlive })).text, 'hello');
  assert.equal(upstream.connections, 1);
});
