import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import https from 'node:https';
import tls from 'node:tls';
import * as grpc from '@grpc/grpc-js';
import { createTestPki, type TestPki } from './cert-support.js';
import { rawExchange } from './socket-support.js';
import { ECHO_SERVICE, EchoClient, callEcho, defaultConfig, startEchoServer, type Started } from './test-support.js';

const GOOD_CN = 'agent.sluice.test';
const BAD_CN = 'intruder.sluice.test';

function httpsGet(port: number, pki: TestPki, cn: string | undefined, path = '/hello'): Promise<number> {
  const client = cn === undefined ? {} : { cert: readFileSync(pki.client(cn).cert), key: readFileSync(pki.client(cn).key) };
  return new Promise((resolve, reject) => {
    const req = https.get({ host: '127.0.0.1', port, path, ca: readFileSync(pki.caCert), agent: false, ...client }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.setTimeout(3000, () => req.destroy(new Error('timeout')));
  });
}

function grpcClient(port: number, pki: TestPki, cn: string | undefined): grpc.Client {
  const creds = cn === undefined
    ? grpc.credentials.createSsl(readFileSync(pki.caCert))
    : grpc.credentials.createSsl(readFileSync(pki.caCert), readFileSync(pki.client(cn).key), readFileSync(pki.client(cn).cert));
  return new EchoClient(`127.0.0.1:${port}`, creds);
}

async function startTls(t: { after: (fn: () => void | Promise<void>) => void }, pki: TestPki, mtls: boolean): Promise<Started> {
  const s = await startEchoServer(defaultConfig({
    tls: { enabled: true, cert_file: pki.serverCert, key_file: pki.serverKey, client_ca_file: mtls ? pki.caCert : '', allowed_cn: mtls ? GOOD_CN : '' },
  }), (server) => server.addGatewayRoute({ method: 'post', path: '/v1/echo', service: ECHO_SERVICE, rpc: 'Echo', toRequest: ({ body }) => body as object }));
  t.after(() => s.server.shutdown({ deadlineMs: 1000 }));
  return s;
}

test('TLS with client_ca_file and allowed_cn, over HTTP and gRPC', async (t) => {
  const pki = createTestPki([GOOD_CN, BAD_CN]);
  t.after(() => pki.cleanup());
  const s = await startTls(t, pki, true);
  const clients: grpc.Client[] = [];
  t.after(() => clients.forEach((c) => c.close()));
  const rpc = (cn: string | undefined): Promise<unknown> => {
    const c = grpcClient(s.port, pki, cn);
    clients.push(c);
    return callEcho(c, { message: 'tls' }, 2000);
  };

  // The right CN is accepted.
  assert.equal(await httpsGet(s.port, pki, GOOD_CN), 200);
  assert.deepEqual(await rpc(GOOD_CN), { message: 'tls', served_by: 'echo' });
  // A wrong CN is refused.
  await assert.rejects(httpsGet(s.port, pki, BAD_CN));
  await assert.rejects(rpc(BAD_CN), { code: grpc.status.UNAVAILABLE });
  // No client certificate is refused.
  await assert.rejects(httpsGet(s.port, pki, undefined));
  await assert.rejects(rpc(undefined), { code: grpc.status.UNAVAILABLE });
  // Plaintext is refused.
  const plain = await rawExchange(s.port, 'GET /hello HTTP/1.1\r\nHost: x\r\n\r\n', 3000);
  assert.doesNotMatch(plain.text, /HTTP\/1\.1 200/);
  assert.equal(plain.closed, true);
  const insecure = new EchoClient(`127.0.0.1:${s.port}`, grpc.credentials.createInsecure());
  clients.push(insecure);
  await assert.rejects(callEcho(insecure, { message: 'plain' }, 2000), { code: grpc.status.UNAVAILABLE });
  // The server still serves the right client afterwards.
  assert.equal(await httpsGet(s.port, pki, GOOD_CN), 200);
});

test('TLS 1.2 minimum; without client_ca_file any client may connect; the gateway reaches gRPC', async (t) => {
  const pki = createTestPki([BAD_CN]);
  t.after(() => pki.cleanup());
  const s = await startTls(t, pki, false);
  assert.equal(await httpsGet(s.port, pki, undefined), 200);
  const client = grpcClient(s.port, pki, undefined);
  t.after(() => client.close());
  assert.equal(((await callEcho(client, { message: 'open' })) as { message: string }).message, 'open');
  const version = await new Promise<string | null>((resolve, reject) => {
    const socket = tls.connect({ host: '127.0.0.1', port: s.port, ca: readFileSync(pki.caCert), maxVersion: 'TLSv1.2' }, () => {
      resolve(socket.getProtocol());
      socket.destroy();
    });
    socket.on('error', reject);
  });
  assert.equal(version, 'TLSv1.2');
  await assert.rejects(new Promise((resolve, reject) => {
    const socket = tls.connect({ host: '127.0.0.1', port: s.port, ca: readFileSync(pki.caCert), maxVersion: 'TLSv1.1', minVersion: 'TLSv1' }, () => resolve(socket));
    socket.on('error', reject);
  }));
  const body = JSON.stringify({ message: 'gw' });
  const answer = await new Promise<string>((resolve, reject) => {
    const req = https.request({ host: '127.0.0.1', port: s.port, path: '/v1/echo', method: 'POST', ca: readFileSync(pki.caCert), agent: false,
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => { text += c.toString(); });
      res.on('end', () => resolve(`${res.statusCode} ${text}`));
    });
    req.on('error', reject);
    req.end(body);
  });
  assert.equal(answer, '200 {"message":"gw","served_by":"echo"}');
});

interface H2Answer { status: number; type: string; body: string }

function h2Request(session: import('node:http2').ClientHttp2Session, path: string, method = 'GET', body?: string, type?: string): Promise<H2Answer> {
  return new Promise((resolve, reject) => {
    const req = session.request({ ':method': method, ':path': path, ...(type !== undefined ? { 'content-type': type } : {}) });
    let status = 0;
    let ctype = '';
    let text = '';
    req.on('response', (h) => { status = Number(h[':status']); ctype = String(h['content-type'] ?? ''); });
    req.setEncoding('utf8');
    req.on('data', (d: string) => { text += d; });
    req.on('end', () => resolve({ status, type: ctype, body: text }));
    req.on('error', reject);
    req.setTimeout(3000, () => req.close());
    if (body !== undefined) req.end(body);
    else req.end();
  });
}

test('HTTP/2 negotiated by ALPN reaches the HTTP routes (not a 415 from gRPC), and gRPC still works on the same port', async (t) => {
  const http2 = await import('node:http2');
  const pki = createTestPki([]);
  t.after(() => pki.cleanup());
  const s = await startTls(t, pki, false);
  const session = http2.connect(`https://127.0.0.1:${s.port}`, { ca: readFileSync(pki.caCert), ALPNProtocols: ['h2', 'http/1.1'] });
  t.after(() => session.close());
  session.on('error', () => {});
  const hello = await h2Request(session, '/hello');
  assert.equal(hello.status, 200, hello.body);
  assert.match(hello.type, /^application\/json/);
  assert.deepEqual(JSON.parse(hello.body), { hello: 'world' });
  assert.equal((session.socket as tls.TLSSocket).alpnProtocol, 'h2');
  const echo = await h2Request(session, '/v1/echo', 'POST', JSON.stringify({ message: 'over h2' }), 'application/json');
  assert.equal(echo.status, 200, echo.body);
  assert.deepEqual(JSON.parse(echo.body), { message: 'over h2', served_by: 'echo' });
  const missing = await h2Request(session, '/v1/nowhere');
  assert.equal(missing.status, 404);
  assert.equal((JSON.parse(missing.body) as { code: number }).code, 5, 'the gateway error shape');
  const c = grpcClient(s.port, pki, undefined);
  t.after(() => c.close());
  assert.deepEqual(await callEcho(c, { message: 'grpc' }, 2000), { message: 'grpc', served_by: 'echo' });
});

test('plain HTTP/2 with prior knowledge (h2c) reaches the HTTP routes too', async (t) => {
  const http2 = await import('node:http2');
  const s = await startEchoServer(defaultConfig());
  t.after(() => s.server.shutdown({ deadlineMs: 1000 }));
  const session = http2.connect(`http://127.0.0.1:${s.port}`);
  t.after(() => session.close());
  session.on('error', () => {});
  const hello = await h2Request(session, '/hello');
  assert.equal(hello.status, 200, hello.body);
  assert.deepEqual(JSON.parse(hello.body), { hello: 'world' });
});
