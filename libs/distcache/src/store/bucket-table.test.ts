import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BucketTable } from './bucket-table.js';

const P = { capacity: 60, fillAmount: 0, intervalMs: 1000, continuousFill: true };

test('a handover that arrives after this member started the bucket full takes what both copies gave out', () => {
  const t = new BucketTable({ freshWindowMs: 5000 });
  for (let i = 0; i < 10; i++) assert.ok(t.take('k', 1, P, 1000).ok); // started full here: 10 spent
  t.adopt('k', { available: 45, fillAgoMs: 0 }, P, 1100); // the previous owner had spent 15
  assert.equal(t.snapshot('k', 1100)?.available, 35);
  // merged once: a second copy is only compared, never subtracted from again
  t.adopt('k', { available: 40, fillAgoMs: 0 }, P, 1200);
  assert.equal(t.snapshot('k', 1200)?.available, 35);
});

test('past the handover window, or for a bucket that was handed over, the fewer tokens win', () => {
  const late = new BucketTable({ freshWindowMs: 5000 });
  for (let i = 0; i < 10; i++) late.take('k', 1, P, 1000);
  late.adopt('k', { available: 45, fillAgoMs: 0 }, P, 7000);
  assert.equal(late.snapshot('k', 7000)?.available, 45);

  const handed = new BucketTable({ freshWindowMs: 5000 });
  handed.adopt('k', { available: 50, fillAgoMs: 0 }, P, 1000);
  for (let i = 0; i < 5; i++) handed.take('k', 1, P, 1000);
  handed.adopt('k', { available: 48, fillAgoMs: 0 }, P, 1100);
  assert.equal(handed.snapshot('k', 1100)?.available, 45);
});

test('a bucket given on to a new owner (kept as replica) does not count its takes again when its state comes back', () => {
  const t = new BucketTable({ freshWindowMs: 5000 });
  for (let i = 0; i < 10; i++) t.take('k', 1, P, 1000);
  t.setRole('k', 'replica');
  t.adopt('k', { available: 42, fillAgoMs: 0 }, P, 1500); // the new owner's state already counts those 10
  assert.equal(t.snapshot('k', 1500)?.available, 42);
});

test('given-back tokens are not counted as spent; the merge never goes below zero', () => {
  const t = new BucketTable({ freshWindowMs: 5000 });
  for (let i = 0; i < 10; i++) t.take('k', 1, P, 1000);
  t.giveBack('k', 4);
  t.adopt('k', { available: 3, fillAgoMs: 0 }, P, 1100);
  assert.equal(t.snapshot('k', 1100)?.available, 0);
  const u = new BucketTable({ freshWindowMs: 5000 });
  for (let i = 0; i < 10; i++) u.take('k', 1, P, 1000);
  u.giveBack('k', 4);
  u.adopt('k', { available: 50, fillAgoMs: 0 }, P, 1100);
  assert.equal(u.snapshot('k', 1100)?.available, 44);
});
