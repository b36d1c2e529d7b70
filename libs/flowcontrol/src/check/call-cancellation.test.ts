// The cancel signal of a call is made only when a limiter reads it: a check decided at once allocates
// no AbortController and leaves no 'cancelled' listener on its call.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { CallCancellation } from './call-cancellation.js';
import { Engine } from './engine.js';
import type { DecideContext, Limiter, LimiterResult } from './component.js';
import { TEST_KINDS } from '../testing/test-support.js';

class FakeCall extends EventEmitter {
  cancelled = false;
}

function limiter(read: boolean, seen: DecideContext[]): Limiter {
  return {
    kind: TEST_KINDS.rate_limiter,
    identity: { policy_name: 'p', policy_hash: 'h', component_id: read ? 'reads' : 'ignores' },
    decide: (_labels, ctx): LimiterResult => {
      seen.push(ctx);
      if (read) assert.equal(ctx.signal?.aborted, false);
      return { accepted: true, waitMs: 0 };
    },
  };
}

test('CallCancellation: no listener until the signal is read; then the call\'s cancel aborts it', () => {
  const call = new FakeCall();
  const c = new CallCancellation(call);
  assert.equal(call.listenerCount('cancelled'), 0);
  const signal = c.signal;
  assert.equal(signal.aborted, false);
  assert.equal(c.signal, signal, 'one signal per call');
  assert.equal(call.listenerCount('cancelled'), 1);
  call.emit('cancelled');
  assert.equal(signal.aborted, true);
});

test('CallCancellation: a call cancelled before the read gives an aborted signal and no listener', () => {
  const call = new FakeCall();
  call.cancelled = true;
  const c = new CallCancellation(call);
  assert.equal(c.signal.aborted, true);
  assert.equal(call.listenerCount('cancelled'), 0);
});

test('engine: a check whose limiters never read the signal leaves the call untouched', () => {
  const engine = new Engine();
  const seen: DecideContext[] = [];
  engine.register(limiter(false, seen), { control_point: 'cp' });
  const call = new FakeCall();
  const d = engine.check({ controlPoint: 'cp', labels: {}, services: [] }, new CallCancellation(call));
  assert.ok(!(d instanceof Promise) && d.accepted);
  assert.equal(seen.length, 1);
  assert.equal(call.listenerCount('cancelled'), 0, 'no AbortController was made');
});

test('engine: a limiter that reads the signal gets the call\'s, aborted by its cancel', () => {
  const engine = new Engine();
  const seen: DecideContext[] = [];
  engine.register(limiter(true, seen), { control_point: 'cp' });
  const call = new FakeCall();
  engine.check({ controlPoint: 'cp', labels: {}, services: [] }, new CallCancellation(call));
  assert.equal(call.listenerCount('cancelled'), 1);
  call.emit('cancelled');
  assert.equal(seen[0].signal?.aborted, true);
});

test('engine: a plain AbortSignal still reaches the limiters, and no signal is undefined', () => {
  const engine = new Engine();
  const seen: DecideContext[] = [];
  engine.register(limiter(false, seen), { control_point: 'cp' });
  const controller = new AbortController();
  engine.check({ controlPoint: 'cp', labels: {}, services: [] }, controller.signal);
  engine.check({ controlPoint: 'cp', labels: {}, services: [] });
  assert.equal(seen[0].signal, controller.signal);
  assert.equal(seen[1].signal, undefined);
});
