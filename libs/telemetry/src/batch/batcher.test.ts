import { test } from 'node:test';
import assert from 'node:assert/strict';
import { batchSettingsOf, createBatcher, type BatchSettings } from './batcher.js';
import { FakeClock } from './fake-clock.js';

function setup(s: BatchSettings) {
  const clock = new FakeClock();
  const sent: number[][] = [];
  const b = createBatcher<number>({ ...s, send: (batch) => { sent.push(batch); }, timers: clock });
  return { clock, sent, b };
}

test('sends at send_batch_size, not before', () => {
  const { sent, b } = setup({ sendBatchSize: 3, sendBatchMaxSize: 0, timeoutMs: 1000 });
  b.add(1); b.add(2);
  assert.deepEqual(sent, []);
  assert.equal(b.pending, 2);
  b.add(3);
  assert.deepEqual(sent, [[1, 2, 3]]);
  assert.equal(b.pending, 0);
});

test('sends after the timeout whatever the size, timed from the first item of the batch', () => {
  const { clock, sent, b } = setup({ sendBatchSize: 100, sendBatchMaxSize: 0, timeoutMs: 1000 });
  b.add(1);
  clock.advance(600);
  b.add(2);
  clock.advance(399);
  assert.deepEqual(sent, []);
  clock.advance(1);
  assert.deepEqual(sent, [[1, 2]]);
  // The next batch has its own timeout.
  clock.advance(5000);
  assert.equal(sent.length, 1);
  b.add(3);
  clock.advance(1000);
  assert.deepEqual(sent, [[1, 2], [3]]);
});

test('a size-triggered send cancels the pending timeout', () => {
  const { clock, sent, b } = setup({ sendBatchSize: 2, sendBatchMaxSize: 0, timeoutMs: 1000 });
  b.add(1); b.add(2);
  assert.equal(clock.pendingTimers, 0);
  clock.advance(2000);
  assert.deepEqual(sent, [[1, 2]]);
});

test('splits batches above send_batch_max_size', async () => {
  const { clock, sent, b } = setup({ sendBatchSize: 0, sendBatchMaxSize: 2, timeoutMs: 10_000 });
  for (let i = 1; i <= 5; i++) b.add(i);
  assert.deepEqual(sent, [], 'send_batch_size 0: no size trigger');
  clock.advance(10_000);
  assert.deepEqual(sent, [[1, 2], [3, 4], [5]]);
  for (let i = 6; i <= 8; i++) b.add(i);
  await b.forceFlush();
  assert.deepEqual(sent.slice(3), [[6, 7], [8]]);
});

test('size trigger with a max size smaller than what is pending sends chunks', () => {
  const { sent, b } = setup({ sendBatchSize: 4, sendBatchMaxSize: 3, timeoutMs: 1000 });
  for (let i = 1; i <= 4; i++) b.add(i);
  assert.deepEqual(sent, [[1, 2, 3], [4]]);
});

test('timeout 0 sends every item at once', () => {
  const { clock, sent, b } = setup({ sendBatchSize: 10, sendBatchMaxSize: 0, timeoutMs: 0 });
  b.add(1); b.add(2);
  assert.deepEqual(sent, [[1], [2]]);
  assert.equal(clock.pendingTimers, 0);
});

test('flush waits for asynchronous sends; failures go to onError and the batch is dropped', async () => {
  const clock = new FakeClock();
  const errors: unknown[] = [];
  let done = 0;
  const b = createBatcher<number>({
    sendBatchSize: 2, sendBatchMaxSize: 0, timeoutMs: 1000, timers: clock,
    send: async (batch) => {
      await new Promise((r) => setImmediate(r));
      if (batch.includes(13)) throw new Error('unlucky');
      done += batch.length;
    },
    onError: (err, batch) => errors.push([(err as Error).message, [...batch]]),
  });
  b.add(1); b.add(2); b.add(13); b.add(4);
  await b.forceFlush();
  assert.equal(done, 2);
  assert.deepEqual(errors, [['unlucky', [13, 4]]]);
});

test('shutdown sends what is pending and refuses further items', async () => {
  const { sent, b } = setup({ sendBatchSize: 10, sendBatchMaxSize: 0, timeoutMs: 1000 });
  b.add(1);
  await b.shutdown();
  assert.deepEqual(sent, [[1]]);
  assert.throws(() => b.add(2), /shut down/);
});

test('bad settings are refused', () => {
  const send = () => undefined;
  assert.throws(() => createBatcher({ sendBatchSize: -1, sendBatchMaxSize: 0, timeoutMs: 0, send }), /sendBatchSize/);
  assert.throws(() => createBatcher({ sendBatchSize: 1, sendBatchMaxSize: 1.5, timeoutMs: 0, send }), /sendBatchMaxSize/);
  assert.throws(() => createBatcher({ sendBatchSize: 1, sendBatchMaxSize: 0, timeoutMs: Number.NaN, send }), /timeoutMs/);
});

test('batchSettingsOf reads an otel.batch_* object', () => {
  assert.deepEqual(batchSettingsOf({ send_batch_size: 5, send_batch_max_size: 9, timeout: '1.5s' }, 'otel.batch_alerts'),
    { sendBatchSize: 5, sendBatchMaxSize: 9, timeoutMs: 1500 });
  assert.throws(() => batchSettingsOf({ send_batch_size: 5, send_batch_max_size: 9, timeout: 'soon' }, 'otel.batch_alerts'), /otel\.batch_alerts\.timeout/);
});
