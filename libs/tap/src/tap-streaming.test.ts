import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import { test } from 'node:test';
import { readAll, send, startTestAgent, startTestTap, startUpstream } from './testing/fixture.js';

const MB = 1024 * 1024;

test('a 20 MB upload streams: the workload receives bytes before the client has sent them all', async (t) => {
  let received = 0;
  let firstByteAtSent = -1;
  let sent = 0;
  const upstream = await startUpstream(t, (req, res) => {
    req.on('data', (c: Buffer) => {
      if (received === 0) firstByteAtSent = sent;
      received += c.length;
    });
    req.on('end', () => res.end(String(received)));
  });
  const agent = await startTestAgent(t);
  const { base } = await startTestTap(t, upstream, agent.address);

  const total = 20 * MB;
  const chunk = Buffer.alloc(64 * 1024, 0x61);
  const reply = await new Promise<string>((resolve, reject) => {
    const req = http.request(`${base}/upload`, { method: 'POST', headers: { 'content-type': 'application/octet-stream', 'content-length': String(total) }, agent: false }, (res) => {
      readAll(res).then((b) => resolve(b.toString()), reject);
    });
    req.on('error', reject);
    const pump = (): void => {
      while (sent < total) {
        sent += chunk.length;
        if (!req.write(chunk)) {
          req.once('drain', pump);
          return;
        }
      }
      req.end();
    };
    pump();
  });
  assert.equal(reply, String(total));
  assert.equal(received, total);
  // Back-pressure holds the client to what the sockets buffer: a tap that held the body would deliver nothing before the end.
  assert.ok(firstByteAtSent >= 0 && firstByteAtSent < total / 2, `the workload got its first byte after ${firstByteAtSent} bytes were sent`);

});

test('a chunked request stays chunked up to the workload, with its chunks streamed as they come', async (t) => {
  let headers: http.IncomingHttpHeaders = {};
  const parts: string[] = [];
  let gotFirst: () => void = () => {};
  const firstArrived = new Promise<void>((resolve) => { gotFirst = resolve; });
  const upstream = await startUpstream(t, (req, res) => {
    headers = req.headers;
    req.on('data', (c: Buffer) => { parts.push(c.toString()); gotFirst(); });
    req.on('end', () => res.end(parts.join('')));
  });
  const agent = await startTestAgent(t);
  const { base } = await startTestTap(t, upstream, agent.address);
  const res = await new Promise<string>((resolve, reject) => {
    // GET with a chunked body: framing must survive even where Node would not chunk by default.
    const req = http.request(`${base}/stream`, { method: 'GET', headers: { 'transfer-encoding': 'chunked', 'content-type': 'application/octet-stream' }, agent: false }, (r) => {
      readAll(r).then((b) => resolve(b.toString()), reject);
    });
    req.on('error', reject);
    req.write('first;');
    // The second part is only sent once the first reached the workload.
    void firstArrived.then(() => req.end('second'));
  });
  assert.equal(res, 'first;second');
  assert.equal(headers['transfer-encoding'], 'chunked');
  assert.equal(headers['content-length'], undefined);
});

test('a chunked response reaches the client chunked, streamed, with its trailers', async (t) => {
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => { release = resolve; });
  const upstream = await startUpstream(t, (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain', trailer: 'x-checksum' });
    res.write('part1;');
    void released.then(() => {
      res.addTrailers({ 'x-checksum': 'abc123' });
      res.end('part2');
    });
  });
  const agent = await startTestAgent(t);
  const { tap } = await startTestTap(t, upstream, agent.address);
  const socket = net.connect(tap.address.port, '127.0.0.1');
  t.after(() => socket.destroy());
  let raw = '';
  let sawFirst: () => void = () => {};
  const first = new Promise<void>((resolve) => { sawFirst = resolve; });
  socket.on('data', (d: Buffer) => {
    raw += d.toString();
    if (raw.includes('part1;')) sawFirst();
  });
  socket.write('GET / HTTP/1.1\r\nHost: x\r\nTE: trailers\r\nConnection: close\r\n\r\n');
  await first; // the first chunk arrived while the workload still holds the rest
  assert.ok(!raw.includes('part2'));
  release();
  await new Promise((resolve) => socket.once('end', resolve));
  assert.match(raw, /\r\ntransfer-encoding: chunked\r\n/i);
  assert.match(raw, /\r\ntrailer: x-checksum\r\n/i);
  assert.match(raw, /\r\n0\r\nx-checksum: abc123\r\n\r\n$/i);
});

test('a large response streams to a client reading it', async (t) => {
  const size = 8 * MB;
  const upstream = await startUpstream(t, (_req, res) => {
    res.writeHead(200, { 'content-length': String(size) });
    const chunk = Buffer.alloc(256 * 1024, 0x62);
    let left = size;
    const pump = (): void => {
      while (left > 0) {
        left -= chunk.length;
        if (!res.write(chunk)) { res.once('drain', pump); return; }
      }
      res.end();
    };
    pump();
  });
  const agent = await startTestAgent(t);
  const { base } = await startTestTap(t, upstream, agent.address);
  const reply = await send(`${base}/big`);
  assert.equal(reply.status, 200);
  assert.equal(reply.headers['content-length'], String(size));
  assert.equal(reply.body.length, size);
});
