import assert from 'node:assert/strict';
import http from 'node:http';
import { test } from 'node:test';
import { metricValue, startTestAgent, startTestTap, startUpstream } from './testing/fixture.js';
import { rawExchange, statusesIn } from './testing/raw-client.js';

function trailerLines(n: number): string {
  let out = '';
  for (let i = 0; i < n; i++) out += `x-t${i}: v\r\n`;
  return out;
}

function chunkedPost(n: number, coding = 'chunked'): string {
  return `POST /up HTTP/1.1\r\nHost: w\r\nTransfer-Encoding: ${coding}\r\nConnection: close\r\n\r\n3\r\nabc\r\n0\r\n${trailerLines(n)}\r\n`;
}

test('request trailers past --max-request-headers: 431, and the workload never gets the end of the body', async (t) => {
  const seen: { trailers: number; ended: boolean }[] = [];
  const upstream = await startUpstream(t, (req, res) => {
    const entry = { trailers: 0, ended: false };
    seen.push(entry);
    req.resume();
    req.on('end', () => {
      entry.ended = true;
      entry.trailers = req.rawTrailers.length / 2;
      res.end('ok');
    });
  });
  const agent = await startTestAgent(t);
  const { tap } = await startTestTap(t, upstream, agent.address, { maxRequestHeaders: 100 });
  const within = await rawExchange(tap.address.port, [chunkedPost(100)], { until: (x) => x.endsWith('ok') });
  assert.equal(statusesIn(within.text)[0], 200);
  for (const n of [101, 3000]) {
    const over = await rawExchange(tap.address.port, [chunkedPost(n)], { until: (x) => x.includes('}') });
    assert.equal(statusesIn(over.text)[0], 431, `${n} trailers`);
    assert.match(over.text, new RegExp(`has ${n} trailer fields; at most 100`));
  }
  assert.deepEqual(seen.filter((s) => s.ended).map((s) => s.trailers), [100], 'only the request within the bound reached its end, trailers and all');
});

test('response trailers past --max-response-headers: the response breaks off (counted bad_response), never relayed without them', async (t) => {
  const upstream = await startUpstream(t, (req, res) => {
    const n = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('n'));
    req.resume();
    req.on('end', () => {
      res.write('body');
      const trailers: Record<string, string> = {};
      for (let i = 0; i < n; i++) trailers[`x-t${i}`] = 'v';
      res.addTrailers(trailers);
      res.end();
    });
  });
  const agent = await startTestAgent(t);
  const { tap, registry } = await startTestTap(t, upstream, agent.address, { maxResponseHeaders: 50 });
  const get = (path: string, method = 'GET'): Promise<{ trailers: number; complete: boolean }> => new Promise((resolve) => {
    const req = http.request(`http://127.0.0.1:${tap.address.port}${path}`, { method, agent: false, headers: method === 'POST' ? { 'transfer-encoding': 'chunked' } : {} }, (res) => {
      res.resume();
      res.on('end', () => resolve({ trailers: res.rawTrailers.length / 2, complete: res.complete }));
      res.on('error', () => resolve({ trailers: -1, complete: false }));
      res.on('aborted', () => resolve({ trailers: -1, complete: false }));
    });
    req.on('error', () => resolve({ trailers: -1, complete: false }));
    req.end(method === 'POST' ? 'x' : undefined);
  });
  // GET goes through the pool (undici), a chunked POST through node:http: both bound the trailers.
  for (const method of ['GET', 'POST']) {
    assert.deepEqual(await get('/?n=50', method), { trailers: 50, complete: true }, `${method} within the bound`);
    assert.equal((await get('/?n=5000', method)).complete, false, `${method} with 5000 trailers`);
    assert.equal((await get('/?n=51', method)).complete, false, `${method} with 51 trailers`);
  }
  assert.equal(await metricValue(registry, 'tap_upstream_errors_total', { reason: 'bad_response' }), 4);
});

test('a transfer coding other than chunked: 501 before the agent is asked; never forwarded as plain chunked', async (t) => {
  const seen: string[] = [];
  const upstream = await startUpstream(t, (req, res) => { seen.push(String(req.headers['transfer-encoding'])); req.resume(); req.on('end', () => res.end('ok')); });
  const agent = await startTestAgent(t);
  const { tap } = await startTestTap(t, upstream, agent.address);
  // (Node itself answers 400 to chunked twice.)
  for (const coding of ['gzip, chunked', 'deflate,chunked', 'x-custom , chunked', 'gzip']) {
    const r = await rawExchange(tap.address.port, [chunkedPost(0, coding)], { until: (x) => x.includes('}') });
    assert.equal(statusesIn(r.text)[0], 501, coding);
    assert.match(r.text, /only chunked is/);
  }
  const upgrade = await rawExchange(tap.address.port, ['GET /ws HTTP/1.1\r\nHost: w\r\nConnection: Upgrade\r\nUpgrade: test\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n'], { until: (x) => x.includes('}') });
  assert.equal(statusesIn(upgrade.text)[0], 501, 'upgrades too');
  assert.equal(agent.requests.length, 0);
  const ok = await rawExchange(tap.address.port, [chunkedPost(0, 'Chunked')], { until: (x) => x.endsWith('ok') });
  assert.equal(statusesIn(ok.text)[0], 200, 'chunked alone, in any case');
  assert.deepEqual(seen, ['chunked']);
});

test('a workload response with a transfer coding other than chunked is a bad response (502), not relayed re-framed', async (t) => {
  const { startRawServer } = await import('./testing/raw-client.js');
  const raw = await startRawServer((socket) => {
    socket.once('data', () => socket.end('HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n4\r\nbody\r\n0\r\n\r\n'));
  });
  t.after(() => raw.close());
  const agent = await startTestAgent(t);
  const { tap, registry } = await startTestTap(t, { port: raw.port }, agent.address);
  for (const head of ['GET / HTTP/1.1\r\nHost: w\r\nConnection: close\r\n\r\n', 'POST / HTTP/1.1\r\nHost: w\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n1\r\nx\r\n0\r\n\r\n']) {
    const r = await rawExchange(tap.address.port, [head], { until: (x) => x.includes('}') });
    assert.equal(statusesIn(r.text)[0], 502, head.split(' ')[0]);
    assert.doesNotMatch(r.text, /body/);
  }
  assert.equal(await metricValue(registry, 'tap_upstream_errors_total', { reason: 'bad_response' }), 2);
});
