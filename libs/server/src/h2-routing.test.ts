import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import http2 from 'node:http2';
import * as grpc from '@grpc/grpc-js';
import { createTestPki } from './cert-support.js';
import { FLAG_ACK, FLAG_END_HEADERS, FLAG_END_STREAM, FrameType } from './h2-prelude.js';
import { CLIENT_PREFACE, ECHO_PATH, RawH2Client, echoCall, echoMessage, frame, getFields, headerBlock } from './h2-test-frames.js';
import { EchoClient, callEcho, defaultConfig, startEchoServer } from './test-support.js';

type T = { after: (fn: () => void | Promise<void>) => void };

function isSettings(f: { type: number; flags: number }): boolean {
  return f.type === FrameType.SETTINGS && (f.flags & FLAG_ACK) === 0;
}

async function rawClient(t: T, port: number): Promise<RawH2Client> {
  const c = await RawH2Client.connect(port);
  t.after(() => c.destroy());
  return c;
}

/** The DATA a raw client received on a stream, as text. */
function dataText(c: RawH2Client, stream: number): string {
  return Buffer.concat(c.ofType(FrameType.DATA).filter((f) => f.stream === stream).map((f) => f.payload)).toString('latin1');
}

function endOf(stream: number) {
  return (f: { type: number; flags: number; stream: number }): boolean =>
    f.stream === stream && (f.flags & FLAG_END_STREAM) !== 0 && (f.type === FrameType.HEADERS || f.type === FrameType.DATA);
}

test('a client that waits for the server SETTINGS gets them and its gRPC calls are served, its acknowledgement not replayed', async (t) => {
  const s = await startEchoServer(defaultConfig());
  t.after(() => s.server.shutdown({ deadlineMs: 1000 }));
  const c = await rawClient(t, s.port);
  c.write(CLIENT_PREFACE);
  const first = await c.waitFor(isSettings);
  assert.ok(first !== undefined, 'the server preface came while the client waited');
  assert.equal(first.payload.length, 0, 'our SETTINGS: every setting at its default');
  c.write(echoCall(1, 'raw one'));
  assert.ok(await c.waitFor(endOf(1)), 'the call ended');
  assert.match(dataText(c, 1), /raw one[\s\S]*echo/);
  // The chosen server sent its own SETTINGS, acknowledged by the client; had the first
  // acknowledgement been replayed, the second would be unexpected (GOAWAY PROTOCOL_ERROR).
  assert.ok(await c.waitFor((f) => isSettings(f) && f !== first), 'gRPC sent its own SETTINGS');
  c.write(echoCall(3, 'raw two'));
  assert.ok(await c.waitFor(endOf(3)), 'a second call on the same connection ended');
  assert.match(dataText(c, 3), /raw two/);
  assert.equal(c.ofType(FrameType.GOAWAY).length, 0);
  assert.equal(c.closed, false);
});

test('a first gRPC call of a new connection may carry a message far over the 64 KiB bound', async (t) => {
  const s = await startEchoServer(defaultConfig());
  t.after(() => s.server.shutdown({ deadlineMs: 1000 }));
  const client = new EchoClient(`127.0.0.1:${s.port}`, grpc.credentials.createInsecure());
  t.after(() => client.close());
  const big = 'x'.repeat(1 << 20);
  assert.equal((await callEcho(client, { message: big })).message.length, big.length);
});

test('a client that waits for the server SETTINGS and then asks an HTTP route is served by the HTTP routes', async (t) => {
  const s = await startEchoServer(defaultConfig());
  t.after(() => s.server.shutdown({ deadlineMs: 1000 }));
  const c = await rawClient(t, s.port);
  c.write(CLIENT_PREFACE);
  assert.ok(await c.waitFor(isSettings));
  c.write(frame(FrameType.HEADERS, FLAG_END_HEADERS | FLAG_END_STREAM, 1, headerBlock(getFields('/hello'))));
  assert.ok(await c.waitFor(endOf(1)));
  assert.equal(dataText(c, 1), '{"hello":"world"}');
  assert.equal(c.ofType(FrameType.GOAWAY).length, 0);
});

test('a connection idle after the SETTINGS exchange goes to gRPC, which serves its later calls', async (t) => {
  const s = await startEchoServer(defaultConfig());
  t.after(() => s.server.shutdown({ deadlineMs: 1000 }));
  const c = await rawClient(t, s.port);
  c.write(CLIENT_PREFACE);
  const ours = await c.waitFor(isSettings);
  // After the idle bound (1 s), gRPC has the connection: its own SETTINGS arrive unasked.
  assert.ok(await c.waitFor((f) => isSettings(f) && f !== ours, 5000), 'gRPC took the idle connection');
  c.write(echoCall(1, 'after idle'));
  assert.ok(await c.waitFor(endOf(1)));
  assert.match(dataText(c, 1), /after idle/);

  const client = new EchoClient(`127.0.0.1:${s.port}`, grpc.credentials.createInsecure());
  t.after(() => client.close());
  await new Promise<void>((resolve, reject) => client.waitForReady(Date.now() + 5000, (err) => (err ? reject(err) : resolve())));
  await new Promise((r) => setTimeout(r, 1300));
  assert.deepEqual(await callEcho(client, { message: 'ready early' }), { message: 'ready early', served_by: 'echo' });
});

interface Answer { headers: http2.IncomingHttpHeaders; trailers: http2.IncomingHttpHeaders; body: string }

function ask(session: http2.ClientHttp2Session, headers: http2.OutgoingHttpHeaders, body?: Buffer): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = session.request(headers);
    let answer: http2.IncomingHttpHeaders = {};
    let trailers: http2.IncomingHttpHeaders = {};
    let text = '';
    req.on('response', (h) => { answer = h; });
    req.on('trailers', (h) => { trailers = h; });
    req.setEncoding('latin1');
    req.on('data', (d: string) => { text += d; });
    req.on('end', () => resolve({ headers: answer, trailers, body: text }));
    req.on('error', reject);
    req.setTimeout(5000, () => req.close());
    req.end(body);
  });
}

const GRPC_ECHO = { ':method': 'POST', ':path': ECHO_PATH, 'content-type': 'application/grpc', te: 'trailers' };

/** A connection whose first request is gRPC keeps going to gRPC: an HTTP request on it gets grpc-js's 415. */
async function grpcFirst(session: http2.ClientHttp2Session): Promise<void> {
  const call = await ask(session, GRPC_ECHO, echoMessage('first'));
  assert.equal(call.headers[':status'], 200);
  assert.equal(call.trailers['grpc-status'], '0');
  assert.match(call.body, /first/);
  const hello = await ask(session, { ':path': '/hello' });
  assert.equal(hello.headers[':status'], 415, 'answered by gRPC with an HTTP status');
  const again = await ask(session, GRPC_ECHO, echoMessage('again'));
  assert.equal(again.trailers['grpc-status'], '0', 'the connection still serves gRPC');
}

test('a connection is decided by its first request: gRPC first, then HTTP; HTTP first, then gRPC', async (t) => {
  const s = await startEchoServer(defaultConfig());
  t.after(() => s.server.shutdown({ deadlineMs: 1000 }));
  const a = http2.connect(`http://127.0.0.1:${s.port}`);
  a.on('error', () => {});
  t.after(() => a.close());
  await grpcFirst(a);

  const b = http2.connect(`http://127.0.0.1:${s.port}`);
  b.on('error', () => {});
  t.after(() => b.close());
  const hello = await ask(b, { ':path': '/hello' });
  assert.equal(hello.headers[':status'], 200);
  assert.equal(hello.body, '{"hello":"world"}');
  const call = await ask(b, GRPC_ECHO, echoMessage('late'));
  assert.equal(call.headers[':status'], 200);
  assert.equal(call.headers['grpc-status'], String(grpc.status.UNIMPLEMENTED), 'trailers-only gRPC answer');
  assert.match(String(call.headers['grpc-message']), /connection carries HTTP requests/);
  assert.equal((await ask(b, { ':path': '/hello' })).headers[':status'], 200, 'the connection still serves HTTP');

  const client = new EchoClient(`127.0.0.1:${s.port}`, grpc.credentials.createInsecure());
  t.after(() => client.close());
  assert.equal((await callEcho(client, { message: 'others' })).message, 'others');
});

test('over TLS (h2 by ALPN) the first request decides too', async (t) => {
  const pki = createTestPki([]);
  t.after(() => pki.cleanup());
  const s = await startEchoServer(defaultConfig({ tls: { enabled: true, cert_file: pki.serverCert, key_file: pki.serverKey } }));
  t.after(() => s.server.shutdown({ deadlineMs: 1000 }));
  const ca = readFileSync(pki.caCert);
  const a = http2.connect(`https://127.0.0.1:${s.port}`, { ca, servername: 'localhost' });
  a.on('error', () => {});
  t.after(() => a.close());
  await grpcFirst(a);
  const b = http2.connect(`https://127.0.0.1:${s.port}`, { ca, servername: 'localhost' });
  b.on('error', () => {});
  t.after(() => b.close());
  assert.equal((await ask(b, { ':path': '/hello' })).body, '{"hello":"world"}');
  const client = new EchoClient(`127.0.0.1:${s.port}`, grpc.credentials.createSsl(ca));
  t.after(() => client.close());
  assert.equal((await callEcho(client, { message: 'tls' })).message, 'tls');
});

test('shutdown closes HTTP/2 connections served by the HTTP routes and those still undecided, without waiting for its deadline', async (t) => {
  const s = await startEchoServer(defaultConfig());
  const session = http2.connect(`http://127.0.0.1:${s.port}`);
  session.on('error', () => {});
  t.after(() => session.destroy());
  assert.equal((await ask(session, { ':path': '/hello' })).headers[':status'], 200);
  const undecided = await rawClient(t, s.port);
  undecided.write(CLIENT_PREFACE.subarray(0, 30));
  const sessionClosed = new Promise<void>((resolve) => session.once('close', resolve));
  const started = Date.now();
  await s.server.shutdown({ deadlineMs: 20_000 });
  const took = Date.now() - started;
  assert.ok(took < 5000, `shutdown took ${took} ms with a deadline of 20 s`);
  await sessionClosed;
  assert.equal(await undecided.waitClosed(2000), true, 'the undecided connection is cut');
});
