import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { RE2JS } from 're2js';
import { estimateRegexProgramSize } from './regex-size-estimate.js';

function programSize(source: string): number | undefined {
  try {
    return RE2JS.compile(source).programSize();
  } catch {
    return undefined;
  }
}

test('the estimate follows counted repetitions through groups, classes and escapes', () => {
  const cases: Array<[string, number]> = [
    ['a', 3], ['.{1000}'.repeat(6), 6002], ['[a-z]{1000}', 1002], ['((a{10}){10}){9}', 1100], ['(?i)a{3}', 5], ['a{2,}', 5],
    ['\\x{41}{100}', 102], ['\\p{Greek}{10}', 12], ['[]a{]{3}', 5], ['[[:alpha:]]{5}', 7], ['\\Qa{1000}\\E', 9], ['a\\{1000}', 9],
    ['', 3], ['()', 5], [`(?:${'[a-z]'.repeat(800)}){1000}`, 804_002],
  ];
  for (const [source, want] of cases) assert.equal(estimateRegexProgramSize(source), want, source);
});

test('the estimate is never below the real program size', () => {
  const fixed = ['^a$', 'x|y', '^$', '.*', '(?i)X', '^.$', '(a|b|c)+', '(?:ab){2,5}', 'a{2,}', '(?P<n>x)y', '\\d+\\.\\d*', '[^\\]x]{10}',
    'a{0}', '(?s).{3,7}?', 'é{4}', '😀{3}', '(?i)abc{300}', '(a{2,4}){5,9}', '(?:a|b){1,1000}', '\\pN{500}', '^[[:digit:]]+$', 'x{,5}'];
  for (const source of fixed) {
    const real = programSize(source);
    assert.ok(real !== undefined, source);
    assert.ok(estimateRegexProgramSize(source) >= real, source);
  }
  const piece = fc.constantFrom('a', 'é', '.', '\\d', '\\pL', '\\x{41}', '[a-z]', '[]x]', '(', '(?:', ')', '|', '*', '+', '?', '{2}', '{3,}', '{1,4}', '^', '$', '\\Qa{\\E',
    '(?i)', '(?i:', '(?P<x>', '[[:word:]]', '{0}', '{0,}', '{0,3}', '*?', '??', 'k', 'ab');
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 14 }), (parts) => {
      const source = parts.join('');
      const real = programSize(source);
      return real === undefined || estimateRegexProgramSize(source) >= real;
    }),
    { numRuns: 2000 },
  );
});
