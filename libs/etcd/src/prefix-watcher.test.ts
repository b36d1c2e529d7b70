// A watcher while etcd is unavailable: it retries UNAVAILABLE_SLOWDOWN times more slowly than its
// backoff (the lease loop probes), and resynchronises as soon as the state turns connected.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Registry } from 'prom-client';
import type { Etcd3 } from 'etcd3';
import { Backoff } from '@sluice/clients';
import { ConnectionState } from './connection-state.js';
import { etcdMetrics } from './metrics.js';
import { PrefixWatcher, UNAVAILABLE_SLOWDOWN } from './prefix-watcher.js';

/** An etcd3 client whose every full get fails as an unreachable etcd does, counting the attempts. */
function unreachableClient(): { client: Etcd3; gets: () => number } {
  let gets = 0;
  const client = {
    getAll: () => ({
      prefix: () => ({
        exec: () => {
          gets++;
          return Promise.reject(new Error('14 UNAVAILABLE: No connection established. Last error: connect ECONNREFUSED 127.0.0.1:2379'));
        },
      }),
    }),
  };
  return { client: client as unknown as Etcd3, gets: () => gets };
}

async function until(cond: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

test('an unavailable etcd is retried by a watcher at its slowed backoff, and resynchronised at once when reached again', async (t) => {
  const metrics = etcdMetrics(new Registry());
  const state = new ConnectionState(metrics, undefined, ['http://127.0.0.1:2379']);
  const { client, gets } = unreachableClient();
  const backoffMs = 1000;
  const handler = { reset: () => undefined, put: () => undefined, delete: () => undefined };
  const w = new PrefixWatcher({
    client, prefix: '/p/', handler, state, metrics,
    backoff: new Backoff({ base_delay: `${backoffMs}ms`, multiplier: 1, jitter: 0, max_delay: `${backoffMs}ms` }),
  });
  t.after(() => w.shutdown());
  await until(() => gets() === 1, 5000);
  assert.equal(state.get(), 'unavailable', 'the failed get made the state unavailable');
  // The plain backoff would have retried after 1 s; the slowed one waits UNAVAILABLE_SLOWDOWN s.
  await new Promise((r) => setTimeout(r, 1.5 * backoffMs));
  assert.equal(gets(), 1, `no retry within ${1.5 * backoffMs} ms (slowed to ${UNAVAILABLE_SLOWDOWN * backoffMs} ms)`);
  // Reached again (as the lease loop finds out): the watcher tries at once, well before its slowed retry.
  state.ok();
  await until(() => gets() === 2, (UNAVAILABLE_SLOWDOWN - 2) * backoffMs);
});

test('a stopped watcher no longer follows the state', async () => {
  const metrics = etcdMetrics(new Registry());
  const state = new ConnectionState(metrics, undefined, ['http://127.0.0.1:2379']);
  const { client, gets } = unreachableClient();
  const handler = { reset: () => undefined, put: () => undefined, delete: () => undefined };
  const w = new PrefixWatcher({ client, prefix: '/p/', handler, state, metrics, backoff: new Backoff({ base_delay: '1s', multiplier: 1, jitter: 0, max_delay: '1s' }) });
  await until(() => gets() === 1, 5000);
  await w.shutdown();
  await w.done;
  state.ok();
  await new Promise((r) => setTimeout(r, 100));
  assert.equal(gets(), 1);
});
