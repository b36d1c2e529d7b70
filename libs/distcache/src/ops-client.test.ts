import { test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { PeerClient } from './ops-client.js';
import { HarnessProcess } from './harness-client.js';

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
