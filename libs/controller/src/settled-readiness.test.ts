import { test } from 'node:test';
import assert from 'node:assert/strict';
import { settledReadinessJob } from './settled-readiness.js';
import { MemoryEtcd } from './test-support.js';

test('a readiness run made while etcd is connecting waits for the first outcome, bounded', async () => {
  const etcd = new MemoryEtcd();
  etcd.setState('connecting');
  const job = settledReadinessJob(etcd, { name: 'etcd', run: () => ({ healthy: etcd.state() === 'connected', message: etcd.state() }) }, 1000);
  setTimeout(() => etcd.setState('connected'), 50);
  const started = Date.now();
  assert.deepEqual(await job.run(new AbortController().signal), { healthy: true, message: 'connected' });
  assert.ok(Date.now() - started < 900);
  etcd.setState('connecting');
  const slow = Date.now();
  assert.deepEqual(await job.run(new AbortController().signal), { healthy: false, message: 'connecting' });
  assert.ok(Date.now() - slow >= 950, 'gives up after the wait');
  etcd.setState('unavailable');
  const quick = Date.now();
  await job.run(new AbortController().signal);
  assert.ok(Date.now() - quick < 50, 'no wait once settled');
});
