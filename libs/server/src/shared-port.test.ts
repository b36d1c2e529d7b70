import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import net from 'node:net';
import * as grpc from '@grpc/grpc-js';
import { createServer } from './create-server.js';
import { rawExchange } from './socket-support.js';
import { EchoClient, callEcho, defaultConfig, startEchoServer } from './test-support.js';
import { Registry } from 'prom-client';

test('HTTP/1.1 and gRPC are served on the same port', async (t) => {
  const s = await startEchoServer(defaultConfig());
  const client = new EchoClient(`127.0.0.1:${s.port}`, grpc.credentials.createInsecure());
  t.after(async () => { client.close(); await s.server.shutdown({ deadlineMs: 1000 }); });
  const res = await fetch(`${s.base}/hello`);
  assert.equal(res.status, 200);
  assert.deepEqual(await res.json(), { hello: 'world' });
  const reply = await callEcho(client, { message: 'ping' });
  assert.deepEqual(reply, { message: 'ping', served_by: 'echo' });
  // Both again, interleaved, on the same connections.
  const [again, r2] = await Promise.all([callEcho(client, { message: 'x' }), fetch(`${s.base}/hello`)]);
  assert.equal(again.message, 'x');
  assert.equal(r2.status, 200);
});

test('a malformed HTTP/2 preface is refused while others keep being served', async (t) => {
  const s = await startEchoServer(defaultConfig());
  const client = new EchoClient(`127.0.0.1:${s.port}`, grpc.credentials.createInsecure());
  t.after(async () => { client.close(); await s.server.shutdown({ deadlineMs: 1000 }); });
  const bad = await rawExchange(s.port, 'PRI * HTTP/2.0\r\n\r\nXX\r\n\r\n', 2000);
  assert.equal(bad.closed, true);
  assert.equal(bad.text, '');
  const alsoBad = await rawExchange(s.port, 'PRIVATE / HTTP/1.1\r\n\r\n', 2000);
  assert.equal(alsoBad.closed, true);
  assert.equal(alsoBad.text, '');
  assert.equal((await fetch(`${s.base}/hello`)).status, 200);
  assert.equal((await callEcho(client, { message: 'still' })).message, 'still');
});

test('a connection that sends nothing is cut by read_header_timeout; others are served meanwhile', async (t) => {
  const s = await startEchoServer(defaultConfig({ http: { read_header_timeout: '300ms' } }));
  t.after(() => s.server.shutdown({ deadlineMs: 1000 }));
  const silent = rawExchange(s.port, undefined, 3000);
  const slowHeaders = rawExchange(s.port, 'GET /hello HTTP/1.1\r\nHost: x\r\n', 3000);
  assert.equal((await fetch(`${s.base}/hello`)).status, 200);
  const [a, b] = await Promise.all([silent, slowHeaders]);
  assert.equal(a.closed, true);
  assert.ok(a.elapsedMs < 2000, `silent connection lived ${a.elapsedMs} ms`);
  assert.equal(b.closed, true);
  assert.ok(b.elapsedMs < 2000, `slow-headers connection lived ${b.elapsedMs} ms`);
  assert.match(b.text, /^HTTP\/1\.1 408/);
});

test('gRPC connection_timeout bounds a new connection that sends nothing', async (t) => {
  const s = await startEchoServer(defaultConfig({ grpc: { connection_timeout: '200ms' } }));
  t.after(() => s.server.shutdown({ deadlineMs: 1000 }));
  const silent = await rawExchange(s.port, undefined, 3000);
  assert.equal(silent.closed, true);
  assert.ok(silent.elapsedMs < 2000);
  const partialPreface = await rawExchange(s.port, 'PRI * HTTP/2', 3000);
  assert.equal(partialPreface.closed, true);
  assert.ok(partialPreface.elapsedMs < 2000);
});

test('network tcp4 serves IPv4 only, tcp6 IPv6 only', async (t) => {
  const v4 = await startEchoServer(defaultConfig({ listener: { addr: ':0', network: 'tcp4' } }));
  t.after(() => v4.server.shutdown({ deadlineMs: 1000 }));
  assert.equal(v4.server.address().host, '0.0.0.0');
  assert.equal((await fetch(`http://127.0.0.1:${v4.port}/hello`)).status, 200);
  await assert.rejects(fetch(`http://[::1]:${v4.port}/hello`));

  const v6 = await startEchoServer(defaultConfig({ listener: { addr: ':0', network: 'tcp6' } }));
  t.after(() => v6.server.shutdown({ deadlineMs: 1000 }));
  assert.equal(v6.server.address().host, '::');
  assert.equal((await fetch(`http://[::1]:${v6.port}/hello`)).status, 200);
  await assert.rejects(fetch(`http://127.0.0.1:${v6.port}/hello`));

  const bracketed = await startEchoServer(defaultConfig({ listener: { addr: '[::1]:0', network: 'tcp6' } }));
  t.after(() => bracketed.server.shutdown({ deadlineMs: 1000 }));
  assert.equal(bracketed.server.address().host, '::1');
  assert.equal((await fetch(`http://[::1]:${bracketed.server.address().port}/hello`)).status, 200);
});

test('a host of the wrong family for the network is refused at start', async () => {
  const server = createServer(defaultConfig({ listener: { addr: '127.0.0.1:0', network: 'tcp6' } }), { registry: new Registry() });
  await assert.rejects(server.start(), /not an IPv6 address/);
});

function keepAliveTimer(port: number): string {
  const out = execFileSync('ss', ['-tnoH', 'state', 'established', `( sport = :${port} )`], { encoding: 'utf8' });
  return out;
}

test('listener.keep_alive sets TCP keep-alive on accepted connections; negative disables it', async (t) => {
  const on = await startEchoServer(defaultConfig({ listener: { keep_alive: '45s' } }));
  const off = await startEchoServer(defaultConfig({ listener: { keep_alive: '-1s' } }));
  const a = net.connect(on.port, '127.0.0.1');
  const b = net.connect(off.port, '127.0.0.1');
  t.after(async () => { a.destroy(); b.destroy(); await on.server.shutdown({ deadlineMs: 500 }); await off.server.shutdown({ deadlineMs: 500 }); });
  await Promise.all([new Promise((r) => a.once('connect', r)), new Promise((r) => b.once('connect', r))]);
  await new Promise((r) => setTimeout(r, 100));
  const onLine = keepAliveTimer(on.port);
  assert.match(onLine, /timer:\(keepalive,(4[0-5]|3\d)sec/);
  const offLine = keepAliveTimer(off.port);
  assert.ok(offLine.trim() !== '', 'connection present');
  assert.doesNotMatch(offLine, /keepalive/);
});

test('start rejects with SLUICE_ERR_LISTEN naming the address when the port is taken', async (t) => {
  const s = await startEchoServer(defaultConfig());
  t.after(() => s.server.shutdown({ deadlineMs: 500 }));
  const other = createServer(defaultConfig({ listener: { addr: `127.0.0.1:${s.port}` } }), { registry: new Registry() });
  await assert.rejects(other.start(), (err: Error & { code?: string }) => {
    assert.equal(err.code, 'SLUICE_ERR_LISTEN');
    assert.match(err.message, new RegExp(`127\\.0\\.0\\.1:${s.port}`));
    assert.match(err.message, /EADDRINUSE/);
    return true;
  });
});
