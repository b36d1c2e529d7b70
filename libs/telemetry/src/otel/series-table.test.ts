import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SeriesTable } from './series-table.js';

test('a series is interned once per metric and label set, whatever the label order', () => {
  const t = new SeriesTable();
  const a = t.series('m', { x: '1', y: '2' });
  assert.equal(t.series('m', { y: '2', x: '1' }), a);
  assert.notEqual(t.series('m', { x: '1', y: '3' }), a);
  assert.notEqual(t.series('n', { x: '1', y: '2' }), a);
  // A value holding the key's separators does not collide with another label split.
  assert.notEqual(t.series('m', { x: '1\u0000y\u00012' }), t.series('m', { x: '1', y: '2' }));
  assert.equal(t.size, 4);
});

test('the cell keeps its own copy of the labels', () => {
  const t = new SeriesTable();
  const labels = { x: '1' };
  const c = t.series('m', labels);
  labels.x = '2';
  assert.deepEqual(c.labels, { x: '1' });
});

test('take answers the series touched since the last take, summed, and zeroes them', () => {
  const t = new SeriesTable();
  const a = t.series('m', { x: '1' });
  const b = t.series('m', { x: '2' });
  t.series('m', { x: '3' });
  for (let i = 0; i < 5; i++) t.add(a, 2);
  t.add(b, 1);
  assert.deepEqual(t.take(), [
    { metric: 'm', labels: { x: '1' }, count: 5, sum: 10 },
    { metric: 'm', labels: { x: '2' }, count: 1, sum: 1 },
  ]);
  assert.deepEqual(t.take(), [], 'nothing touched since');
  t.add(b, 4);
  assert.deepEqual(t.take(), [{ metric: 'm', labels: { x: '2' }, count: 1, sum: 4 }]);
});
