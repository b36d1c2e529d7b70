import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import * as grpc from '@grpc/grpc-js';
import { createTestPki } from './cert-support.js';
import { PEER_HEADER } from './forwarded-peer.js';
import { GrpcRelay } from './grpc-relay.js';
import { defaultConfig, startEchoServer } from './test-support.js';
import { RAW_SERVICE, RawClient, grpcFrame, rawImpl } from './testdata/raw-service.js';

interface RawAnswer { status: number; headers: http2.IncomingHttpHeaders; trailers: http2.IncomingHttpHeaders; body: Buffer }

/** One call over a raw HTTP/2 session: the request's headers and body as given, the whole answer. */
function rawCall(session: http2.ClientHttp2Session, headers: http2.OutgoingHttpHeaders, body?: Buffer): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = session.request(headers);
    const answer: RawAnswer = { status: 0, headers: {}, trailers: {}, body: Buffer.alloc(0) };
    const chunks: Buffer[] = [];
    req.on('response', (h) => { answer.status = Number(h[':status']); answer.headers = h; });
    req.on('trailers', (tr) => { answer.trailers = tr; });
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve({ ...answer, body: Buffer.concat(chunks) }));
    req.on('error', reject);
    req.setTimeout(5000, () => req.destroy(new Error('no answer within 5 s')));
    req.end(body);
  });
}

const grpcHeaders = (path: string, extra: http2.OutgoingHttpHeaders = {}): http2.OutgoingHttpHeaders =>
  ({ ':method': 'POST', ':path': path, 'content-type': 'application/grpc', te: 'trailers', ...extra });

/** The JSON a Peer call answers, out of its one message. */
function peerOf(answer: RawAnswer): { peer: string; meta: Record<string, unknown> } {
  assert.equal(answer.trailers['grpc-status'] ?? answer.headers['grpc-status'], '0', String(answer.trailers['grpc-message']));
  return JSON.parse(answer.body.subarray(5).toString('utf8')) as { peer: string; meta: Record<string, unknown> };
}

function withinMs<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([p, new Promise<never>((_r, reject) => { timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms); })]).finally(() => clearTimeout(timer));
}

test('one h2c connection carries HTTP requests and gRPC calls side by side; a call sees the client connection as its peer', async (t) => {
  const raw = rawImpl();
  const s = await startEchoServer(defaultConfig(), (server) => server.addService(RAW_SERVICE, raw.impl));
  t.after(() => s.server.shutdown(1000));
  const session = http2.connect(s.base);
  session.on('error', () => {});
  t.after(() => session.close());
  const [hello, call] = await Promise.all([
    rawCall(session, { ':path': '/hello' }),
    rawCall(session, grpcHeaders('/sluice.test.Raw/Peer', { [PEER_HEADER]: '10.9.9.9 1 10.8.8.8 2', 'x-app': 'a' }), grpcFrame(Buffer.from('x'))),
  ]);
  assert.equal(hello.status, 200);
  assert.deepEqual(JSON.parse(hello.body.toString()), { hello: 'world' });
  const seen = peerOf(call);
  assert.equal(seen.peer, `127.0.0.1:${session.socket.localPort}`, 'the client connection, not a forged header nor the in-process connection');
  assert.equal(seen.meta['x-app'], 'a', 'other metadata passes');
  assert.equal(seen.meta[PEER_HEADER], undefined, 'the handler never sees the peer header');
  // A gRPC method that does not exist: grpc-js's own answer comes back as it is.
  const missing = await rawCall(session, grpcHeaders('/sluice.test.Raw/Nope'), grpcFrame(Buffer.alloc(0)));
  assert.equal(missing.status, 200);
  assert.equal(missing.headers['grpc-status'] ?? missing.trailers['grpc-status'], String(grpc.status.UNIMPLEMENTED));
});

test('a grpc-js client: the peer in grpc-js form, a bidi stream with its trailers, and a cancelled call reaching the handler', async (t) => {
  const raw = rawImpl();
  const s = await startEchoServer(defaultConfig(), (server) => server.addService(RAW_SERVICE, raw.impl));
  t.after(() => s.server.shutdown(1000));
  const client = new RawClient(`127.0.0.1:${s.port}`, grpc.credentials.createInsecure());
  t.after(() => client.close());
  const generic = client as unknown as {
    Peer(r: Buffer, o: grpc.CallOptions, cb: (e: grpc.ServiceError | null, v?: Buffer) => void): grpc.ClientUnaryCall;
    Hang(r: Buffer, o: grpc.CallOptions, cb: (e: grpc.ServiceError | null, v?: Buffer) => void): grpc.ClientUnaryCall;
    Chat(): grpc.ClientDuplexStream<Buffer, Buffer>;
  };
  const peer = await new Promise<Buffer>((resolve, reject) => generic.Peer(Buffer.from('p'), { deadline: Date.now() + 5000 }, (e, v) => (e ? reject(e) : resolve(v!))));
  assert.match((JSON.parse(peer.toString()) as { peer: string }).peer, /^127\.0\.0\.1:\d+$/);

  const chat = generic.Chat();
  const received: string[] = [];
  const trailer = new Promise<grpc.Metadata>((resolve) => chat.on('status', (st: grpc.StatusObject) => resolve(st.metadata)));
  chat.on('data', (m: Buffer) => received.push(m.toString()));
  const ended = new Promise<void>((resolve, reject) => { chat.on('end', resolve); chat.on('error', reject); });
  for (const m of ['a', 'b', 'c']) chat.write(Buffer.from(m));
  chat.end();
  await withinMs(ended, 5000, 'bidi stream');
  assert.deepEqual(received, ['a', 'b', 'c']);
  assert.deepEqual((await trailer).get('x-count'), ['3']);

  const hung = generic.Hang(Buffer.from('h'), {}, () => {});
  await new Promise((r) => setTimeout(r, 100));
  hung.cancel();
  await withinMs(raw.seen.cancelled, 5000, 'the handler sees the cancellation');
});

test('over TLS (h2 by ALPN) a call also sees the client connection as its peer', async (t) => {
  const pki = createTestPki([]);
  t.after(() => pki.cleanup());
  const raw = rawImpl();
  const s = await startEchoServer(defaultConfig({ tls: { enabled: true, cert_file: pki.serverCert, key_file: pki.serverKey } }), (server) => server.addService(RAW_SERVICE, raw.impl));
  t.after(() => s.server.shutdown(1000));
  const session = http2.connect(`https://127.0.0.1:${s.port}`, { ca: readFileSync(pki.caCert) });
  session.on('error', () => {});
  t.after(() => session.close());
  const seen = peerOf(await rawCall(session, grpcHeaders('/sluice.test.Raw/Peer'), grpcFrame(Buffer.from('x'))));
  assert.equal(seen.peer, `127.0.0.1:${session.socket.localPort}`);
});

test('a gRPC stream whose in-process connection to grpc-js fails is answered UNAVAILABLE', async (t) => {
  const relay = new GrpcRelay(() => ({ injectConnection: (c) => c.destroy(), drain: () => {}, destroy: () => {} }));
  const server = http2.createServer();
  server.on('stream', (stream, headers) => relay.relay(stream, headers));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const session = http2.connect(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  session.on('error', () => {});
  t.after(() => new Promise<void>((resolve) => {
    session.destroy();
    relay.destroyAll();
    server.close(() => resolve());
  }));
  const answer = await rawCall(session, grpcHeaders('/sluice.test.Raw/Peer'), grpcFrame(Buffer.from('x')));
  assert.equal(answer.status, 200);
  assert.equal(answer.headers['grpc-status'], String(grpc.status.UNAVAILABLE));
  assert.match(String(answer.headers['grpc-message']), /could not be reached/);
});
