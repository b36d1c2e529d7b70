import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import zlib from 'node:zlib';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { DEFAULT_HTTP_CLIENT_CONFIG, type HTTPClientConfig } from './config.js';
import { createHttpClient } from './http-client.js';
import { makeTestCerts } from './fixture-certs.js';
import { startConnectProxy } from './fixture-proxy.js';

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;
type After = { after: (fn: () => unknown) => void };

async function listen(t: After, server: http.Server | https.Server | net.Server): Promise<number> {
  const sockets = new Set<net.Socket>();
  server.on('connection', (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  t.after(() => {
    for (const socket of sockets) socket.destroy();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return (server.address() as AddressInfo).port;
}

/** A local HTTP server that counts the TCP connections it accepted. */
async function serve(t: After, handler: Handler): Promise<{ base: string; connections: () => number }> {
  const server = http.createServer(handler);
  let connections = 0;
  server.on('connection', () => connections++);
  const port = await listen(t, server);
  return { base: `http://127.0.0.1:${port}`, connections: () => connections };
}

function client(t: After, over: Partial<HTTPClientConfig>, proxy = { http: '', https: '', no_proxy: [] as string[] }, env: Record<string, string> = {}) {
  const c = createHttpClient({ ...DEFAULT_HTTP_CLIENT_CONFIG, ...over }, proxy, env);
  t.after(() => c.close());
  return c;
}

const ok: Handler = (_req, res) => res.end('hello');

test('a request returns status, headers and body', async (t) => {
  const { base } = await serve(t, (req, res) => res.setHeader('x-method', req.method ?? '').end(`path=${req.url}`));
  const res = await client(t, {}).request(`${base}/a?b=1`, { method: 'POST', body: 'x' });
  assert.equal(res.statusCode, 200);
  assert.equal(res.headers['x-method'], 'POST');
  assert.equal(res.body.toString(), 'path=/a?b=1');
});

test('timeout covers the whole request, body included', async (t) => {
  const { base } = await serve(t, (_req, res) => { res.write('partial'); setTimeout(() => res.end('late'), 400); });
  const started = Date.now();
  await assert.rejects(client(t, { timeout: '80ms' }).request(base), (e: Error & { code?: string }) => e.code === 'SLUICE_ERR_DEADLINE_EXCEEDED' && /timed out after 80ms/.test(e.message));
  assert.ok(Date.now() - started < 350);
});

test('response_header_timeout fires when headers are late', async (t) => {
  // undici checks header timeouts on a coarse (about half-second) clock.
  const { base } = await serve(t, (_req, res) => setTimeout(() => res.end('late'), 2500));
  const started = Date.now();
  await assert.rejects(client(t, { response_header_timeout: '100ms' }).request(base), (e: Error & { code?: string }) => e.code === 'UND_ERR_HEADERS_TIMEOUT');
  assert.ok(Date.now() - started < 2000);
});

test('tls_handshake_timeout fires against a server that never speaks TLS', async (t) => {
  const silent = net.createServer(() => undefined);
  const port = await listen(t, silent);
  const started = Date.now();
  await assert.rejects(client(t, { tls_handshake_timeout: '60ms' }).request(`https://127.0.0.1:${port}/`), /TLS handshake timeout after 60ms/);
  assert.ok(Date.now() - started < 1000);
});

test('keep-alive reuses one connection; disable_keep_alives opens one per request', async (t) => {
  const a = await serve(t, ok);
  const reuse = client(t, {});
  // undici may open a second socket while the first is being released; it never opens one per request.
  for (let i = 0; i < 5; i++) assert.equal((await reuse.request(a.base)).body.toString(), 'hello');
  assert.ok(a.connections() <= 2, `${a.connections()} connections for 5 requests`);
  const b = await serve(t, ok);
  const fresh = client(t, { disable_keep_alives: true });
  for (let i = 0; i < 5; i++) await fresh.request(b.base);
  assert.equal(b.connections(), 5);
});

test('max_conns_per_host bounds concurrent connections to one origin', async (t) => {
  let active = 0;
  let peak = 0;
  const s = await serve(t, (_req, res) => { active++; peak = Math.max(peak, active); setTimeout(() => { active--; res.end('ok'); }, 30); });
  const c = client(t, { max_conns_per_host: 1 });
  await Promise.all([c.request(s.base), c.request(s.base), c.request(s.base)]);
  assert.equal(s.connections(), 1);
  assert.equal(peak, 1);
  const u = await serve(t, (_req, res) => setTimeout(() => res.end('ok'), 30));
  const unbounded = client(t, {});
  await Promise.all([unbounded.request(u.base), unbounded.request(u.base), unbounded.request(u.base)]);
  assert.equal(u.connections(), 3);
});

test('compression is negotiated and decoded unless disabled', async (t) => {
  const seen: Array<string | undefined> = [];
  const { base } = await serve(t, (req, res) => {
    seen.push(req.headers['accept-encoding']);
    if (req.headers['accept-encoding']?.includes('gzip')) res.setHeader('content-encoding', 'gzip').end(zlib.gzipSync('squeezed'));
    else res.end('plain');
  });
  assert.equal((await client(t, {}).request(base)).body.toString(), 'squeezed');
  assert.equal((await client(t, { disable_compression: true }).request(base)).body.toString(), 'plain');
  assert.deepEqual(seen, ['gzip', undefined]);
});

test('max_response_header_bytes refuses oversized response headers', async (t) => {
  const { base } = await serve(t, (_req, res) => res.setHeader('x-big', 'a'.repeat(4000)).end('ok'));
  await assert.rejects(client(t, { max_response_header_bytes: 1024 }).request(base), (e: Error & { code?: string }) => e.code === 'UND_ERR_HEADERS_OVERFLOW');
  assert.equal((await client(t, {}).request(base)).statusCode, 200);
});

test('use_proxy tunnels through client.proxy with proxy_connect_header; no_proxy and use_proxy false bypass it', async (t) => {
  const proxy = await startConnectProxy();
  t.after(() => proxy.close());
  const { base } = await serve(t, ok);
  const target = new URL(base).host;
  const via = client(t, { use_proxy: true, proxy_connect_header: { 'X-Proxy-Token': ['secret', 'two'] } }, { http: proxy.url, https: '', no_proxy: [] });
  assert.equal((await via.request(base)).body.toString(), 'hello');
  assert.equal(proxy.connects.length, 1);
  assert.equal(proxy.connects[0].target, target);
  assert.equal(proxy.connects[0].headers['x-proxy-token'], 'secret, two');

  const bypass = client(t, { use_proxy: true }, { http: proxy.url, https: '', no_proxy: ['127.0.0.1'] });
  assert.equal((await bypass.request(base)).statusCode, 200);
  const off = client(t, { use_proxy: false }, { http: proxy.url, https: '', no_proxy: [] }, { HTTP_PROXY: proxy.url });
  assert.equal((await off.request(base)).statusCode, 200);
  assert.equal(proxy.connects.length, 1, 'neither went through the proxy');

  const fromEnv = client(t, { use_proxy: true }, { http: '', https: '', no_proxy: [] }, { HTTP_PROXY: proxy.url });
  await fromEnv.request(base);
  assert.equal(proxy.connects.length, 2, 'HTTP_PROXY applies when client.proxy is empty');
});

test('TLS: ca_file verifies, an unknown CA fails, insecure_skip_verify accepts, key_log_file gets lines, client certificates are sent', async (t) => {
  const certs = makeTestCerts();
  t.after(() => certs.cleanup());
  const server = https.createServer({
    cert: readFileSync(certs.serverCert), key: readFileSync(certs.serverKey), ca: readFileSync(certs.ca), requestCert: true, rejectUnauthorized: false,
  }, (req, res) => {
    const peer = (req.socket as import('node:tls').TLSSocket).getPeerCertificate();
    res.end(peer?.subject?.CN ?? 'anonymous');
  });
  const port = await listen(t, server);
  const url = `https://127.0.0.1:${port}/`;
  const tls = { ca_file: '', cert_file: '', key_file: '', insecure_skip_verify: false, key_log_file: '' };

  await assert.rejects(client(t, { tls }).request(url), /self-signed|unable to verify|self signed/i);
  const keyLog = path.join(certs.dir, 'keys.log');
  const verified = client(t, { tls: { ...tls, ca_file: certs.ca }, key_log_file: keyLog });
  assert.equal((await verified.request(url)).body.toString(), 'anonymous');
  assert.equal((await client(t, { tls: { ...tls, insecure_skip_verify: true } }).request(url)).statusCode, 200);
  const mutual = client(t, { tls: { ...tls, ca_file: certs.ca, cert_file: certs.clientCert, key_file: certs.clientKey } });
  assert.equal((await mutual.request(url)).body.toString(), 'sluice-client');
  await verified.close();
  assert.match(readFileSync(keyLog, 'utf8'), /^(CLIENT_RANDOM|CLIENT_HANDSHAKE_TRAFFIC_SECRET|SERVER_HANDSHAKE_TRAFFIC_SECRET|CLIENT_TRAFFIC_SECRET_0) [0-9a-f]+ [0-9a-f]+$/m);

  const proxy = await startConnectProxy();
  t.after(() => proxy.close());
  const viaProxy = client(t, { use_proxy: true, tls: { ...tls, ca_file: certs.ca } }, { http: '', https: proxy.url, no_proxy: [] });
  assert.equal((await viaProxy.request(url)).statusCode, 200);
  assert.equal(proxy.connects[0]?.target, `127.0.0.1:${port}`, 'https goes through the https proxy, verified with ca_file');
});

test('bad settings are refused with the field', () => {
  const tls = { ca_file: '', cert_file: '', key_file: '', insecure_skip_verify: false, key_log_file: '' };
  const bad: Array<[Partial<HTTPClientConfig>, string]> = [
    [{ timeout: 'soon' }, 'timeout'],
    [{ network_timeout: '5' }, 'network_timeout'],
    [{ max_conns_per_host: -1 }, 'max_conns_per_host'],
    [{ read_buffer_size: 1.5 }, 'read_buffer_size'],
    [{ tls: { ...tls, cert_file: '/nonexistent.crt' } }, 'tls.key_file'],
    [{ tls: { ...tls, ca_file: '/nonexistent/ca.crt' } }, 'tls.ca_file'],
  ];
  for (const [over, field] of bad) {
    assert.throws(() => createHttpClient({ ...DEFAULT_HTTP_CLIENT_CONFIG, ...over }), (e: Error & { field?: string }) => e.field === field, field);
  }
});
