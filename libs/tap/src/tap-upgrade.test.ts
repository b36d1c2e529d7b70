import assert from 'node:assert/strict';
import net from 'node:net';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { silentLogger } from './logger.js';
import { startTap } from './tap.js';
import { ACCEPT } from './testing/canned-agent.js';
import { send, startTestAgent, startTestTap, startUpstream, TEST_OPTIONS } from './testing/fixture.js';

const HANDSHAKE = 'GET /chat HTTP/1.1\r\nHost: app\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n';

function connect(port: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const s = net.connect(port, '127.0.0.1', () => resolve(s));
    s.once('error', reject);
  });
}

/** Reads from `socket` (as latin1, one char per byte) until it received text ending with `tail`. */
function readUntil(socket: net.Socket, tail: string, sofar = { text: '' }): Promise<string> {
  return new Promise((resolve, reject) => {
    if (sofar.text.endsWith(tail)) { resolve(sofar.text); return; }
    const onData = (d: Buffer): void => {
      sofar.text += d.toString('latin1');
      if (sofar.text.endsWith(tail)) { socket.off('data', onData); socket.off('end', onEnd); resolve(sofar.text); }
    };
    const onEnd = (): void => { socket.off('data', onData); reject(new Error(`ended before ${JSON.stringify(tail)}: ${JSON.stringify(sofar.text)}`)); };
    socket.on('data', onData);
    socket.once('end', onEnd);
  });
}

test('an Upgrade passes through after the agent agrees: 101, then bytes both ways untouched', async (t) => {
  let upgradeHeaders: Record<string, string | string[] | undefined> = {};
  const upstream = await startUpstream(t, (_req, res) => res.end('plain'));
  upstream.server.on('upgrade', (req, socket) => {
    upgradeHeaders = req.headers;
    socket.write('HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n');
    socket.write(Buffer.from([0x81, 0x02, 0x68, 0x69])); // server speaks first: a text frame "hi"
    socket.on('data', (d: Buffer) => socket.write(Buffer.concat([Buffer.from('echo:'), d])));
  });
  const agent = await startTestAgent(t, () => ({ response: { http_response: 'ok_response', ok_response: { headers: [{ key: 'baggage', value: 'tier=1' }] } } }));
  const { tap } = await startTestTap(t, upstream, agent.address);

  const socket = await connect(tap.address.port);
  t.after(() => socket.destroy());
  const got = { text: '' };
  socket.write(HANDSHAKE);
  const head = await readUntil(socket, '\r\n\r\n\x81\x02hi', got);
  assert.match(head, /^HTTP\/1\.1 101 Switching Protocols\r\n/);
  assert.match(head, /\r\nSec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK\+xOo=\r\n/);
  assert.equal(upgradeHeaders.upgrade, 'websocket');
  assert.equal(upgradeHeaders['sec-websocket-key'], 'dGhlIHNhbXBsZSBub25jZQ==');
  assert.equal(upgradeHeaders.baggage, 'tier=1');
  assert.equal(upgradeHeaders['x-forwarded-for'], '127.0.0.1');
  socket.write(Buffer.from([0x00, 0xff, 0x10]));
  await readUntil(socket, 'echo:\x00\xff\x10', got);
  assert.equal(agent.requests.length, 1);
  assert.equal(agent.requests[0]?.request.headers.upgrade, 'websocket');
});

test('a denied Upgrade is answered on the raw socket and closed', async (t) => {
  let upgrades = 0;
  const upstream = await startUpstream(t, (_req, res) => res.end('plain'));
  upstream.server.on('upgrade', (_req, socket) => { upgrades++; socket.destroy(); });
  const agent = await startTestAgent(t, () => ({ response: { http_response: 'denied_response', denied_response: { status: 429, headers: [{ key: 'retry-after', value: '5' }], body: 'busy' } } }));
  const { tap } = await startTestTap(t, upstream, agent.address);
  const socket = await connect(tap.address.port);
  t.after(() => socket.destroy());
  let raw = '';
  socket.on('data', (d: Buffer) => { raw += d.toString(); });
  socket.write(HANDSHAKE);
  await new Promise((resolve) => socket.once('end', resolve));
  assert.match(raw, /^HTTP\/1\.1 429 Too Many Requests\r\n/);
  assert.match(raw, /\r\nretry-after: 5\r\n/);
  assert.match(raw, /\r\n\r\nbusy$/);
  assert.equal(upgrades, 0);
});

test('a workload that declines the Upgrade has its answer relayed', async (t) => {
  const upstream = await startUpstream(t, (_req, res) => { res.writeHead(426, { 'content-type': 'text/plain' }); res.end('use h2'); });
  const agent = await startTestAgent(t);
  const { tap } = await startTestTap(t, upstream, agent.address);
  const socket = await connect(tap.address.port);
  t.after(() => socket.destroy());
  let raw = '';
  socket.on('data', (d: Buffer) => { raw += d.toString(); });
  socket.write(HANDSHAKE);
  await new Promise((resolve) => socket.once('end', resolve));
  assert.match(raw, /^HTTP\/1\.1 426 /);
  assert.match(raw, /\r\n\r\nuse h2$/);
});

test('an Upgrade to a workload that is down gets 502', async (t) => {
  const upstream = await startUpstream(t, (_req, res) => res.end());
  const agent = await startTestAgent(t);
  const { tap } = await startTestTap(t, upstream, agent.address);
  await new Promise((resolve) => upstream.server.close(resolve));
  const socket = await connect(tap.address.port);
  t.after(() => socket.destroy());
  let raw = '';
  socket.on('data', (d: Buffer) => { raw += d.toString(); });
  socket.write(HANDSHAKE);
  await new Promise((resolve) => socket.once('end', resolve));
  assert.match(raw, /^HTTP\/1\.1 502 /);
});

test('an agent answer with headers Node would refuse: the Upgrade and plain requests still go through, without them', async (t) => {
  let upgradeHeaders: Record<string, string | string[] | undefined> = {};
  const upstream = await startUpstream(t, (req, res) => res.end(String(req.headers['x-tier'])));
  upstream.server.on('upgrade', (req, socket) => {
    upgradeHeaders = req.headers;
    socket.write('HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\nready');
  });
  const headers = [{ key: 'bad key', value: 'x' }, { key: 'x-split', value: 'a\r\nb' }, { key: 'x-tier', value: 'gold' }];
  const agent = await startTestAgent(t, () => ({ response: { http_response: 'ok_response', ok_response: { headers } } }));
  const { tap, base } = await startTestTap(t, upstream, agent.address);
  const socket = await connect(tap.address.port);
  t.after(() => socket.destroy());
  socket.write(HANDSHAKE);
  const head = await readUntil(socket, '\r\n\r\nready');
  assert.match(head, /^HTTP\/1\.1 101 /);
  assert.equal(upgradeHeaders['x-tier'], 'gold');
  assert.equal(upgradeHeaders['x-split'], undefined);
  const plain = await send(`${base}/`);
  assert.equal(plain.status, 200);
  assert.equal(plain.text, 'gold');
});

test('a checker that throws: the Upgrade connection is closed, the tap keeps serving', async (t) => {
  let upgrades = 0;
  const upstream = await startUpstream(t, (_req, res) => res.end('plain'));
  upstream.server.on('upgrade', (_req, socket) => { upgrades++; socket.destroy(); });
  const checker = { check: () => Promise.reject(new Error('checker broke')) };
  const tap = await startTap({ ...TEST_OPTIONS, upstream: { host: '127.0.0.1', port: upstream.port }, agent: '127.0.0.1:1' }, { logger: silentLogger, checker });
  t.after(() => tap.shutdown({ deadlineMs: 100 }));
  const socket = await connect(tap.address.port);
  t.after(() => socket.destroy());
  socket.on('error', () => {});
  const closed = new Promise<string>((resolve) => socket.once('close', () => resolve('closed')));
  socket.write(HANDSHAKE);
  assert.equal(await Promise.race([closed, sleep(2000, 'still open')]), 'closed');
  assert.equal(upgrades, 0);
  assert.equal((await send(`http://127.0.0.1:${tap.address.port}/`)).status, 502);
});

test('shutdown ends an Upgrade still waiting for the agent (it held the server open): it is not tunnelled afterwards', async (t) => {
  let upgrades = 0;
  const upstream = await startUpstream(t, (_req, res) => res.end('plain'));
  upstream.server.on('upgrade', (_req, socket) => {
    upgrades++;
    socket.write('HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n');
  });
  const agent = await startTestAgent(t, () => ({ ...ACCEPT, delayMs: 600 }));
  const tap = await startTap({ ...TEST_OPTIONS, upstream: { host: '127.0.0.1', port: upstream.port }, agent: agent.address }, { logger: silentLogger });
  t.after(() => tap.shutdown({ deadlineMs: 100 }));
  const socket = await connect(tap.address.port);
  t.after(() => socket.destroy());
  socket.on('error', () => {});
  const closed = new Promise<string>((resolve) => socket.once('close', () => resolve('closed')));
  socket.write(HANDSHAKE);
  for (let i = 0; i < 100 && agent.requests.length === 0; i++) await sleep(10);
  assert.equal(agent.requests.length, 1);
  assert.equal(await Promise.race([tap.shutdown({ deadlineMs: 50 }).then(() => 'stopped'), sleep(1500, 'stuck')]), 'stopped');
  assert.equal(await Promise.race([closed, sleep(500, 'still open')]), 'closed');
  await sleep(700); // past the agent's answer
  assert.equal(upgrades, 0);
});
