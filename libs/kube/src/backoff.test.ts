import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Backoff } from './backoff.js';

test('backoff doubles from the initial delay up to the maximum, with jitter in the upper half, and resets', () => {
  const b = new Backoff({ initialMs: 100, maxMs: 1000, random: () => 1 });
  assert.deepEqual([b.next(), b.next(), b.next(), b.next(), b.next(), b.next()], [100, 200, 400, 800, 1000, 1000]);
  b.reset();
  assert.equal(b.next(), 100);
  const low = new Backoff({ initialMs: 100, maxMs: 1000, random: () => 0 });
  assert.deepEqual([low.next(), low.next()], [50, 100]);
  assert.equal(low.attempts, 2);
});
