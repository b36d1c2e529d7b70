import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultConfig, startEchoServer } from './test-support.js';

test('inject runs a request through the routes in process: JSON both ways, errors in the gateway shape', async (t) => {
  const s = await startEchoServer(defaultConfig(), (server) => {
    server.app.post('/echo-body', (req, res) => {
      let text = '';
      req.on('data', (c: Buffer) => { text += c.toString(); });
      req.on('end', () => res.json({ got: JSON.parse(text) as unknown }));
    });
  });
  t.after(() => s.server.shutdown({ deadlineMs: 2000 }));
  assert.deepEqual(await s.server.inject({ method: 'GET', path: '/hello' }), { status: 200, body: { hello: 'world' } });
  assert.deepEqual(await s.server.inject({ method: 'POST', path: '/echo-body', body: { a: [1, 'é'] } }), { status: 200, body: { got: { a: [1, 'é'] } } });
  const missing = await s.server.inject({ method: 'GET', path: '/nothing?x=1' });
  assert.equal(missing.status, 404);
  assert.equal((missing.body as { code: number }).code, 5);
  // Many at once: each its own in-memory connection.
  const all = await Promise.all(Array.from({ length: 50 }, () => s.server.inject({ method: 'GET', path: '/hello' })));
  assert.ok(all.every((r) => r.status === 200));
});

test('an injected request passes bearer-token authentication; a network request without a token does not', async (t) => {
  const tokens = join(mkdtempSync(join(tmpdir(), 'sluice-inject-')), 'tokens');
  writeFileSync(tokens, 'secret-token\n');
  const config = { ...defaultConfig(), auth: { token_file: tokens } };
  const s = await startEchoServer(config);
  t.after(() => s.server.shutdown({ deadlineMs: 2000 }));
  assert.equal((await fetch(`${s.base}/hello`)).status, 401, 'the network needs the token');
  assert.deepEqual(await s.server.inject({ method: 'GET', path: '/hello' }), { status: 200, body: { hello: 'world' } });
  // A header cannot forge the in-process mark.
  assert.equal((await fetch(`${s.base}/hello`, { headers: { 'x-sluice-internal': 'true' } })).status, 401);
});
