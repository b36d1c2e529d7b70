import { test } from 'node:test';
import assert from 'node:assert/strict';
import { scrubDeep, scrubText } from './scrub.js';

test('scrubText replaces every occurrence of each secret, inside other text too', () => {
  assert.equal(scrubText('pw=hunter2 and again hunter2', ['hunter2']), 'pw=**** and again ****');
  assert.equal(scrubText('http://u:hunter2@etcd:2379', ['hunter2']), 'http://u:****@etcd:2379');
  assert.equal(scrubText('nothing here', ['hunter2']), 'nothing here');
});

test('scrubDeep walks objects, arrays and keys, keeps other values, and survives cycles', () => {
  const event: Record<string, unknown> = {
    message: 'failed with key k-123456',
    exception: { values: [{ value: 'Error: k-123456 refused', stacktrace: { frames: [{ vars: { password: 'p4ss' } }] } }] },
    extra: { 'k-123456': 1, count: 3, ok: true, none: null },
  };
  event.self = event;
  const out = scrubDeep(event, ['k-123456', 'p4ss']);
  assert.equal(out.message, 'failed with key ****');
  assert.deepEqual(out.exception, { values: [{ value: 'Error: **** refused', stacktrace: { frames: [{ vars: { password: '****' } }] } }] });
  assert.deepEqual(out.extra, { '****': 1, count: 3, ok: true, none: null });
  assert.equal(out.self, out);
  assert.ok(!JSON.stringify({ ...out, self: undefined }).includes('k-123456'));
  assert.equal(event.message, 'failed with key k-123456', 'the original is left as it was');
});

test('scrubDeep with no secrets answers the value itself', () => {
  const v = { a: 'x' };
  assert.equal(scrubDeep(v, []), v);
});
