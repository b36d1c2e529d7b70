import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mergePatch } from './merge-patch.js';
import { checkPolicyName } from './policy-name.js';

test('merge patch (RFC 7396): objects merge, null removes, arrays and scalars replace, the target is untouched', () => {
  const target = { a: 1, b: { c: 2, d: [1, 2] }, e: 'x' };
  const out = mergePatch(target, { a: null, b: { c: 3, d: [9] }, f: { g: true } });
  assert.deepEqual(out, { b: { c: 3, d: [9] }, e: 'x', f: { g: true } });
  assert.deepEqual(target, { a: 1, b: { c: 2, d: [1, 2] }, e: 'x' });
  assert.deepEqual(mergePatch({ a: 1 }, [1]), [1]);
  assert.deepEqual(mergePatch([1], { a: 1 }), { a: 1 });
});

test('merge patch keeps __proto__ and constructor as data keys', () => {
  const out = mergePatch({}, JSON.parse('{"__proto__": {"polluted": 1}, "constructor": 2}')) as Record<string, unknown>;
  assert.equal(Object.getPrototypeOf(out), Object.prototype);
  assert.deepEqual(Object.keys(out).sort(), ['__proto__', 'constructor']);
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
});

test('policy names are DNS-1123 subdomains', () => {
  assert.equal(checkPolicyName('rate-limit-1'), 'rate-limit-1');
  for (const bad of ['', 'Upper', '-a', 'a-', 'a/b', 'a_b', 'x'.repeat(254), 5, undefined]) {
    assert.throws(() => checkPolicyName(bad), { name: 'InvalidArgumentError' }, String(bad));
  }
});
