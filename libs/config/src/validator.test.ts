import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Type } from '@sinclair/typebox';
import { releaseValidators, validatorFor } from './validator.js';

const schema = Type.Object({ port: Type.Integer({ minimum: 1 }) });

test('a compiled validator is kept until released, then compiled again and still validates', () => {
  const first = validatorFor(schema);
  assert.equal(validatorFor(schema), first);
  releaseValidators();
  const second = validatorFor(schema);
  assert.notEqual(second, first);
  assert.equal(second({ port: 8080 }), true);
  assert.equal(second({ port: 0 }), false);
});
