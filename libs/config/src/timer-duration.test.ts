import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InvalidArgumentError } from '@sluice/errors';
import { MAX_TIMER_MS, timerDurationMs } from './timer-duration.js';

test('durations become timer delays, capped where Node timers stop working', () => {
  assert.equal(timerDurationMs('10s', 'x'), 10_000);
  assert.equal(timerDurationMs('0s', 'x'), 0);
  assert.equal(timerDurationMs('-1s', 'x'), -1000);
  assert.equal(timerDurationMs('720h', 'x'), MAX_TIMER_MS);
  assert.equal(timerDurationMs('2562047h', 'x'), MAX_TIMER_MS);
  assert.throws(() => timerDurationMs('soon', 'liveness.service.execution_period'),
    (e: unknown) => e instanceof InvalidArgumentError && e.field === 'liveness.service.execution_period' && /invalid duration "soon"/.test(e.message));
});
