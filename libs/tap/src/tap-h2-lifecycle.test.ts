import assert from 'node:assert/strict';
import http2 from 'node:http2';
import net from 'node:net';
import { test } from 'node:test';
import * as grpc from '@grpc/grpc-js';
import { metricValue, startTestAgent, startTestTap } from './testing/fixture.js';
import { echoClient, startEchoServer, unary } from './testing/grpc-echo.js';

/** One request over a fresh HTTP/2 connection; the answer's head (and trailers). */
function request(port: number, headers: http2.OutgoingHttpHeaders): Promise<{ head: http2.IncomingHttpHeaders; trailers: http2.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const session = http2.connect(`http://127.0.0.1:${port}`);
    session.on('error', reject);
    const s = session.request(headers, { endStream: true });
    let head: http2.IncomingHttpHeaders = {};
    let trailers: http2.IncomingHttpHeaders = {};
    s.on('response', (h) => { head = h; });
    s.on('trailers', (h) => { trailers = h; });
    s.resume();
    s.on('error', reject);
    s.on('close', () => {
      session.close();
      resolve({ head, trailers });
    });
  });
}

test('shutdown: a call under way finishes (GOAWAY lets it), then the tap is gone', async (t) => {
  const echo = await startEchoServer();
  t.after(() => echo.close());
  const agent = await startTestAgent(t);
  const { tap } = await startTestTap(t, { port: echo.port }, agent.address, { upstreamProtocol: 'h2c' });
  const client = echoClient(`127.0.0.1:${tap.address.port}`);
  t.after(() => client.close());
  const slow = unary(client, 'Slow', '400');
  const until = Date.now() + 5000;
  while (echo.calls.Slow === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
  assert.equal(echo.calls.Slow, 1, 'the call reached the workload');
  const stopped = tap.shutdown({ deadlineMs: 5000 });
  const r = await slow;
  assert.equal(r.error, undefined, r.error?.message);
  assert.equal(r.value?.toString(), '400');
  await stopped;
  const refused = await new Promise<boolean>((resolve) => {
    const s = net.connect(tap.address.port, '127.0.0.1');
    s.on('connect', () => { s.destroy(); resolve(false); });
    s.on('error', () => resolve(true));
  });
  assert.equal(refused, true, 'nothing listens after shutdown');
});

test('too many header fields: 431 for a plain request, INVALID_ARGUMENT for a gRPC call; nothing reaches the agent', async (t) => {
  const echo = await startEchoServer();
  t.after(() => echo.close());
  const agent = await startTestAgent(t);
  const { tap } = await startTestTap(t, { port: echo.port }, agent.address, { upstreamProtocol: 'h2c', maxRequestHeaders: 20 });
  const many: http2.OutgoingHttpHeaders = {};
  for (let i = 0; i < 25; i++) many[`x-h${i}`] = 'v';
  const plain = await request(tap.address.port, { ':path': '/x', ...many });
  assert.equal(plain.head[':status'], 431);
  const call = await request(tap.address.port, { ':method': 'POST', ':path': '/sluice.test.Echo/Unary', 'content-type': 'application/grpc', te: 'trailers', ...many });
  assert.equal(call.head[':status'], 200);
  assert.equal(call.head['grpc-status'], '3');
  assert.match(decodeURIComponent(String(call.head['grpc-message'])), /more than 20 header fields/);
  assert.equal(agent.requests.length, 0);
  assert.equal(echo.calls.Unary, 0);
});

test('the workload down: UNAVAILABLE to a gRPC call, counted as a connect error', async (t) => {
  const held = net.createServer();
  await new Promise<void>((resolve) => held.listen(0, '127.0.0.1', resolve));
  const port = (held.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => held.close(() => resolve()));
  const agent = await startTestAgent(t);
  const { tap, registry } = await startTestTap(t, { port }, agent.address, { upstreamProtocol: 'h2c' });
  const client = echoClient(`127.0.0.1:${tap.address.port}`);
  t.after(() => client.close());
  const r = await unary(client, 'Unary', 'x');
  assert.equal(r.error?.code, grpc.status.UNAVAILABLE);
  assert.match(r.error?.details ?? '', /unreachable/);
  assert.equal(await metricValue(registry, 'tap_upstream_errors_total', { reason: 'connect' }), 1);
});

test('large messages both ways, with HTTP/2 flow control: 3 MiB up and back, and a stream of 64 KiB messages', async (t) => {
  const echo = await startEchoServer();
  t.after(() => echo.close());
  const agent = await startTestAgent(t);
  const { tap } = await startTestTap(t, { port: echo.port }, agent.address, { upstreamProtocol: 'h2c' });
  const client = echoClient(`127.0.0.1:${tap.address.port}`);
  t.after(() => client.close());
  const big = Buffer.alloc(3 * 1024 * 1024, 'a').toString();
  const r = await unary(client, 'Unary', big);
  assert.equal(r.error, undefined, r.error?.message);
  assert.equal(r.value?.length, big.length);
  assert.equal(r.value?.equals(Buffer.from(big)), true);
  const bidi = client.Bidi();
  let received = 0;
  const done = new Promise<grpc.StatusObject>((resolve) => {
    bidi.on('data', (m: Buffer) => { received += m.length; });
    bidi.on('error', () => undefined);
    bidi.on('status', resolve);
  });
  const chunk = Buffer.alloc(64 * 1024, 'b');
  for (let i = 0; i < 64; i++) bidi.write(chunk);
  bidi.end();
  assert.equal((await done).code, grpc.status.OK);
  assert.equal(received, 64 * chunk.length);
});

test('a plain HTTP/2 JSON body is sampled for the check, and the workload gets all of it', async (t) => {
  const bodies: string[] = [];
  const workload = http2.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => { body += c; });
    req.on('end', () => {
      bodies.push(body);
      res.end('ok');
    });
  });
  const sessions = new Set<http2.ServerHttp2Session>();
  workload.on('session', (s) => sessions.add(s));
  await new Promise<void>((resolve) => workload.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise<void>((resolve) => {
    workload.close(() => resolve());
    for (const s of sessions) s.destroy();
  }));
  const agent = await startTestAgent(t);
  const { tap } = await startTestTap(t, { port: (workload.address() as net.AddressInfo).port }, agent.address, { upstreamProtocol: 'h2c', bodyBytes: 16 });
  const post = (body: string, type: string): Promise<string> => new Promise((resolve, reject) => {
    const session = http2.connect(`http://127.0.0.1:${tap.address.port}`);
    session.on('error', reject);
    const s = session.request({ ':method': 'POST', ':path': '/orders', 'content-type': type });
    let text = '';
    s.setEncoding('utf8');
    s.on('data', (c: string) => { text += c; });
    s.on('close', () => { session.close(); resolve(text); });
    s.on('error', reject);
    s.write(body.slice(0, 5));
    setTimeout(() => s.end(body.slice(5)), 20);
  });
  assert.equal(await post('{"user":"u1"}', 'application/json'), 'ok');
  assert.equal(await post('{"user":"u2","pad":"xxxxxxxxxxxxxxxxxxxxxxxx"}', 'application/json'), 'ok');
  assert.equal(await post('binary-bytes', 'application/octet-stream'), 'ok');
  assert.deepEqual(bodies, ['{"user":"u1"}', '{"user":"u2","pad":"xxxxxxxxxxxxxxxxxxxxxxxx"}', 'binary-bytes']);
  assert.deepEqual(agent.requests.map((r) => [r.request.body, r.request.truncated_body]), [
    ['{"user":"u1"}', false],
    ['{"user":"u2","pa', true],
    ['', true],
  ]);
});
