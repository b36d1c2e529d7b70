import assert from 'node:assert/strict';
import { test } from 'node:test';
import { InterestFilter } from './interest-filter.js';

test('until an interest arrives, everything is sent under generation 0', () => {
  const f = new InterestFilter();
  assert.equal(f.generation, 0);
  assert.equal(f.all, true);
  assert.equal(f.wants('anything'), true);
  assert.equal(f.wantsBody(), true);
  f.update(null, false);
  f.update(undefined, true);
  assert.equal(f.generation, 0, 'no interest in the answer (an older agent): nothing changes');
});

test('headers are matched in their label form: lower-cased, - as _', () => {
  const f = new InterestFilter();
  f.update({ generation: 10, all: false, headers: ['x_user', 'baggage'], body: false }, false);
  assert.equal(f.all, false);
  assert.equal(f.wants('x-user'), true);
  assert.equal(f.wants('x_user'), true);
  assert.equal(f.wants('baggage'), true);
  assert.equal(f.wants('x-other'), false);
  assert.equal(f.wants('x-other'), false, 'remembered');
  assert.equal(f.wantsBody(), false);
});

test('an older interest does not replace a newer one unless the agent says it is current (resend)', () => {
  const f = new InterestFilter();
  f.update({ generation: 10, all: false, headers: ['a'], body: false }, false);
  f.update({ generation: 9, all: true, headers: [], body: true }, false);
  assert.equal(f.generation, 10);
  assert.equal(f.all, false);
  f.update({ generation: 11, all: false, headers: ['b'], body: true }, false);
  assert.equal(f.wants('a'), false, 'the remembered names are forgotten with the interest');
  assert.equal(f.wants('b'), true);
  assert.equal(f.wantsBody(), true);
  f.update({ generation: 3, all: true, headers: [], body: true }, true);
  assert.equal(f.generation, 3);
  assert.equal(f.all, true);
});

test('a malformed generation (0, negative, not a whole number) is ignored', () => {
  const f = new InterestFilter();
  for (const generation of [0, -1, 1.5, Number.NaN]) {
    f.update({ generation, all: false, headers: [], body: false }, true);
    assert.equal(f.generation, 0);
    assert.equal(f.all, true);
  }
});
