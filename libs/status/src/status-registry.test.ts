import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JobGroup } from '@sluice/jobs';
import { StatusRegistry } from './status-registry.js';

test('entries are kept per path and summarized per subtree', () => {
  const r = new StatusRegistry();
  r.set('liveness/service/a', { healthy: true });
  r.set('liveness/watchdog/heap', { healthy: false, message: 'usage past last watermark' });
  r.set('readiness/service/listen', { healthy: true, message: 'listening' });
  assert.equal(r.get('liveness/service/a')?.message, 'ok');
  assert.equal(r.isHealthy('readiness'), true);
  assert.equal(r.isHealthy('liveness'), false);
  assert.equal(r.isHealthy('liveness/service'), true);
  assert.equal(r.isHealthy(), false);
  const s = r.summary('liveness');
  assert.deepEqual(Object.keys(s.entries), ['liveness/service/a', 'liveness/watchdog/heap']);
  assert.deepEqual(s.failing, [{ path: 'liveness/watchdog/heap', message: 'usage past last watermark' }]);
});

test('a prefix only matches whole segments, and an empty subtree is healthy', () => {
  const r = new StatusRegistry();
  r.set('liveness2/x', { healthy: false });
  assert.equal(r.isHealthy('liveness'), true);
  assert.equal(r.list('liveness').length, 0);
});

test('delete removes a subtree and notifies subscribers', () => {
  const r = new StatusRegistry();
  const changes: Array<[string, boolean | undefined]> = [];
  const off = r.subscribe((path, status) => changes.push([path, status?.healthy]));
  r.set('readiness/a', { healthy: false });
  r.set('readiness/b/c', { healthy: true });
  assert.equal(r.delete('readiness'), 2);
  assert.equal(r.get('readiness/a'), undefined);
  off();
  r.set('readiness/d', { healthy: true });
  assert.deepEqual(changes, [['readiness/a', false], ['readiness/b/c', true], ['readiness/a', undefined], ['readiness/b/c', undefined]]);
});

test('bad paths and statuses are refused', () => {
  const r = new StatusRegistry();
  for (const bad of ['', '/a', 'a/', 'a//b', 'a b', 'a/é']) {
    assert.throws(() => r.set(bad, { healthy: true }), /path/, bad);
  }
  assert.throws(() => r.set('a', { healthy: 'yes' as unknown as boolean }), /healthy must be a boolean/);
});

test('jobListener files job results under the prefix', async () => {
  const r = new StatusRegistry();
  const group = new JobGroup('readiness', { blocking_execution: false, worker_limit: 0 }, r.jobListener('readiness/service'));
  group.register({ name: 'db', run: () => { throw new Error('connection refused'); } }, { execution_period: '0s', execution_timeout: '1s', initially_healthy: true });
  assert.equal(r.get('readiness/service/db')?.healthy, true);
  await group.trigger('db');
  assert.equal(r.get('readiness/service/db')?.healthy, false);
  assert.equal(r.get('readiness/service/db')?.message, 'connection refused');
});
