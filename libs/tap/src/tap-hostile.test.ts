import assert from 'node:assert/strict';
import type net from 'node:net';
import { test, type TestContext } from 'node:test';
import { metricValue, send, startTestAgent, startTestTap, startUpstream, readAll } from './testing/fixture.js';
import { rawExchange, startRawServer, statusesIn } from './testing/raw-client.js';

/** A workload that answers every request on a connection with `response` (raw bytes), after reading its head. */
async function rawWorkload(t: TestContext, response: (socket: net.Socket) => void): Promise<{ port: number }> {
  const server = await startRawServer((socket) => {
    let head = '';
    const onData = (d: Buffer): void => {
      head += d.toString('latin1');
      if (head.includes('\r\n\r\n')) {
        socket.off('data', onData);
        response(socket);
      }
    };
    socket.on('data', onData);
  });
  t.after(() => server.close());
  return server;
}

/** A request whose body streams to the workload (not sampled for the check): the node:http way. */
const STREAMED = { method: 'POST', headers: { 'content-type': 'application/octet-stream' }, body: Buffer.alloc(1000, 1) };

async function stillServes(base: string): Promise<void> {
  const reply = await send(`${base}/alive`);
  assert.ok(reply.status > 0);
}

for (const [name, head] of [
  ['a control byte in the reason phrase', 'HTTP/1.1 200 O\x01K\r\nContent-Length: 2\r\n\r\nok'],
  ['a status under 100', 'HTTP/1.1 099 Odd\r\nContent-Length: 2\r\n\r\nok'],
  ['a DEL in the reason phrase', 'HTTP/1.1 404 Not\x7fFound\r\nContent-Length: 2\r\n\r\nok'],
] as const) {
  test(`a workload response head Node refuses to write (${name}): an answer or 502 for that request, the tap lives on`, async (t) => {
    const workload = await rawWorkload(t, (socket) => socket.end(head));
    const agent = await startTestAgent(t);
    const { base } = await startTestTap(t, workload, agent.address);
    // Both ways to the workload: a request in hand (pooled) and one streaming its body (node:http).
    for (const opts of [{}, STREAMED]) {
      const reply = await send(`${base}/`, opts);
      assert.ok([200, 404, 502].includes(reply.status), `status ${reply.status}`);
      if (reply.status !== 502) assert.equal(reply.text, 'ok');
    }
    await stillServes(base);
  });
}

test('a 101 answer to a request that asked for no upgrade: 502 at once, not a hang', async (t) => {
  const workload = await rawWorkload(t, (socket) => socket.write('HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n'));
  const agent = await startTestAgent(t);
  const { base } = await startTestTap(t, workload, agent.address, { upstreamTimeoutMs: 10_000 });
  for (const opts of [{}, STREAMED]) {
    const started = Date.now();
    const reply = await send(`${base}/`, opts);
    assert.equal(reply.status, 502);
    assert.equal(JSON.parse(reply.text).code, 14);
    assert.ok(Date.now() - started < 2000, `took ${Date.now() - started} ms`);
  }
  await stillServes(base);
});

test('a denied request with a large body: the next request on the same connection is answered (or the connection closed) at once', async (t) => {
  const upstream = await startUpstream(t, (_req, res) => res.end('ok'));
  const agent = await startTestAgent(t, () => ({ response: { denied_response: { status: 429, headers: [], body: '' } } }));
  const { tap } = await startTestTap(t, upstream, agent.address);
  for (const type of ['application/json', 'text/plain', 'application/x-www-form-urlencoded', 'application/octet-stream']) {
    const body = Buffer.alloc(150_000, 'a');
    const first = `POST /big HTTP/1.1\r\nHost: a\r\nContent-Type: ${type}\r\nContent-Length: ${body.length}\r\n\r\n`;
    const second = 'GET /next HTTP/1.1\r\nHost: a\r\n\r\n';
    const started = Date.now();
    const r = await rawExchange(tap.address.port, [first, body, second], { waitMs: 3000, until: (x) => statusesIn(x).length >= 2 });
    const statuses = statusesIn(r.text);
    assert.equal(statuses[0], 429, type);
    assert.ok(statuses.length === 2 || r.closed, `${type}: second request neither answered nor the connection closed: ${JSON.stringify(statuses)}`);
    assert.ok(Date.now() - started < 2500, `${type}: took ${Date.now() - started} ms`);
  }
});

test('a denied request with a body larger than the drain bound: Connection: close, and the connection ends', async (t) => {
  const upstream = await startUpstream(t, (_req, res) => res.end('ok'));
  const agent = await startTestAgent(t, () => ({ response: { denied_response: { status: 429, headers: [], body: '' } } }));
  const { tap } = await startTestTap(t, upstream, agent.address);
  const head = `POST /huge HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nContent-Length: ${64 * 1024 * 1024}\r\n\r\n`;
  const r = await rawExchange(tap.address.port, [head, Buffer.alloc(20_000, 'a')], { waitMs: 3000 });
  assert.equal(statusesIn(r.text)[0], 429);
  assert.match(r.text, /connection: close/i);
  assert.ok(r.closed, 'the connection stayed open');
});

for (const status of [200, 413]) {
  test(`a workload answering ${status} before reading a large upload: the client gets that answer promptly`, async (t) => {
    const upstream = await startUpstream(t, (req, res) => {
      // Answers at once and never reads the body.
      req.pause();
      res.writeHead(status, { 'content-type': 'text/plain', 'content-length': '5' });
      res.end('early');
    });
    const agent = await startTestAgent(t);
    const { tap } = await startTestTap(t, upstream, agent.address);
    const body = Buffer.alloc(8 * 1024 * 1024, 'a');
    const head = `POST /upload HTTP/1.1\r\nHost: a\r\nContent-Type: application/octet-stream\r\nContent-Length: ${body.length}\r\n\r\n`;
    const started = Date.now();
    const r = await rawExchange(tap.address.port, [head, body], { waitMs: 4000, until: (x) => x.includes('early') });
    assert.equal(statusesIn(r.text)[0], status, r.text.slice(0, 200));
    assert.match(r.text, /early/);
    assert.ok(Date.now() - started < 3500, `took ${Date.now() - started} ms`);
  });
}

test('a workload that sends 413 and closes while the upload is still coming: the 413 reaches the client, not a 502', async (t) => {
  const workload = await rawWorkload(t, (socket) => {
    socket.end('HTTP/1.1 413 Payload Too Large\r\nContent-Length: 8\r\nConnection: close\r\n\r\ntoo big!');
  });
  const agent = await startTestAgent(t);
  const { tap } = await startTestTap(t, workload, agent.address);
  const body = Buffer.alloc(4 * 1024 * 1024, 'a');
  const head = `POST /upload HTTP/1.1\r\nHost: a\r\nContent-Type: application/octet-stream\r\nContent-Length: ${body.length}\r\n\r\n`;
  const r = await rawExchange(tap.address.port, [head, body], { waitMs: 4000, until: (x) => x.includes('too big!') });
  assert.equal(statusesIn(r.text)[0], 413, r.text.slice(0, 200));
});

test('request heads up to --max-request-header-bytes pass (three 7 KB headers); beyond it 431', async (t) => {
  let seen = '';
  const upstream = await startUpstream(t, (req, res) => { seen = String(req.headers['x-c']); res.end('ok'); }, { maxHeaderSize: 65_536 });
  const agent = await startTestAgent(t);
  const { base, tap } = await startTestTap(t, upstream, agent.address, { maxRequestHeaderBytes: 32_768 });
  const big = 'v'.repeat(7000);
  const reply = await send(`${base}/`, { headers: { 'x-a': big, 'x-b': big, 'x-c': big } });
  assert.equal(reply.status, 200);
  assert.equal(seen, big);
  const r = await rawExchange(tap.address.port, [`GET / HTTP/1.1\r\nHost: a\r\nX-Big: ${'a'.repeat(40_000)}\r\n\r\n`]);
  assert.equal(statusesIn(r.text)[0], 431);
});

test('response heads up to --max-response-header-bytes pass; beyond it 502', async (t) => {
  const upstream = await startUpstream(t, (req, res) => {
    const size = req.url === '/huge' ? 40_000 : 7000;
    res.setHeader('x-a', 'v'.repeat(size));
    res.setHeader('x-b', 'v'.repeat(size));
    res.setHeader('x-c', 'v'.repeat(size));
    res.end('ok');
  });
  const agent = await startTestAgent(t);
  const { base } = await startTestTap(t, upstream, agent.address, { maxResponseHeaderBytes: 32_768 });
  const reply = await send(`${base}/`, { maxHeaderSize: 65_536 });
  assert.equal(reply.status, 200);
  assert.equal(reply.headers['x-c'], 'v'.repeat(7000));
  assert.equal((await send(`${base}/huge`, { maxHeaderSize: 65_536 })).status, 502);
});

test('more request headers than --max-request-headers: 431, nothing dropped silently', async (t) => {
  let reached = 0;
  const upstream = await startUpstream(t, (_req, res) => { reached++; res.end('ok'); });
  const agent = await startTestAgent(t);
  const { tap, base } = await startTestTap(t, upstream, agent.address, { maxRequestHeaders: 50 });
  const lines = (n: number): string => Array.from({ length: n }, (_, i) => `X-H${i}: ${i}\r\n`).join('');
  const many = await rawExchange(tap.address.port, [`GET / HTTP/1.1\r\nHost: a\r\n${lines(1500)}\r\n`]);
  assert.equal(statusesIn(many.text)[0], 431);
  for (const n of [50, 55, 70]) {
    const over = await rawExchange(tap.address.port, [`GET / HTTP/1.1\r\nHost: a\r\n${lines(n)}\r\n`]);
    assert.equal(statusesIn(over.text)[0], 431, `${n + 1} fields`);
  }
  assert.equal(reached, 0);
  assert.equal(agent.requests.length, 0);
  const fine = await send(`${base}/`, { headers: Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`x-h${i}`, String(i)])) });
  assert.equal(fine.status, 200);
});

test('more response header fields than --max-response-headers: 502 counted as bad_response, nothing dropped silently', async (t) => {
  // Fields the workload sends, by path: Content-Length and Connection, then X-H0.. ; /many is past Node's own count bound (~1000 fields).
  const counts: Record<string, number> = { '/fits': 48, '/over': 49, '/many': 1500 };
  const workload = await startRawServer((socket) => {
    let head = '';
    socket.on('data', (d: Buffer) => {
      head += d.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      socket.removeAllListeners('data');
      socket.resume();
      const path = /^[A-Z]+ (\S+)/.exec(head)?.[1] ?? '';
      const fields = Array.from({ length: counts[path] ?? 0 }, (_, i) => `X-H${i}: ${i}\r\n`).join('');
      socket.end(`HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n${fields}\r\nok`);
    });
  });
  t.after(() => workload.close());
  const agent = await startTestAgent(t);
  const { tap, registry } = await startTestTap(t, workload, agent.address, { maxResponseHeaders: 50 });
  const wide = await startTestTap(t, workload, agent.address, { maxResponseHeaders: 2000 });
  // Both ways to the workload: a request in hand (pooled) and one streaming its body (node:http).
  const ways = [
    (path: string) => `GET ${path} HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n`,
    (path: string) => `POST ${path} HTTP/1.1\r\nHost: a\r\nConnection: close\r\nContent-Type: application/octet-stream\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n`,
  ];
  const exchange = async (port: number, path: string, way: (p: string) => string): Promise<string> =>
    (await rawExchange(port, [way(path)], { waitMs: 5000 })).text;
  let refused = 0;
  for (const way of ways) {
    const fits = await exchange(tap.address.port, '/fits', way);
    assert.equal(statusesIn(fits)[0], 200, fits.slice(0, 200));
    assert.match(fits, /\r\nX-H47: 47\r\n/i);
    for (const path of ['/over', '/many']) {
      const over = await exchange(tap.address.port, path, way);
      assert.equal(statusesIn(over)[0], 502, `${path}: ${over.slice(0, 200)}`);
      assert.doesNotMatch(over, /X-H0:/i);
      refused++;
    }
    // With a bound above them, all 1500 fields reach the client (Node's client would keep ~1000).
    const all = await exchange(wide.tap.address.port, '/many', way);
    assert.equal(statusesIn(all)[0], 200);
    assert.match(all, /\r\nX-H1499: 1499\r\n/i);
  }
  assert.equal(await metricValue(registry, 'tap_upstream_errors_total', { reason: 'bad_response' }), refused);
});

test('an upgrade answered with more header fields than --max-response-headers: 502', async (t) => {
  const workload = await rawWorkload(t, (socket) => {
    const fields = Array.from({ length: 60 }, (_, i) => `X-H${i}: ${i}\r\n`).join('');
    socket.write(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n${fields}\r\n`);
  });
  const agent = await startTestAgent(t);
  const { tap, registry } = await startTestTap(t, workload, agent.address, { maxResponseHeaders: 50 });
  const r = await rawExchange(tap.address.port, ['GET /ws HTTP/1.1\r\nHost: a\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n']);
  assert.equal(statusesIn(r.text)[0], 502, r.text.slice(0, 200));
  assert.doesNotMatch(r.text, /X-H0:/i);
  assert.equal(await metricValue(registry, 'tap_upstream_errors_total', { reason: 'bad_response' }), 1);
});

test('two Host headers: 400, neither the agent nor the workload sees the request', async (t) => {
  let reached = 0;
  const upstream = await startUpstream(t, (_req, res) => { reached++; res.end('ok'); });
  const agent = await startTestAgent(t);
  const { tap } = await startTestTap(t, upstream, agent.address);
  const r = await rawExchange(tap.address.port, ['GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n']);
  assert.equal(statusesIn(r.text)[0], 400);
  assert.ok(r.closed);
  const up = await rawExchange(tap.address.port, ['GET / HTTP/1.1\r\nHost: a\r\nHost: a\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n']);
  assert.equal(statusesIn(up.text)[0], 400);
  assert.equal(reached, 0);
  assert.equal(agent.requests.length, 0);
});

test('Transfer-Encoding with Content-Length: 400, never forwarded', async (t) => {
  let reached = 0;
  const upstream = await startUpstream(t, async (req, res) => { reached++; await readAll(req); res.end('ok'); });
  const agent = await startTestAgent(t);
  const { tap } = await startTestTap(t, upstream, agent.address);
  const r = await rawExchange(tap.address.port, ['POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n']);
  assert.equal(statusesIn(r.text)[0], 400);
  assert.equal(reached, 0);
});

test('the denial body carries the gRPC code of its status', async (t) => {
  const upstream = await startUpstream(t, (_req, res) => res.end('ok'));
  let status = 429;
  const agent = await startTestAgent(t, () => ({ response: { check_response: { decision_type: 'DECISION_TYPE_REJECTED', reject_reason: status === 429 ? 'REJECT_REASON_RATE_LIMITED' : status === 503 ? 'REJECT_REASON_NO_TOKENS' : 'REJECT_REASON_REGULATED' } } }));
  const { base } = await startTestTap(t, upstream, agent.address);
  for (const [s, code] of [[429, 8], [503, 14], [403, 7]] as const) {
    status = s;
    const reply = await send(`${base}/`);
    assert.equal(reply.status, s);
    const body = JSON.parse(reply.text) as { code: number; message: string; details: unknown[] };
    assert.equal(body.code, code);
    assert.equal(typeof body.message, 'string');
    assert.deepEqual(body.details, []);
  }
});

test('OPTIONS * reaches the workload as it came; an absolute-form target as origin-form with the URI\'s host (RFC 9112 §3.2.2)', async (t) => {
  const seen: string[] = [];
  const upstream = await startUpstream(t, (req, res) => { seen.push(`${req.method} ${req.url} ${req.headers.host}`); res.end('ok'); });
  const agent = await startTestAgent(t);
  const { tap } = await startTestTap(t, upstream, agent.address);
  for (const line of ['OPTIONS * HTTP/1.1', 'GET http://a.example/x?y=1 HTTP/1.1']) {
    const r = await rawExchange(tap.address.port, [`${line}\r\nHost: b.example\r\n\r\n`], { until: (x) => x.endsWith('ok') });
    assert.equal(statusesIn(r.text)[0], 200, line);
  }
  assert.deepEqual(seen, ['OPTIONS * b.example', 'GET /x?y=1 a.example']);
});
