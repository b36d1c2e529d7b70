import { test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { PeerClient } from './ops-client.js';
import { OpsServer } from './ops-server.js';
import { MAX_BATCH, MAX_KEY, type OpResult } from './ops.js';
import { HarnessProcess } from '../testing/harness-client.js';

const PARAMS = { capacity: 10, fillAmount: 10, intervalMs: 1000, continuousFill: true };

/** Blocks this thread for `ms` without spinning (a long event-loop turn, as on a starved machine). */
function blockFor(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

test('an answer already waiting when the deadline timer fires wins over the timer', async (t) => {
  // the peer runs in its own process, so it answers while this thread is blocked
  const peer = new HarnessProcess({ id: 'peer', group: 'g' });
  t.after(async () => {
    peer.kill();
    await peer.exited();
  });
  const { opsAddr } = await peer.started();
  const client = new PeerClient(opsAddr);
  t.after(() => client.close());
  assert.deepEqual(await client.call({ o: 'ping' }, 5000), { done: true }); // connected
  const pending = client.call({ o: 'ping' }, 50);
  // the batch leaves at the next turn; the answer arrives while this turn blocks past the deadline
  await new Promise((r) => setImmediate(r));
  blockFor(300);
  assert.deepEqual(await pending, { done: true });
});

test('a peer that never answers fails the call with a timeout after its deadline', async (t) => {
  const silent = net.createServer((s) => s.on('data', () => undefined));
  await new Promise<void>((r) => silent.listen(0, '127.0.0.1', () => r()));
  const client = new PeerClient(`127.0.0.1:${(silent.address() as net.AddressInfo).port}`);
  t.after(async () => {
    client.close();
    await new Promise<void>((r) => silent.close(() => r()));
  });
  const started = Date.now();
  await assert.rejects(client.call({ o: 'ping' }, 80), (e: { code?: string }) => e.code === 'SLUICE_ERR_DISTCACHE_TIMEOUT');
  const took = Date.now() - started;
  assert.ok(took >= 75 && took < 2000, `failed after ${took} ms`);
});

/** An operations server in this process whose pings answer after `delayMs`. */
async function slowServer(t: { after: (fn: () => Promise<void>) => void }, delayMs: number, onMalformed?: () => void): Promise<string> {
  const server = new OpsServer({
    handler: (op) => (op.o === 'ping' ? new Promise<OpResult>((r) => setTimeout(() => r({ done: true }), delayMs)) : { rem: 1 }),
    onMalformed,
  });
  const port = await server.listen('127.0.0.1', 0);
  t.after(() => server.close());
  return `127.0.0.1:${port}`;
}

test('each call of a batch keeps its own deadline: a short one fails, a long one gets its answer', async (t) => {
  const client = new PeerClient(await slowServer(t, 150));
  t.after(() => client.close());
  const short = client.call({ o: 'ping' }, 40);
  const long = client.call({ o: 'ping' }, 5000);
  await assert.rejects(short, (e: { code?: string }) => e.code === 'SLUICE_ERR_DISTCACHE_TIMEOUT');
  assert.deepEqual(await long, { done: true });
});

test('calls of one turn leave as one batch; past MAX_BATCH they are split and all answered', async (t) => {
  const sizes: number[] = [];
  const client = new PeerClient(await slowServer(t, 0), { onBatch: (n) => sizes.push(n) });
  t.after(() => client.close());
  const n = MAX_BATCH + 10;
  const rs = await Promise.all(Array.from({ length: n }, (_, i) => client.call({ o: 'consume', k: `lim|${i}`, n: 1, p: PARAMS }, 10_000)));
  assert.equal(rs.length, n);
  assert.ok(rs.every((r) => 'rem' in r && r.rem === 1));
  assert.deepEqual(sizes, [MAX_BATCH, 10]);
});

test('an operation whose key cannot travel fails alone with a typed error; its batch still goes', async (t) => {
  const client = new PeerClient(await slowServer(t, 0));
  t.after(() => client.close());
  const bad = client.call({ o: 'take', k: 'k'.repeat(MAX_KEY + 1), n: 1, p: PARAMS }, 5000);
  const good = client.call({ o: 'read', k: 'lim|a' }, 5000);
  await assert.rejects(bad, (e: { code?: string }) => e.code === 'SLUICE_ERR_DISTCACHE_BAD_OPERATION');
  assert.deepEqual(await good, { rem: 1 });
});

test('a malformed answer closes the connection and fails the calls in flight', async (t) => {
  const garbage = net.createServer((s) => s.once('data', () => s.write(Buffer.from([0, 0, 0, 3, 9, 9, 9]))));
  await new Promise<void>((r) => garbage.listen(0, '127.0.0.1', () => r()));
  const client = new PeerClient(`127.0.0.1:${(garbage.address() as net.AddressInfo).port}`);
  t.after(async () => {
    client.close();
    await new Promise<void>((r) => garbage.close(() => r()));
  });
  await assert.rejects(client.call({ o: 'ping' }, 5000), (e: { code?: string }) => e.code === 'SLUICE_ERR_DISTCACHE_PEER_UNAVAILABLE');
});

test('the server refuses a malformed frame: counted, connection closed', async (t) => {
  let malformed = 0;
  const addr = await slowServer(t, 0, () => void malformed++);
  const [host, port] = [addr.split(':')[0], Number(addr.split(':')[1])];
  const s = net.connect({ host, port });
  t.after(() => void s.destroy());
  const closed = new Promise<void>((r) => s.on('close', () => r()));
  s.on('error', () => undefined);
  s.write(Buffer.from([0, 0, 0, 2, 1, 2]));
  await closed;
  assert.equal(malformed, 1);
});

test('a closed client fails the calls of the batch not yet sent, and later calls', async (t) => {
  const client = new PeerClient(await slowServer(t, 0));
  const pending = client.call({ o: 'ping' }, 5000);
  client.close();
  await assert.rejects(pending, (e: { code?: string }) => e.code === 'SLUICE_ERR_DISTCACHE_CLOSED');
  await assert.rejects(client.call({ o: 'ping' }, 5000), (e: { code?: string }) => e.code === 'SLUICE_ERR_DISTCACHE_CLOSED');
});
