import assert from 'node:assert/strict';
import { test } from 'node:test';
import { KeyedBatcher, type BatchSettings, type BatchTimers } from './alert-batcher.js';

/** Timers that fire only when the test says so. */
function fakeTimers() {
  const armed = new Map<number, { fn: () => void; ms: number }>();
  let next = 1;
  const timers: BatchTimers = {
    setTimeout: (fn, ms) => { armed.set(next, { fn, ms }); return next++; },
    clearTimeout: (h) => { armed.delete(h as number); },
  };
  return {
    timers,
    armed: () => [...armed.values()].map((t) => t.ms),
    fire: () => { const all = [...armed.entries()]; armed.clear(); for (const [, t] of all) t.fn(); },
  };
}

function fixture(settings: Partial<BatchSettings>) {
  const clock = fakeTimers();
  const batches: string[][] = [];
  const b = new KeyedBatcher<string>({ sendBatchSize: 0, sendBatchMaxSize: 0, timeoutMs: 1000, ...settings }, async (items) => { batches.push(items); }, clock.timers);
  return { b, batches, clock };
}

test('a batch is sent at the timeout after its first item, whatever its size', () => {
  const { b, batches, clock } = fixture({});
  b.add('a', 'a1');
  b.add('b', 'b1');
  assert.deepEqual(clock.armed(), [1000], 'one timer for the batch');
  assert.deepEqual(batches, []);
  clock.fire();
  assert.deepEqual(batches, [['a1', 'b1']]);
  assert.equal(b.pendingCount, 0);
  clock.fire();
  assert.equal(batches.length, 1, 'nothing pending: nothing sent');
});

test('an item under a pending key replaces it, keeping its place', () => {
  const { b, batches, clock } = fixture({});
  b.add('a', 'a1');
  b.add('b', 'b1');
  b.add('a', 'a2');
  clock.fire();
  assert.deepEqual(batches, [['a2', 'b1']]);
});

test('send_batch_size pending items are sent at once', () => {
  const { b, batches, clock } = fixture({ sendBatchSize: 2 });
  b.add('a', 'a1');
  assert.deepEqual(batches, []);
  b.add('b', 'b1');
  assert.deepEqual(batches, [['a1', 'b1']]);
  assert.deepEqual(clock.armed(), [], 'the batch\'s timer is cancelled');
});

test('send_batch_max_size splits a batch', () => {
  const { b, batches, clock } = fixture({ sendBatchMaxSize: 2 });
  for (const k of ['a', 'b', 'c', 'd', 'e']) b.add(k, k);
  clock.fire();
  assert.deepEqual(batches, [['a', 'b'], ['c', 'd'], ['e']]);
});

test('a timeout of 0 sends every item at once', () => {
  const { b, batches, clock } = fixture({ timeoutMs: 0 });
  b.add('a', 'a1');
  b.add('a', 'a2');
  assert.deepEqual(batches, [['a1'], ['a2']]);
  assert.deepEqual(clock.armed(), []);
});

test('close sends what is pending and waits for sends under way; a failing send does not break the batcher', async () => {
  const clock = fakeTimers();
  const done: string[][] = [];
  let fail = true;
  const b = new KeyedBatcher<string>({ sendBatchSize: 0, sendBatchMaxSize: 0, timeoutMs: 1000 }, async (items) => {
    await new Promise((r) => setTimeout(r, 20));
    if (fail) { fail = false; throw new Error('down'); }
    done.push(items);
  }, clock.timers);
  b.add('a', 'lost');
  clock.fire();
  b.add('b', 'b1');
  await b.shutdown();
  assert.deepEqual(done, [['b1']]);
});
