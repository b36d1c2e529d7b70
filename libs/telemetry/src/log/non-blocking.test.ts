import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NonBlockingBuffer, type BufferSink } from './non-blocking.js';

/** An in-memory sink that backs up after `room` entries until resumed. */
class SlowSink implements BufferSink<number> {
  readonly written: number[] = [];
  private resume: (() => void) | undefined;
  constructor(private room: number) {}
  write(entry: number): boolean {
    this.written.push(entry);
    this.room--;
    return this.room > 0;
  }
  onceDrained(resume: () => void): void {
    this.resume = resume;
  }
  drain(room: number): void {
    this.room = room;
    const resume = this.resume;
    this.resume = undefined;
    resume?.();
  }
  get waiting(): boolean {
    return this.resume !== undefined;
  }
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

test('entries are written on a later turn, never during the call', async () => {
  const sink = new SlowSink(100);
  const buffer = new NonBlockingBuffer(10, sink);
  buffer.push(1);
  buffer.push(2);
  assert.deepEqual(sink.written, []);
  await tick();
  assert.deepEqual(sink.written, [1, 2]);
});

test('a backed-up sink holds entries in the buffer; when it is full, entries are dropped and counted', async () => {
  const sink = new SlowSink(2);
  let drops = 0;
  const buffer = new NonBlockingBuffer(3, sink, () => drops++);
  for (let i = 0; i < 5; i++) assert.equal(buffer.push(i), i < 3);
  await tick();
  assert.deepEqual(sink.written, [0, 1], 'the sink backed up after two');
  assert.ok(sink.waiting);
  assert.equal(buffer.pending(), 1);
  for (let i = 5; i < 10; i++) assert.equal(buffer.push(i), i < 7);
  assert.equal(buffer.droppedCount(), 5);
  assert.equal(drops, 5);
  await tick();
  assert.deepEqual(sink.written, [0, 1], 'nothing is written while the sink is backed up');
  const flushed = buffer.flush();
  sink.drain(100);
  await flushed;
  assert.deepEqual(sink.written, [0, 1, 2, 5, 6]);
  assert.equal(buffer.pending(), 0);
});

test('the ring buffer keeps order across wrap-around', async () => {
  const sink = new SlowSink(1000);
  const buffer = new NonBlockingBuffer(4, sink);
  const expected: number[] = [];
  for (let round = 0; round < 10; round++) {
    for (let i = 0; i < 3; i++) {
      buffer.push(round * 3 + i);
      expected.push(round * 3 + i);
    }
    await tick();
  }
  await buffer.flush();
  assert.deepEqual(sink.written, expected);
  assert.equal(buffer.droppedCount(), 0);
});

test('a capacity that is not a positive integer is refused', () => {
  for (const bad of [0, -1, 1.5, Number.NaN]) {
    assert.throws(() => new NonBlockingBuffer(bad, new SlowSink(1)), RangeError);
  }
});
