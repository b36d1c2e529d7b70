import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SchemaValidator, editDistance, nearest, pointerSegments, showValue } from './index.js';

test('nearest: the closest candidate within the distance, the first on ties, none beyond it', () => {
  assert.equal(editDistance('kitten', 'sitting'), 3);
  assert.equal(nearest('evaluation_intervl', ['evaluation_interval', 'selectors']), 'evaluation_interval');
  assert.equal(nearest('ab', ['ax', 'ay']), 'ax');
  assert.equal(nearest('completely', ['other'], 2), undefined);
  assert.equal(nearest('x', []), undefined);
});

test('pointerSegments unescapes ~1 and ~0; showValue cuts long values and names non-finite numbers', () => {
  assert.deepEqual(pointerSegments(''), []);
  assert.deepEqual(pointerSegments('/a/b~1c/~0d'), ['a', 'b/c', '~d']);
  assert.equal(showValue(Number.NaN), 'NaN');
  assert.equal(showValue('x'.repeat(100), 20).length, 20);
  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  assert.equal(showValue(cyclic), '[object Object]');
});

test('SchemaValidator: every error at once, annotations accepted, formats used, compiled once, released', () => {
  const v = new SchemaValidator({ annotations: { 'x-note': 'string' }, formats: { even: { type: 'string', validate: (s: string) => s.length % 2 === 0 } } });
  const schema = { type: 'object', properties: { a: { type: 'integer', 'x-note': 'n' }, b: { type: 'string', format: 'even' } }, additionalProperties: false };
  const check = v.validator(schema);
  assert.equal(v.validator(schema), check);
  assert.equal(check({ a: 'no', b: 'odd', c: 1 }), false);
  assert.deepEqual(check.errors?.map((e) => e.keyword).sort(), ['additionalProperties', 'format', 'type']);
  assert.equal(check({ a: 1, b: 'ab' }), true);
  v.release();
  assert.notEqual(v.validator(schema), check);
  assert.throws(() => new SchemaValidator().validator({ type: 'string', 'x-unknown': true }), /unknown keyword/);
});
