import { test } from 'node:test';
import assert from 'node:assert/strict';
import { boundedShutdown, onceShutdown } from './bounded-shutdown.js';
import { ShutdownDeadlineError } from './contract.js';

test('a second shutdown returns the first call\'s promise and runs the work once', async () => {
  let runs = 0;
  const shutdown = onceShutdown('watcher', async () => { runs++; await new Promise((r) => setTimeout(r, 20)); });
  const first = shutdown();
  const second = shutdown({ deadlineMs: 1 });
  assert.equal(second, first);
  await first;
  await shutdown();
  assert.equal(runs, 1);
});

test('the work is told the caller\'s deadline, or the default when none is given', async () => {
  const seen: number[] = [];
  await onceShutdown('a', (ms) => { seen.push(ms); }, 1234)();
  await onceShutdown('b', (ms) => { seen.push(ms); }, 1234)({ deadlineMs: 50 });
  assert.deepEqual(seen, [1234, 50]);
});

test('work that never finishes is bounded: it rejects with a ShutdownDeadlineError naming the component', async () => {
  const shutdown = onceShutdown('etcd session', () => new Promise<void>(() => {}));
  const t0 = Date.now();
  await assert.rejects(shutdown({ deadlineMs: 60 }), (err: unknown) => {
    assert.ok(err instanceof ShutdownDeadlineError);
    assert.equal(err.component, 'etcd session');
    assert.equal(err.deadlineMs, 60);
    assert.match(err.message, /etcd session: shutdown did not finish within 60 ms/);
    return true;
  });
  assert.ok(Date.now() - t0 < 5000, 'settled long before a hang would');
  // Still idempotent after the deadline: the same rejection, not a second run.
  await assert.rejects(shutdown(), ShutdownDeadlineError);
});

test('a synchronous throw becomes a rejection and the error is kept', async () => {
  const shutdown = onceShutdown('server', () => { throw new Error('socket in a bad state'); });
  await assert.rejects(shutdown(), /socket in a bad state/);
});

test('work that forces what is left at its deadline and ends a moment after it is not counted as overdue', async () => {
  // The part is told 50 ms, forces its close then, and that takes a few more milliseconds.
  await onceShutdown('server', (ms) => new Promise<void>((r) => setTimeout(() => setTimeout(r, 20), ms)))({ deadlineMs: 50 });
});

test('work that finishes in time resolves and leaves no timer behind', async () => {
  await boundedShutdown('fast', async () => {}, 60_000);
  // The 60 s timer was cleared: if it were not, this test file would not end until it fired.
});
