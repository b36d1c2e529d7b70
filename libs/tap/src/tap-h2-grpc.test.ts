import assert from 'node:assert/strict';
import http2 from 'node:http2';
import net from 'node:net';
import { test, type TestContext } from 'node:test';
import * as grpc from '@grpc/grpc-js';
import { ACCEPT, type CannedAnswer } from './testing/canned-agent.js';
import { metricValue, send, startTestAgent, startTestTap, startUpstream } from './testing/fixture.js';
import { echoClient, startEchoServer, unary, type EchoClient } from './testing/grpc-echo.js';
import type { CheckHTTPRequest } from './check/types.js';
import type { TapOptions } from './options.js';

async function setup(t: TestContext, answer: (r: CheckHTTPRequest) => CannedAnswer = () => ACCEPT, overrides: Partial<TapOptions> = {}) {
  const echo = await startEchoServer();
  t.after(() => echo.close());
  const agent = await startTestAgent(t, answer);
  const { tap, registry } = await startTestTap(t, { port: echo.port }, agent.address, { upstreamProtocol: 'h2c', ...overrides });
  const client = echoClient(`127.0.0.1:${tap.address.port}`);
  t.after(() => client.close());
  return { echo, agent, tap, registry, client };
}

/** The tap's port, from the client's target. */
function tapPort(client: EchoClient): number {
  return Number(client.getChannel().getTarget().split(':').at(-1));
}

function collect(stream: grpc.ClientReadableStream<Buffer> | grpc.ClientDuplexStream<Buffer, Buffer>): Promise<{ messages: string[]; status: grpc.StatusObject }> {
  return new Promise((resolve) => {
    const messages: string[] = [];
    stream.on('data', (m: Buffer) => messages.push(m.toString()));
    stream.on('error', () => undefined);
    stream.on('status', (status: grpc.StatusObject) => resolve({ messages, status }));
  });
}

test('gRPC through the tap: unary, server streaming and bidi pass with their trailers; the check carries the call', async (t) => {
  const { echo, agent, client, registry, tap } = await setup(t);
  const r = await unary(client, 'Unary', 'hello');
  assert.equal(r.error, undefined);
  assert.equal(r.value?.toString(), 'hello');
  assert.deepEqual(r.trailers?.get('x-echo-trailer'), ['done']);

  const counted = await collect(client.Count(Buffer.from('5')));
  assert.deepEqual(counted.messages, ['0', '1', '2', '3', '4']);
  assert.equal(counted.status.code, grpc.status.OK);
  assert.deepEqual(counted.status.metadata.get('x-echo-trailer'), ['done']);

  const joined = await new Promise<{ err: grpc.ServiceError | null; value?: Buffer }>((resolve) => {
    const up = client.Join((err, value) => resolve({ err, ...(value === undefined ? {} : { value }) }));
    for (const part of ['x', 'y', 'z']) up.write(Buffer.from(part));
    up.end();
  });
  assert.equal(joined.err, null);
  assert.equal(joined.value?.toString(), 'x+y+z', 'client streaming');

  const bidi = client.Bidi();
  const answers = collect(bidi);
  for (const word of ['a', 'bc', 'def']) bidi.write(Buffer.from(word));
  bidi.end();
  const b = await answers;
  assert.deepEqual(b.messages, ['A', 'BC', 'DEF']);
  assert.equal(b.status.code, grpc.status.OK);

  const md = new grpc.Metadata();
  md.set('fail', '9');
  const workloadError = await unary(client, 'Unary', 'x', { metadata: md });
  assert.equal(workloadError.error?.code, 9, 'the workload\'s own status is relayed');
  assert.match(workloadError.error?.details ?? '', /failed as asked/);
  assert.deepEqual(workloadError.trailers?.get('x-echo-trailer'), ['done']);

  assert.deepEqual(echo.calls, { Unary: 2, Slow: 0, Count: 1, Join: 1, Bidi: 1 });
  const first = agent.requests[0] as CheckHTTPRequest;
  assert.equal(first.request.protocol, 'HTTP/2.0');
  assert.equal(first.request.method, 'POST');
  assert.equal(first.request.path, '/sluice.test.Echo/Unary');
  assert.equal(first.request.headers['content-type'], 'application/grpc');
  assert.equal(first.request.host, `127.0.0.1:${tap.address.port}`);
  assert.equal(Object.keys(first.request.headers).some((k) => k.startsWith(':')), false, 'no pseudo-headers among the headers');
  assert.equal(await metricValue(registry, 'tap_requests_total', { decision: 'accepted' }), 5);
});

test('a gRPC denial is a status the client reads: RESOURCE_EXHAUSTED with pushback, UNAVAILABLE for no tokens; never reaches the workload', async (t) => {
  const { echo, client, registry } = await setup(t, (r) => {
    if (r.request.headers['x-tier'] === 'free') {
      return { response: { http_response: 'denied_response', denied_response: { status: 429, headers: [{ key: 'retry-after', value: '2' }], body: JSON.stringify({ code: 8, message: 'rate limited', details: [] }) }, check_response: { wait_time: { seconds: 1, nanos: 250_000_000 } } as never } };
    }
    if (r.request.headers['x-tier'] === 'batch') {
      return { response: { http_response: 'denied_response', denied_response: { status: 503, headers: [{ key: 'retry-after', value: '4' }], body: 'no tokens' } } };
    }
    return ACCEPT;
  });
  const md = (tier: string): grpc.Metadata => {
    const m = new grpc.Metadata();
    m.set('x-tier', tier);
    return m;
  };
  const limited = await unary(client, 'Unary', 'x', { metadata: md('free') });
  assert.equal(limited.error?.code, grpc.status.RESOURCE_EXHAUSTED);
  assert.equal(limited.error?.details, 'rate limited');
  assert.deepEqual(limited.trailers?.get('grpc-retry-pushback-ms'), ['1250']);
  const noTokens = await unary(client, 'Unary', 'x', { metadata: md('batch') });
  assert.equal(noTokens.error?.code, grpc.status.UNAVAILABLE);
  assert.equal(noTokens.error?.details, 'no tokens');
  assert.deepEqual(noTokens.trailers?.get('grpc-retry-pushback-ms'), ['4000']);
  assert.equal(echo.calls.Unary, 0);
  assert.equal((await unary(client, 'Unary', 'ok', { metadata: md('gold') })).value?.toString(), 'ok');
  assert.equal(await metricValue(registry, 'tap_requests_total', { decision: 'rejected' }), 2);
});

/** One gRPC call over node:http2 with a grpc-timeout and no deadline of the client's own: what the tap answers, and when. */
function rawCall(port: number, path: string, body: string, grpcTimeout: string): Promise<{ headers: http2.IncomingHttpHeaders; trailers: http2.IncomingHttpHeaders; ms: number }> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const session = http2.connect(`http://127.0.0.1:${port}`);
    session.on('error', reject);
    const s = session.request({ ':method': 'POST', ':path': path, 'content-type': 'application/grpc', te: 'trailers', 'grpc-timeout': grpcTimeout });
    let headers: http2.IncomingHttpHeaders = {};
    let trailers: http2.IncomingHttpHeaders = {};
    s.on('response', (h) => { headers = h; });
    s.on('trailers', (h) => { trailers = h; });
    s.resume();
    s.on('error', reject);
    s.on('close', () => {
      session.close();
      resolve({ headers, trailers, ms: Date.now() - started });
    });
    const msg = Buffer.from(body);
    const frame = Buffer.alloc(5 + msg.length);
    frame.writeUInt32BE(msg.length, 1);
    msg.copy(frame, 5);
    s.end(frame);
  });
}

test('the check waits no longer than the call\'s deadline: the tap answers DEADLINE_EXCEEDED at it, the workload never called', async (t) => {
  const { echo, tap } = await setup(t, () => ({ ...ACCEPT, delayMs: 3000 }), { checkTimeoutMs: 5000 });
  const r = await rawCall(tap.address.port, '/sluice.test.Echo/Unary', 'x', '300m');
  assert.equal(r.headers[':status'], 200);
  assert.equal(r.headers['grpc-status'], '4', 'trailers-only DEADLINE_EXCEEDED');
  assert.ok(r.ms >= 250 && r.ms < 2500, `answered at the deadline, not after the agent (${r.ms} ms)`);
  assert.equal(echo.calls.Unary, 0);
  const malformed = await rawCall(tap.address.port, '/sluice.test.Echo/Unary', 'x', '5 seconds');
  assert.equal(malformed.headers['grpc-status'], '3');
});

test('the workload is sent what is left of the deadline; a slow workload is ended at it with DEADLINE_EXCEEDED', async (t) => {
  const { echo, client, tap } = await setup(t);
  assert.equal((await unary(client, 'Slow', '10', { deadlineMs: 5000 })).value?.toString(), '10');
  const left = echo.lastDeadlineLeftMs();
  assert.ok(left !== undefined && left > 3000 && left <= 5000, `the workload's deadline: ${String(left)} ms left`);
  const slow = await rawCall(tap.address.port, '/sluice.test.Echo/Slow', '3000', '400m');
  assert.equal(slow.headers['grpc-status'] ?? slow.trailers['grpc-status'], '4');
  assert.ok(slow.ms < 2500, `ended at the deadline (${slow.ms} ms)`);
  assert.equal(echo.calls.Slow, 2);
});

test('a measured flow ends when the call does: FlowEnd with the status and the duration', async (t) => {
  const { agent, client } = await setup(t, () => ({ response: { http_response: 'ok_response', ok_response: { headers: [] }, flow_id: 'flow-1', check_response: { expect_end: true } as never } }));
  assert.equal((await unary(client, 'Slow', '50')).value?.toString(), '50');
  const deadline = Date.now() + 5000;
  while (agent.flowEnds.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  assert.equal(agent.flowEnds.length, 1);
  const end = agent.flowEnds[0];
  assert.equal(end?.flow_id, 'flow-1');
  assert.equal(end?.status_code, 200);
  const ms = Number(end?.duration?.seconds ?? 0) * 1000 + (end?.duration?.nanos ?? 0) / 1e6;
  assert.ok(ms >= 50 && ms < 3000, `duration ${ms} ms`);
});

test('garbage after the HTTP/2 preface, or a preface cut short, ends that connection only', async (t) => {
  const { client } = await setup(t);
  const closes = (bytes: Buffer[], end = false): Promise<boolean> => new Promise((resolve, reject) => {
    const socket = net.connect(tapPort(client), '127.0.0.1');
    const timer = setTimeout(() => { socket.destroy(); reject(new Error('the connection was left open')); }, 10_000);
    socket.on('error', () => undefined);
    socket.on('data', () => undefined);
    socket.on('close', () => { clearTimeout(timer); resolve(true); });
    socket.on('connect', () => {
      for (const b of bytes) socket.write(b);
      if (end) socket.end();
    });
  });
  const preface = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 'latin1');
  assert.equal(await closes([preface, Buffer.from('this is not a frame at all, not even close \x00\xff\xff')]), true);
  assert.equal(await closes([preface, Buffer.from([0, 0, 4, 0xff, 0, 0, 0, 0, 1, 1, 2, 3, 4])]), true, 'a frame on stream 1 before SETTINGS');
  assert.equal(await closes([preface.subarray(0, 10)], true), true, 'a preface cut short, then the end');
  assert.equal((await unary(client, 'Unary', 'still here')).value?.toString(), 'still here');
});

test('fail-closed without an agent: UNAVAILABLE with pushback; fail-open: the call goes through', async (t) => {
  const echo = await startEchoServer();
  t.after(() => echo.close());
  const closed = await startTestTap(t, { port: echo.port }, '127.0.0.1:1', { upstreamProtocol: 'h2c', failClosed: true, checkTimeoutMs: 200 });
  const c1 = echoClient(`127.0.0.1:${closed.tap.address.port}`);
  t.after(() => c1.close());
  const refused = await unary(c1, 'Unary', 'x');
  assert.equal(refused.error?.code, grpc.status.UNAVAILABLE);
  assert.deepEqual(refused.trailers?.get('grpc-retry-pushback-ms'), ['1000']);
  const open = await startTestTap(t, { port: echo.port }, '127.0.0.1:1', { upstreamProtocol: 'h2c', checkTimeoutMs: 200 });
  const c2 = echoClient(`127.0.0.1:${open.tap.address.port}`);
  t.after(() => c2.close());
  assert.equal((await unary(c2, 'Unary', 'through')).value?.toString(), 'through');
  assert.equal(await metricValue(open.registry, 'tap_requests_total', { decision: 'fail_open' }), 1);
});

test('HTTP/1.1 answers on the same port; an HTTP/2 tap to an HTTP/1.1 workload answers gRPC UNAVAILABLE', async (t) => {
  const upstream = await startUpstream(t, (_req, res) => res.end('h1'));
  const agent = await startTestAgent(t);
  const { base, tap } = await startTestTap(t, upstream, agent.address);
  assert.equal((await send(`${base}/x`)).text, 'h1');
  const client: EchoClient = echoClient(`127.0.0.1:${tap.address.port}`);
  t.after(() => client.close());
  const r = await unary(client, 'Unary', 'x');
  assert.equal(r.error?.code, grpc.status.UNAVAILABLE);
  assert.match(r.error?.details ?? '', /--upstream-protocol h2c/);
});

test('plain HTTP/2 requests: forwarded over h2c; a denial keeps its HTTP status', async (t) => {
  const seen: string[] = [];
  const workload = http2.createServer((req, res) => {
    seen.push(`${req.method} ${req.url} ${String(req.headers['x-forwarded-for'])}`);
    res.setHeader('x-from', 'workload');
    res.end(`h2 ${req.url}`);
  });
  const sessions = new Set<http2.ServerHttp2Session>();
  workload.on('session', (s) => sessions.add(s));
  await new Promise<void>((resolve) => workload.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise<void>((resolve) => {
    workload.close(() => resolve());
    for (const s of sessions) s.destroy();
  }));
  const agent = await startTestAgent(t, (r) => (r.request.path === '/limited'
    ? { response: { http_response: 'denied_response', denied_response: { status: 429, headers: [{ key: 'retry-after', value: '2' }], body: 'slow down' } } }
    : ACCEPT));
  const port = (workload.address() as import('node:net').AddressInfo).port;
  const { tap } = await startTestTap(t, { port }, agent.address, { upstreamProtocol: 'h2c' });
  const session = http2.connect(`http://127.0.0.1:${tap.address.port}`);
  t.after(() => session.close());
  const get = (path: string): Promise<{ status: number; headers: http2.IncomingHttpHeaders; text: string }> => new Promise((resolve, reject) => {
    const s = session.request({ ':path': path });
    let text = '';
    let head: http2.IncomingHttpHeaders = {};
    s.on('response', (h) => { head = h; });
    s.setEncoding('utf8');
    s.on('data', (c: string) => { text += c; });
    s.on('end', () => resolve({ status: Number(head[':status']), headers: head, text }));
    s.on('error', reject);
  });
  const ok = await get('/a/./b');
  assert.equal(ok.status, 200);
  assert.equal(ok.text, 'h2 /a/b', 'the target in normal form');
  assert.equal(ok.headers['x-from'], 'workload');
  const denied = await get('/limited');
  assert.equal(denied.status, 429);
  assert.equal(denied.headers['retry-after'], '2');
  assert.equal(denied.text, 'slow down');
  assert.equal((await get('/a/%2e%2e/%2e%2e/x')).status, 400);
  assert.deepEqual(seen, ['GET /a/b 127.0.0.1']);
  assert.equal(agent.requests[0]?.request.protocol, 'HTTP/2.0');
});
