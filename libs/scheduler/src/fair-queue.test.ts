import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FairQueue } from './fair-queue.js';

function add(q: FairQueue, priority: number, key: string, deadlineMs = 1000, tokens = 1) {
  return q.enqueue({ priority, tokens, workloadIndex: key, enqueuedMs: 0, deadlineMs, fairnessKey: key });
}

function popAll(q: FairQueue): string[] {
  const out: string[] = [];
  for (let f = q.popHead(); f !== undefined; f = q.popHead()) out.push(`${f.priority}:${f.workloadIndex}:${f.seq}`);
  return out;
}

test('higher priority leaves first whatever the arrival order', () => {
  const q = new FairQueue();
  add(q, 50, 'free');
  add(q, 50, 'free');
  add(q, 200, 'gold');
  add(q, 100, 'silver');
  add(q, 200, 'gold');
  assert.deepEqual(popAll(q).map((s) => s.split(':')[0]), ['200', '200', '100', '50', '50']);
  assert.equal(q.length, 0);
});

test('flows of one key keep their order', () => {
  const q = new FairQueue();
  for (let i = 0; i < 5; i++) add(q, 1, 'a');
  assert.deepEqual(popAll(q).map((s) => Number(s.split(':')[2])), [0, 1, 2, 3, 4]);
});

test('within a priority, keys share fairly: a late key is not stuck behind a long backlog', () => {
  const q = new FairQueue();
  for (let i = 0; i < 10; i++) add(q, 1, 'busy');
  add(q, 1, 'quiet');
  add(q, 1, 'quiet');
  const order = popAll(q).map((s) => s.split(':')[1]);
  const quietAt = order.flatMap((k, i) => (k === 'quiet' ? [i] : []));
  assert.equal(quietAt.length, 2);
  assert.ok(quietAt[1] <= 3, `quiet flows served at ${quietAt.join(',')}`);
});

test('fair share follows tokens: a key of heavy flows gets fewer of them', () => {
  const q = new FairQueue();
  for (let i = 0; i < 6; i++) add(q, 1, 'heavy', 1000, 4);
  for (let i = 0; i < 6; i++) add(q, 1, 'light', 1000, 1);
  const firstSix = popAll(q).slice(0, 6).map((s) => s.split(':')[1]);
  assert.ok(firstSix.filter((k) => k === 'light').length >= 4, firstSix.join(','));
});

test('expire answers the flows due, by deadline, and skips removed ones', () => {
  const q = new FairQueue();
  const a = add(q, 1, 'a', 30);
  add(q, 1, 'b', 10);
  add(q, 1, 'c', 50);
  q.remove(a);
  assert.equal(q.length, 2);
  assert.equal(q.nextDeadline(), 10);
  assert.deepEqual(q.expire(40).map((f) => f.workloadIndex), ['b']);
  assert.equal(q.nextDeadline(), 50);
  assert.equal(q.popHead()?.workloadIndex, 'c');
  assert.equal(q.nextDeadline(), undefined);
  assert.equal(q.remove(a), false);
});

test('tokensAhead counts waiting tokens at or above a priority', () => {
  const q = new FairQueue();
  add(q, 200, 'g', 1000, 5);
  add(q, 50, 'f', 1000, 3);
  add(q, 100, 's', 1000, 2);
  assert.equal(q.tokensAhead(200), 5);
  assert.equal(q.tokensAhead(100), 7);
  assert.equal(q.tokensAhead(1), 10);
  assert.equal(q.drain().length, 3);
  assert.equal(q.tokensAhead(1), 0);
  assert.equal(q.head(), undefined);
});
