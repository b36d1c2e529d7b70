import assert from 'node:assert/strict';
import { test } from 'node:test';
import { utf8Prefix } from './utf8.js';

test('utf8Prefix never cuts a character in two', () => {
  const text = 'aé€😀b'; // 1, 2, 3 and 4-byte characters
  const buf = Buffer.from(text);
  const expected = ['', 'a', 'a', 'aé', 'aé', 'aé', 'aé€', 'aé€', 'aé€', 'aé€', 'aé€😀', 'aé€😀b'];
  for (let max = 0; max <= buf.length; max++) {
    const got = utf8Prefix(buf, max);
    assert.equal(got, expected[max], `max ${max}`);
    assert.ok(Buffer.byteLength(got) <= max);
  }
  assert.equal(utf8Prefix(buf, 100), text);
});

test('utf8Prefix keeps bytes that are not UTF-8 as replacement characters', () => {
  assert.equal(utf8Prefix(Buffer.from([0x61, 0xff, 0x62]), 3), 'a\ufffdb');
});
