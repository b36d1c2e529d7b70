import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BucketTable, type BucketSlot } from './bucket-table.js';

const P = { capacity: 10, fillAmount: 0, intervalMs: 1000, continuousFill: true };

function slot(key: string): BucketSlot {
  return { key, bucket: undefined };
}

test('a slot keeps its bucket: takes through it spend the bucket the key looks up', () => {
  const t = new BucketTable();
  const s = slot('k');
  for (let i = 0; i < 4; i++) assert.ok(t.takeHeld(s, 1, P, 1000).ok);
  assert.notEqual(s.bucket, undefined);
  assert.equal(t.snapshot('k', 1000)?.available, 6);
  assert.ok(t.take('k', 1, P, 1000).ok, 'a take by key spends the same bucket');
  assert.equal(t.takeHeld(s, 1, P, 1000).remaining, 4);
  assert.equal(t.size, 1);
});

test('a bucket the table deletes leaves the slot: the next take starts it again, as a take by key does', () => {
  const t = new BucketTable();
  const s = slot('k');
  for (let i = 0; i < 10; i++) t.takeHeld(s, 1, P, 1000);
  assert.equal(t.takeHeld(s, 1, P, 1000).ok, false);
  const held = s.bucket;
  t.delete('k'); // handed over to a new owner
  assert.equal(held?.dropped, true);
  const r = t.takeHeld(s, 1, P, 1000);
  assert.deepEqual([r.ok, r.remaining], [true, 9], 'started full, not the deleted copy');
  assert.notEqual(s.bucket, held);
  assert.equal(t.snapshot('k', 1000)?.available, 9, 'the table holds the bucket the slot took from');
});

test('a bucket replaced by a newer copy of its key is not taken from through an old slot', () => {
  const t = new BucketTable();
  const s = slot('k');
  assert.equal(t.takeHeld(s, 1, P, 1000).remaining, 9);
  const held = s.bucket;
  t.setRole('k', 'replica'); // given on to a new owner, kept as its replica
  t.putReplica('k', { available: 3, fillAgoMs: 0 }, P, 1000); // the owner's newest state replaces the copy
  assert.equal(held?.dropped, true);
  assert.equal(t.takeHeld(s, 1, P, 1000).remaining, 2, 'the newest state, not the replaced copy');
  assert.equal(t.snapshot('k', 1000)?.available, 2);
});

test('an idle full bucket swept by the take\'s own sweep is started again, not taken from as dropped', () => {
  const t = new BucketTable({ freshWindowMs: 100, sweepEveryMs: 1000 });
  const fill = { capacity: 10, fillAmount: 10, intervalMs: 1000, continuousFill: true };
  const s = slot('k');
  assert.ok(t.takeHeld(s, 1, fill, 1000).ok);
  const held = s.bucket;
  // long idle: full again, swept at the start of the next take
  const r = t.takeHeld(s, 1, fill, 10_000);
  assert.equal(held?.dropped, true);
  assert.deepEqual([r.ok, r.remaining], [true, 9]);
  assert.equal(t.size, 1);
});

test('new parameters reach a held bucket: tokens kept, capped at the new capacity', () => {
  const t = new BucketTable();
  const s = slot('k');
  t.takeHeld(s, 2, P, 1000); // 8 left
  const smaller = { ...P, capacity: 5 };
  assert.equal(t.takeHeld(s, 1, smaller, 1000).remaining, 4);
  assert.deepEqual(t.params('k'), smaller);
});
