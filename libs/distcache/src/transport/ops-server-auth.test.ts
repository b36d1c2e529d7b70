import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { PeerClient } from './ops-client.js';
import { OpsServer, type OpsRefusal } from './ops-server.js';
import { RequestEncoder, type Op } from './ops.js';
import { FrameBuilder, encodeFrame } from './frame.js';
import { HelloVerifier, Keyring } from './auth/index.js';

const KEY = new Keyring([Buffer.from('the-group-key-0123456789')]);
const OTHER = new Keyring([Buffer.from('another-key-0123456789ab')]);
const PARAMS = { capacity: 5, fillAmount: 5, intervalMs: 60_000, continuousFill: false };

async function server(t: TestContext, o: { auth?: boolean; maxConnections?: number; idleTimeoutMs?: number; frameTimeoutMs?: number } = {}) {
  const handled: Op[] = [];
  const refused: OpsRefusal[] = [];
  const s = new OpsServer({
    handler: (op) => {
      handled.push(op);
      return op.o === 'take' ? { ok: true, rem: 4, cur: 5, wait: 0 } : { done: true };
    },
    onRefused: (why) => refused.push(why),
    auth: o.auth === false ? undefined : new HelloVerifier(KEY),
    maxConnections: o.maxConnections,
    idleTimeoutMs: o.idleTimeoutMs,
    frameTimeoutMs: o.frameTimeoutMs,
  });
  const port = await s.listen('127.0.0.1', 0);
  t.after(() => s.close());
  return { s, port, handled, refused, addr: `127.0.0.1:${port}` };
}

/** One unsigned batch frame, as a process without the key would send it. */
function rawBatch(op: Op): Buffer {
  const out = new FrameBuilder(256);
  const enc = new RequestEncoder(out);
  enc.begin();
  enc.add(op);
  enc.finish(1);
  return out.take();
}

function closed(sock: net.Socket): Promise<void> {
  return new Promise((resolve) => (sock.destroyed ? resolve() : sock.once('close', () => resolve())));
}

async function connect(port: number): Promise<net.Socket> {
  const sock = net.connect({ host: '127.0.0.1', port });
  sock.on('error', () => undefined);
  await new Promise((r) => sock.once('connect', r));
  return sock;
}

test('with a key, a client holding it is served and frames of anyone else never reach the handler', async (t) => {
  const srv = await server(t);
  const good = new PeerClient(srv.addr, { keys: KEY });
  t.after(() => good.close());
  assert.deepEqual(await good.call({ o: 'take', k: 'l|a', n: 1, p: PARAMS }, 2000), { ok: true, rem: 4, cur: 5, wait: 0 });
  assert.deepEqual(await good.call({ o: 'ping' }, 2000), { done: true });

  // no hello: a `give` straight away is refused and the connection closed
  const raw = await connect(srv.port);
  raw.write(rawBatch({ o: 'give', k: 'l|a', n: 5, p: PARAMS }));
  await closed(raw);
  // another key
  const wrong = new PeerClient(srv.addr, { keys: OTHER });
  t.after(() => wrong.close());
  await assert.rejects(wrong.call({ o: 'give', k: 'l|a', n: 5, p: PARAMS }, 2000));
  // no key at all
  const none = new PeerClient(srv.addr);
  t.after(() => none.close());
  await assert.rejects(none.call({ o: 'take', k: 'l|b', n: 1, p: PARAMS }, 2000));
  assert.deepEqual(srv.handled.map((o) => o.o), ['take', 'ping']);
  assert.ok(srv.refused.filter((r) => r === 'auth').length >= 3, srv.refused.join());
});

test('a recorded authenticated connection played again is refused', async (t) => {
  const srv = await server(t);
  const recorded: Buffer[] = [];
  const tap = net.createServer((inbound) => {
    const up = net.connect({ host: '127.0.0.1', port: srv.port });
    inbound.on('data', (d: Buffer) => {
      recorded.push(Buffer.from(d));
      up.write(d);
    });
    up.on('data', (d: Buffer) => inbound.write(d));
    inbound.on('error', () => up.destroy());
    up.on('error', () => inbound.destroy());
    inbound.on('close', () => up.destroy());
  });
  await new Promise<void>((r) => tap.listen(0, '127.0.0.1', () => r()));
  t.after(() => new Promise<void>((r) => tap.close(() => r())));
  const c = new PeerClient(`127.0.0.1:${(tap.address() as net.AddressInfo).port}`, { keys: KEY });
  assert.deepEqual(await c.call({ o: 'take', k: 'l|a', n: 1, p: PARAMS }, 2000), { ok: true, rem: 4, cur: 5, wait: 0 });
  c.close();
  const before = srv.handled.length;
  const replay = await connect(srv.port);
  replay.write(Buffer.concat(recorded));
  await closed(replay);
  assert.equal(srv.handled.length, before, 'the replayed take ran again');
  assert.ok(srv.refused.includes('replay'), srv.refused.join());
});

test('a frame announced larger than a hello before authenticating is refused at once (no 4 MiB buffered per stranger)', async (t) => {
  const srv = await server(t);
  const sock = await connect(srv.port);
  const head = Buffer.alloc(4);
  head.writeUInt32BE(4 * 1024 * 1024 - 1);
  sock.write(head);
  await closed(sock);
});

test('idle connections are closed after the idle timeout; a frame left unfinished after the frame timeout', async (t) => {
  const srv = await server(t, { auth: false, idleTimeoutMs: 200, frameTimeoutMs: 200 });
  const idle = await connect(srv.port);
  await closed(idle);
  const truncated = await connect(srv.port);
  const frame = encodeFrame(Buffer.alloc(64, 1));
  truncated.write(frame.subarray(0, 20));
  // keep it from being idle: a byte now and then, never the rest of the frame
  const drip = setInterval(() => truncated.write(Buffer.alloc(1, 1)), 50);
  t.after(() => clearInterval(drip));
  await closed(truncated);
  clearInterval(drip);
  assert.ok(srv.refused.includes('idle'), srv.refused.join());
  assert.ok(srv.refused.includes('truncated'), srv.refused.join());
});

test('connections past max_connections are closed as they come; those served stay served', async (t) => {
  const srv = await server(t, { auth: false, maxConnections: 3 });
  const held = [await connect(srv.port), await connect(srv.port), await connect(srv.port)];
  t.after(() => held.forEach((s) => s.destroy()));
  const extra = await connect(srv.port);
  await closed(extra);
  assert.equal(srv.s.connections, 3);
  assert.ok(srv.refused.includes('limit'));
  held[0].destroy();
  await new Promise((r) => setTimeout(r, 50));
  const c = new PeerClient(srv.addr);
  t.after(() => c.close());
  assert.deepEqual(await c.call({ o: 'ping' }, 2000), { done: true });
});

test('a client closes its own idle connection before the server would, and the next call reconnects', async (t) => {
  const srv = await server(t, { auth: true, idleTimeoutMs: 5000 });
  const c = new PeerClient(srv.addr, { keys: KEY, idleMs: 150 });
  t.after(() => c.close());
  assert.deepEqual(await c.call({ o: 'ping' }, 2000), { done: true });
  await new Promise((r) => setTimeout(r, 400));
  assert.equal(srv.s.connections, 0, 'the idle connection is still open');
  assert.ok(!srv.refused.includes('idle'), 'the server had to close it');
  assert.deepEqual(await c.call({ o: 'ping' }, 2000), { done: true });
});
