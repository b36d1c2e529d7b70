import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Lifecycle, StartupError } from './lifecycle.js';
import type { Component } from './component.js';

function recorder(events: string[], name: string, opts: { failStart?: boolean; slowStopMs?: number } = {}): Component {
  return {
    name,
    start() {
      if (opts.failStart) throw new Error('port taken');
      events.push(`start ${name}`);
    },
    async shutdown() {
      if (opts.slowStopMs) await new Promise((r) => setTimeout(r, opts.slowStopMs));
      events.push(`stop ${name}`);
    },
  };
}

test('starts in order and stops in reverse', async () => {
  const events: string[] = [];
  const lc = new Lifecycle().add(recorder(events, 'a')).add(recorder(events, 'b')).add(recorder(events, 'c'));
  await lc.start();
  await lc.shutdown(1000);
  assert.deepEqual(events, ['start a', 'start b', 'start c', 'stop c', 'stop b', 'stop a']);
  await lc.shutdown(1000);
  assert.equal(events.length, 6, 'a second shutdown does nothing');
});

test('a failed start stops what started and names the component', async () => {
  const events: string[] = [];
  const lc = new Lifecycle().add(recorder(events, 'a')).add(recorder(events, 'server', { failStart: true })).add(recorder(events, 'c'));
  await assert.rejects(lc.start(), (err: unknown) => err instanceof StartupError && err.component === 'server' && /port taken/.test(err.message));
  assert.deepEqual(events, ['start a', 'stop a']);
});

test('a component past the deadline does not hold the others', async () => {
  const events: string[] = [];
  const lc = new Lifecycle().add(recorder(events, 'a')).add(recorder(events, 'slow', { slowStopMs: 5000 }));
  await lc.start();
  const t0 = Date.now();
  await lc.shutdown(200);
  assert.ok(Date.now() - t0 < 2000, 'shutdown bounded by its deadline');
  assert.ok(events.includes('stop a'));
});
