import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import { rawExchange } from './socket-support.js';
import { defaultConfig, startEchoServer } from './test-support.js';

test('read_timeout: a request body that trickles in is answered 408 and the connection closed', async (t) => {
  const s = await startEchoServer(defaultConfig({ http: { read_header_timeout: '200ms', read_timeout: '400ms' } }), (server) => {
    server.app.post('/upload', (req, res) => {
      req.resume();
      req.on('end', () => res.json({ ok: true }));
    });
  });
  t.after(() => s.server.shutdown({ deadlineMs: 500 }));
  const r = await rawExchange(s.port, 'POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nabc', 3000);
  assert.equal(r.closed, true);
  assert.ok(r.elapsedMs < 2000, `lived ${r.elapsedMs} ms`);
  assert.match(r.text, /^HTTP\/1\.1 408/);
  assert.equal((await fetch(`${s.base}/hello`)).status, 200);
});

test('write_timeout: a handler that does not finish in time gets 503 in the gateway shape; a late write does not crash', async (t) => {
  let lateWrite: Promise<void> | undefined;
  const s = await startEchoServer(defaultConfig({ http: { write_timeout: '200ms' } }), (server) => {
    server.app.get('/slow', (_req, res) => {
      lateWrite = new Promise((resolve) => setTimeout(() => {
        res.status(200).json({ late: true });
        resolve();
      }, 400));
    });
  });
  t.after(() => s.server.shutdown({ deadlineMs: 500 }));
  const started = Date.now();
  const res = await fetch(`${s.base}/slow`);
  assert.equal(res.status, 503);
  assert.deepEqual(await res.json(), { code: 14, message: 'response not written within the write timeout', details: [] });
  assert.ok(Date.now() - started < 1500);
  await lateWrite;
  assert.equal((await fetch(`${s.base}/hello`)).status, 200);
});

test('idle_timeout: an idle keep-alive connection is closed', async (t) => {
  const s = await startEchoServer(defaultConfig({ http: { idle_timeout: '200ms' } }));
  t.after(() => s.server.shutdown({ deadlineMs: 500 }));
  const socket = net.connect(s.port, '127.0.0.1');
  t.after(() => socket.destroy());
  const closed = new Promise<number>((resolve) => socket.on('close', () => resolve(Date.now())));
  socket.on('error', () => {});
  await new Promise((r) => socket.once('connect', r));
  socket.write('GET /hello HTTP/1.1\r\nHost: x\r\n\r\n');
  const answered = await new Promise<number>((resolve) => socket.once('data', () => resolve(Date.now())));
  const closedAt = await closed;
  const idle = closedAt - answered;
  assert.ok(idle >= 150 && idle < 2000, `closed after ${idle} ms idle`);
});

test('max_header_bytes: oversized headers get 431 and the server keeps serving others', async (t) => {
  const s = await startEchoServer(defaultConfig({ http: { max_header_bytes: 2048 } }));
  t.after(() => s.server.shutdown({ deadlineMs: 500 }));
  const big = await rawExchange(s.port, `GET /hello HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(4096)}\r\n\r\n`, 3000);
  assert.match(big.text, /^HTTP\/1\.1 431/);
  assert.match(big.text, /"message":"request header fields too large"/);
  const ok = await rawExchange(s.port, `GET /hello HTTP/1.1\r\nHost: x\r\nX-Small: ${'a'.repeat(512)}\r\nConnection: close\r\n\r\n`, 3000);
  assert.match(ok.text, /^HTTP\/1\.1 200/);
});

test('disable_http_keep_alives answers Connection: close; the default keeps connections alive', async (t) => {
  const off = await startEchoServer(defaultConfig({ http: { disable_http_keep_alives: true } }));
  const on = await startEchoServer(defaultConfig());
  t.after(async () => { await off.server.shutdown({ deadlineMs: 500 }); await on.server.shutdown({ deadlineMs: 500 }); });
  const get = (port: number): Promise<string | undefined> => new Promise((resolve, reject) => {
    const agent = new http.Agent({ keepAlive: true });
    http.get({ host: '127.0.0.1', port, path: '/hello', agent }, (res) => {
      res.resume();
      res.on('end', () => { agent.destroy(); resolve(res.headers.connection); });
    }).on('error', reject);
  });
  assert.equal(await get(off.port), 'close');
  assert.equal(await get(on.port), 'keep-alive');
});
