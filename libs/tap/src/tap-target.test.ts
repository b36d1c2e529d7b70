import assert from 'node:assert/strict';
import type http from 'node:http';
import { test, type TestContext } from 'node:test';
import type { CannedAnswer } from './testing/canned-agent.js';
import { ACCEPT } from './testing/canned-agent.js';
import { startTestAgent, startTestTap, startUpstream } from './testing/fixture.js';
import { rawExchange, statusesIn } from './testing/raw-client.js';
import type { TapOptions } from './options.js';

const LIMITED: CannedAnswer = {
  response: { denied_response: { status: 429, headers: [{ key: 'content-type', value: 'application/json' }], body: '{"code":8,"message":"limited","details":[]}' } },
};

interface Seen { url: string; host: string | undefined; method: string }

/** A tap whose agent limits every target starting with /admin (as a policy on http.target =~ ^/admin), and what reached each side. */
async function setup(t: TestContext, overrides: Partial<TapOptions> = {}) {
  const atWorkload: Seen[] = [];
  const upstream = await startUpstream(t, (req: http.IncomingMessage, res: http.ServerResponse) => {
    atWorkload.push({ url: req.url ?? '', host: req.headers.host, method: req.method ?? '' });
    req.resume();
    req.on('end', () => res.end('ok'));
  });
  upstream.server.on('upgrade', (req: http.IncomingMessage, socket: import('node:stream').Duplex) => {
    atWorkload.push({ url: req.url ?? '', host: req.headers.host, method: 'UPGRADE' });
    socket.end('HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: test\r\n\r\n');
  });
  const agent = await startTestAgent(t, (r) => ((r.request?.path ?? '').startsWith('/admin') ? LIMITED : ACCEPT));
  const { tap } = await startTestTap(t, upstream, agent.address, overrides);
  const ask = async (target: string, extra = ''): Promise<number> => {
    const r = await rawExchange(tap.address.port, [`GET ${target} HTTP/1.1\r\nHost: web\r\nConnection: close\r\n${extra}\r\n`], { until: (x) => x.includes('\r\n\r\n') });
    return statusesIn(r.text)[0] ?? 0;
  };
  return { tap, agent, atWorkload, ask };
}

const ADMIN_SPELLINGS = ['/admin/users', 'http://api/admin/users', '//admin/users', '/./admin/users', '/x/../admin/users', '/%61dmin/users',
  '/%2E/admin/users', '/a/b/%2e%2e/../admin/users', '/admin//users'];

test('tap: every spelling of /admin is asked about as /admin and limited; nothing reaches the workload', async (t) => {
  const { agent, atWorkload, ask } = await setup(t);
  for (const target of ADMIN_SPELLINGS) assert.equal(await ask(target), 429, target);
  assert.deepEqual(atWorkload, []);
  assert.deepEqual(agent.requests.map((r) => r.request?.path), ADMIN_SPELLINGS.map(() => '/admin/users'));
  assert.equal(agent.requests[1]?.request?.host, 'api', 'absolute-form: the host of the URI');
});

test('tap: the workload receives exactly the target the agent decided on, on every forwarding path', async (t) => {
  const { agent, atWorkload, ask, tap } = await setup(t);
  assert.equal(await ask('/x/../public/./a%7e%3a?q=/../%2F'), 200);
  assert.equal(await ask('HTTP://api.example:8080//public//b', 'X-Forwarded-Host: kept\r\n'), 200);
  // A body streamed in chunks goes through node:http, not the pool.
  const chunked = await rawExchange(tap.address.port, ['POST /%70ublic/c/.. HTTP/1.1\r\nHost: web\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n3\r\nabc\r\n0\r\n\r\n'],
    { until: (x) => x.includes('\r\n\r\n') });
  assert.equal(statusesIn(chunked.text)[0], 200);
  const upgrade = await rawExchange(tap.address.port, ['GET /a/../public/ws HTTP/1.1\r\nHost: web\r\nConnection: Upgrade\r\nUpgrade: test\r\n\r\n'], { until: (x) => x.includes('\r\n\r\n') });
  assert.equal(statusesIn(upgrade.text)[0], 101);
  assert.deepEqual(atWorkload, [
    { url: '/public/a~%3A?q=/../%2F', host: 'web', method: 'GET' },
    { url: '/public/b', host: 'api.example:8080', method: 'GET' },
    { url: '/public/', host: 'web', method: 'POST' },
    { url: '/public/ws', host: 'web', method: 'UPGRADE' },
  ]);
  assert.deepEqual(agent.requests.map((r) => [r.request?.path, r.request?.host]), atWorkload.map((s) => [s.url, s.host]), 'asked about what was forwarded');
  assert.equal(agent.requests[1]?.request?.headers?.host, 'api.example:8080', 'the Host header label follows the URI');
});

test('tap: ambiguous targets are refused with 400 before the agent is asked', async (t) => {
  const { agent, atWorkload, ask, tap } = await setup(t);
  for (const target of ['/admin%2Fusers', '/public%2fadmin', '/x%5C..%5Cadmin', '/public\\..\\admin', '/admin%00', '/../admin', '/a/../../admin', '/a%zz',
    'ftp://api/admin', 'http://user@api/admin', 'api:80']) {
    assert.equal(await ask(target), 400, target);
  }
  const up = await rawExchange(tap.address.port, ['GET /%2e%2e/admin HTTP/1.1\r\nHost: web\r\nConnection: Upgrade\r\nUpgrade: test\r\n\r\n'], { until: (x) => x.includes('\r\n\r\n') });
  assert.equal(statusesIn(up.text)[0], 400, 'upgrades too');
  assert.match(up.text, /request target is refused/);
  assert.deepEqual(agent.requests, []);
  assert.deepEqual(atWorkload, []);
});

test('tap: with --merge-slashes=false, //admin is its own path, asked about and forwarded as it came', async (t) => {
  const { agent, atWorkload, ask } = await setup(t, { mergeSlashes: false });
  assert.equal(await ask('//admin/users'), 200);
  assert.equal(await ask('//x/../admin/users'), 200, 'RFC 3986 keeps the empty segment');
  assert.equal(await ask('/./admin/users'), 429, 'dot segments are still removed');
  assert.deepEqual(atWorkload.map((s) => s.url), ['//admin/users', '//admin/users']);
  assert.deepEqual(agent.requests.map((r) => r.request?.path), ['//admin/users', '//admin/users', '/admin/users']);
});
