import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { createStaticDiscovery } from '@sluice/discovery';
import { Engine } from '../check/engine.js';
import { applyLocalLimiters } from '../local-limiters/apply-local-limiters.js';
import { loadLocalLimiters } from '../local-limiters/local-limiters-config.js';
import { registerFlowControlServices } from '../services/register-services.js';
import { startTestServer } from '../testing/test-support.js';

const check = (extra: Record<string, unknown> = {}) => ({
  control_point: 'ingress',
  source: { address: '10.9.9.9', port: 51000, protocol: 'TCP' },
  destination: { address: '10.1.2.3', port: 8080 },
  request: { method: 'GET', path: '/a', host: 'web', scheme: 'http', size: 0, protocol: 'HTTP/1.1', headers: { 'x-user': 'u1' } },
  ...extra,
});

async function setup(t: TestContext, limiters = '- { control_point: ingress, bucket_capacity: 2, fill_amount: 1, interval: 1h }') {
  const engine = new Engine();
  applyLocalLimiters(engine, loadLocalLimiters(limiters));
  const discovery = createStaticDiscovery({ entities: [{ ip_address: '10.1.2.3', uid: 'web', services: ['web-svc'] }] });
  const s = await startTestServer((server) => registerFlowControlServices(server, engine, discovery));
  t.after(() => s.server.shutdown({ deadlineMs: 2000 }));
  return s;
}

/** A raw connection that sends `head` and collects what comes back. */
async function open(t: TestContext, port: number, head: string) {
  const socket = net.connect(port, '127.0.0.1');
  t.after(() => socket.destroy());
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  let text = '';
  socket.on('data', (d: Buffer) => { text += d.toString('utf8'); });
  const ended = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.write(head);
  const until = async (pred: (s: string) => boolean, what: string): Promise<string> => {
    const deadline = Date.now() + 10_000;
    while (!pred(text)) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; got ${JSON.stringify(text)}`);
      await new Promise((r) => setTimeout(r, 5));
    }
    return text;
  };
  return { socket, until, ended, text: () => text };
}

const UPGRADE = 'GET /v1/flowcontrol/checkhttp/stream HTTP/1.1\r\nHost: agent\r\nConnection: Upgrade\r\nUpgrade: sluice-checkhttp-ndjson\r\n\r\n';

function answers(text: string): Array<Record<string, unknown>> {
  const body = text.slice(text.indexOf('\r\n\r\n') + 4);
  return body.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as Record<string, unknown>);
}

test('the check stream answers each line by its id, in Aperture\'s CheckHTTPResponse shape, the limiter deciding', async (t) => {
  const s = await setup(t);
  const port = s.server.address().port;
  const lines = [1, 2, 3].map((id) => JSON.stringify({ id, check: check() })).join('\n');
  const c = await open(t, port, `${UPGRADE}${lines}\n`);
  const text = await c.until((x) => answers(x).length === 3, 'three answers');
  assert.match(text, /^HTTP\/1\.1 101 Switching Protocols\r\n/);
  assert.match(text, /\r\nUpgrade: sluice-checkhttp-ndjson\r\n/i);
  const byId = new Map(answers(text).map((a) => [a.id, a]));
  for (const id of [1, 2]) assert.deepEqual((byId.get(id)?.response as { ok_response?: unknown }).ok_response, { headers: {} }, `check ${id} accepted`);
  const denied = (byId.get(3)?.response as { denied_response: { status: number; headers: Record<string, string> }; dynamic_metadata: Record<string, string> });
  assert.equal(denied.denied_response.status, 429, 'the third exceeds the bucket of 2');
  assert.equal(typeof denied.dynamic_metadata['aperture.check_response'], 'string');
  // More checks on the same stream, later.
  c.socket.write(`${JSON.stringify({ id: 4, check: check({ control_point: 'other' }) })}\n`);
  await c.until((x) => answers(x).length === 4, 'the fourth answer');
});

test('bad lines get error lines (the field named), and the stream goes on', async (t) => {
  const s = await setup(t);
  const c = await open(t, s.server.address().port, UPGRADE);
  await c.until((x) => x.includes('\r\n\r\n'), 'the 101');
  c.socket.write('not json\n{"check":{}}\n');
  c.socket.write(`${JSON.stringify({ id: 7, check: check({ control_point: 5 }) })}\n`);
  c.socket.write(`${JSON.stringify({ id: 8, check: check({ request: { method: 7 } }) })}\n`);
  c.socket.write(`${JSON.stringify({ id: 9, check: check() })}\n`);
  const all = answers(await c.until((x) => answers(x).length === 5, 'five answers'));
  const errors = all.filter((a) => a.error !== undefined);
  assert.equal(errors.length, 4);
  assert.match(JSON.stringify(errors.filter((a) => a.id === undefined).map((a) => a.error)), /not JSON.*needs a whole-number/);
  const e7 = all.find((a) => a.id === 7)?.error as { code: number; message: string; details: Array<{ field_violations: Array<{ field: string }> }> };
  assert.equal(e7.code, 3);
  assert.equal(e7.details[0]?.field_violations[0]?.field, 'control_point');
  assert.match(JSON.stringify(all.find((a) => a.id === 8)?.error), /request\.method/);
  assert.ok(all.find((a) => a.id === 9)?.response !== undefined, 'a good check after bad ones is answered');
});

test('a line over the bound ends the stream with an error line', async (t) => {
  const s = await setup(t);
  const c = await open(t, s.server.address().port, UPGRADE);
  await c.until((x) => x.includes('\r\n\r\n'), 'the 101');
  c.socket.write(`{"id":1,"check":{"control_point":"${'x'.repeat(1100 * 1024)}`);
  await c.ended;
  assert.match(answers(c.text()).map((a) => JSON.stringify(a.error)).join(), /over 1048576 bytes/);
});

test('another path or protocol is refused with 404 in the gateway\'s error shape; plain HTTP routes are untouched', async (t) => {
  const s = await setup(t);
  const port = s.server.address().port;
  const wrongProtocol = await open(t, port, UPGRADE.replace('Upgrade: sluice-checkhttp-ndjson', 'Upgrade: websocket'));
  await wrongProtocol.ended;
  assert.match(wrongProtocol.text(), /^HTTP\/1\.1 404 Not Found\r\n/);
  assert.match(wrongProtocol.text(), /"code":5/);
  const wrongPath = await open(t, port, UPGRADE.replace('/checkhttp/stream', '/checkhttp/streams'));
  await wrongPath.ended;
  assert.match(wrongPath.text(), /^HTTP\/1\.1 404 Not Found\r\n/);
  const r = await fetch(`http://127.0.0.1:${port}/v1/flowcontrol/checkhttp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(check()) });
  assert.equal(r.status, 200);
});

test('shutdown ends open check streams instead of waiting for its deadline', async (t) => {
  const s = await setup(t);
  const c = await open(t, s.server.address().port, UPGRADE);
  await c.until((x) => x.includes('\r\n\r\n'), 'the 101');
  const started = Date.now();
  await s.server.shutdown({ deadlineMs: 20_000 });
  await c.ended;
  assert.ok(Date.now() - started < 10_000, `shutdown took ${Date.now() - started} ms`);
});
