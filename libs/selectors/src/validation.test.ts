import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InvalidArgumentError } from '@sluice/errors';
import { compileLabelMatcher, LABEL_MATCHER_LIMITS } from './index.js';

interface BadCase {
  name: string;
  filter: unknown;
  field: string;
  message: RegExp;
}

const lm = (label: string, regex: string) => ({ label_matches: { label, regex } });

/** `not` nested so that the innermost expression sits at level `levels`. */
function nestedNot(levels: number): unknown {
  let e: unknown = { label_exists: 'a' };
  for (let i = 1; i < levels; i++) e = { not: e };
  return e;
}

/** The path of the expression at level `level` inside nestedNot(...). */
function notPath(level: number): string {
  return 'expression' + '.not'.repeat(level - 1);
}

const manyExpressions = Array.from({ length: LABEL_MATCHER_LIMITS.maxNodes }, () => ({ label_exists: 'a' }));
const manyValues = Array.from({ length: LABEL_MATCHER_LIMITS.maxNodes + 5 }, (_, i) => String(i));

const cases: BadCase[] = [
  // top level
  { name: 'null filter', filter: null, field: '', message: /label filter must be an object, got null/ },
  { name: 'array filter', filter: [], field: '', message: /must be an object, got array/ },
  { name: 'string filter', filter: 'a=b', field: '', message: /must be an object, got string/ },
  { name: 'number filter', filter: 3, field: '', message: /must be an object, got number/ },
  { name: 'undefined filter', filter: undefined, field: '', message: /must be an object, got undefined/ },
  { name: 'unknown top-level member', filter: { matchLabels: {} }, field: 'matchLabels', message: /unknown member "matchLabels" in label filter; allowed: match_labels, match_expressions, expression/ },
  { name: 'prototype-named top-level member', filter: { constructor: {} }, field: 'constructor', message: /unknown member "constructor"/ },

  // match_labels
  { name: 'match_labels null', filter: { match_labels: null }, field: 'match_labels', message: /match_labels must be an object, got null/ },
  { name: 'match_labels array', filter: { match_labels: ['a'] }, field: 'match_labels', message: /got array/ },
  { name: 'match_labels number value', filter: { match_labels: { tier: 1 } }, field: 'match_labels.tier', message: /match_labels value must be a string, got number/ },
  { name: 'match_labels null value', filter: { match_labels: { a: 'x', tier: null } }, field: 'match_labels.tier', message: /got null/ },
  { name: 'match_labels object value', filter: { match_labels: { 'app.kubernetes.io/name': {} } }, field: 'match_labels["app.kubernetes.io/name"]', message: /got object/ },
  { name: 'match_labels empty name', filter: { match_labels: { '': 'x' } }, field: 'match_labels[""]', message: /label name must not be empty/ },

  // match_expressions
  { name: 'match_expressions object', filter: { match_expressions: {} }, field: 'match_expressions', message: /match_expressions must be an array of requirements, got object/ },
  { name: 'requirement not an object', filter: { match_expressions: ['a In (x)'] }, field: 'match_expressions[0]', message: /requirement must be an object, got string/ },
  { name: 'requirement unknown member', filter: { match_expressions: [{ key: 'a', operator: 'Exists', value: [] }] }, field: 'match_expressions[0].value', message: /unknown member "value" in requirement; allowed: key, operator, values/ },
  { name: 'missing key', filter: { match_expressions: [{ operator: 'Exists' }] }, field: 'match_expressions[0].key', message: /key is required/ },
  { name: 'empty key', filter: { match_expressions: [{ key: '', operator: 'Exists' }] }, field: 'match_expressions[0].key', message: /key must not be empty/ },
  { name: 'key not a string', filter: { match_expressions: [{ key: 7, operator: 'Exists' }] }, field: 'match_expressions[0].key', message: /key must be a string, got number/ },
  { name: 'missing operator', filter: { match_expressions: [{ key: 'a' }] }, field: 'match_expressions[0].operator', message: /operator is required; allowed: In, NotIn, Exists, DoesNotExist, DoesNotExists/ },
  { name: 'operator not a string', filter: { match_expressions: [{ key: 'a', operator: ['In'] }] }, field: 'match_expressions[0].operator', message: /operator must be a string, got array/ },
  { name: 'unknown operator', filter: { match_expressions: [{ key: 'a', operator: 'Equals', values: ['x'] }] }, field: 'match_expressions[0].operator', message: /unknown operator "Equals"; allowed: In, NotIn, Exists, DoesNotExist, DoesNotExists/ },
  { name: 'operator in wrong case', filter: { match_expressions: [{ key: 'a', operator: 'in', values: ['x'] }] }, field: 'match_expressions[0].operator', message: /unknown operator "in"/ },
  { name: 'values on Exists', filter: { match_expressions: [{ key: 'a', operator: 'Exists', values: ['x'] }] }, field: 'match_expressions[0].values', message: /values must be empty for operator Exists/ },
  { name: 'values on DoesNotExist', filter: { match_expressions: [{ key: 'a', operator: 'DoesNotExist', values: [''] }] }, field: 'match_expressions[0].values', message: /values must be empty for operator DoesNotExist/ },
  { name: 'values on DoesNotExists', filter: { match_expressions: [{ key: 'a', operator: 'DoesNotExists', values: ['x'] }] }, field: 'match_expressions[0].values', message: /values must be empty for operator DoesNotExists/ },
  { name: 'empty values on In', filter: { match_expressions: [{ key: 'a', operator: 'In', values: [] }] }, field: 'match_expressions[0].values', message: /values must be non-empty for operator In/ },
  { name: 'absent values on NotIn', filter: { match_expressions: [{ key: 'a', operator: 'NotIn' }] }, field: 'match_expressions[0].values', message: /values must be non-empty for operator NotIn/ },
  { name: 'values not an array', filter: { match_expressions: [{ key: 'a', operator: 'In', values: 'x' }] }, field: 'match_expressions[0].values', message: /values must be an array of strings, got string/ },
  { name: 'values element not a string', filter: { match_expressions: [{ key: 'a', operator: 'In', values: ['x', 2] }] }, field: 'match_expressions[0].values[1]', message: /values elements must be strings, got number/ },
  { name: 'third requirement is bad', filter: { match_expressions: [{ key: 'a', operator: 'Exists' }, { key: 'b', operator: 'Exists' }, { key: 'c', operator: 'In', values: [] }] }, field: 'match_expressions[2].values', message: /non-empty/ },

  // expression shape
  { name: 'expression null', filter: { expression: null }, field: 'expression', message: /expression must be an object, got null/ },
  { name: 'expression string', filter: { expression: 'a' }, field: 'expression', message: /got string/ },
  { name: 'expression with zero members', filter: { expression: {} }, field: 'expression', message: /exactly one of all, any, not, label_equals, label_exists, label_matches; got none/ },
  { name: 'expression with two members', filter: { expression: { label_exists: 'a', not: { label_exists: 'b' } } }, field: 'expression', message: /exactly one of .*; got 2 \(label_exists, not\)/ },
  { name: 'expression unknown member', filter: { expression: { lable_equals: { label: 'a' } } }, field: 'expression.lable_equals', message: /unknown member "lable_equals" in expression/ },
  { name: 'unknown member beside a valid one', filter: { expression: { label_exists: 'a', extra: 1 } }, field: 'expression.extra', message: /unknown member "extra"/ },
  { name: 'all not an object', filter: { expression: { all: [] } }, field: 'expression.all', message: /all must be an object, got array/ },
  { name: 'all.of missing', filter: { expression: { all: {} } }, field: 'expression.all.of', message: /all\.of is required/ },
  { name: 'any.of not an array', filter: { expression: { any: { of: {} } } }, field: 'expression.any.of', message: /any\.of must be an array of expressions, got object/ },
  { name: 'all unknown member', filter: { expression: { all: { of: [], or: [] } } }, field: 'expression.all.or', message: /unknown member "or" in all; allowed: of/ },
  { name: 'element of all.of bad', filter: { expression: { all: { of: [{ label_exists: 'a' }, 5] } } }, field: 'expression.all.of[1]', message: /expression must be an object, got number/ },
  { name: 'not of null', filter: { expression: { not: null } }, field: 'expression.not', message: /got null/ },

  // leaves
  { name: 'label_equals missing label', filter: { expression: { label_equals: { value: 'x' } } }, field: 'expression.label_equals.label', message: /label is required/ },
  { name: 'label_equals empty label', filter: { expression: { label_equals: { label: '' } } }, field: 'expression.label_equals.label', message: /label must not be empty/ },
  { name: 'label_equals value number', filter: { expression: { label_equals: { label: 'a', value: 200 } } }, field: 'expression.label_equals.value', message: /value must be a string, got number/ },
  { name: 'label_equals value null', filter: { expression: { label_equals: { label: 'a', value: null } } }, field: 'expression.label_equals.value', message: /got null/ },
  { name: 'label_equals unknown member', filter: { expression: { label_equals: { label: 'a', values: 'x' } } }, field: 'expression.label_equals.values', message: /unknown member "values" in label_equals; allowed: label, value/ },
  { name: 'label_equals as string', filter: { expression: { label_equals: 'a' } }, field: 'expression.label_equals', message: /label_equals must be an object, got string/ },
  { name: 'label_exists object', filter: { expression: { label_exists: { label: 'a' } } }, field: 'expression.label_exists', message: /label_exists must be a label name \(string\), got object/ },
  { name: 'label_exists empty', filter: { expression: { label_exists: '' } }, field: 'expression.label_exists', message: /label_exists must not be empty/ },
  { name: 'label_matches missing regex', filter: { expression: { label_matches: { label: 'a' } } }, field: 'expression.label_matches.regex', message: /regex is required/ },
  { name: 'label_matches missing label', filter: { expression: { label_matches: { regex: 'a' } } }, field: 'expression.label_matches.label', message: /label is required/ },
  { name: 'label_matches empty regex', filter: { expression: lm('a', '') }, field: 'expression.label_matches.regex', message: /regex must not be empty/ },
  { name: 'label_matches regex not a string', filter: { expression: { label_matches: { label: 'a', regex: /a/ } } }, field: 'expression.label_matches.regex', message: /regex must be a string, got object/ },
  { name: 'regex (', filter: { expression: { all: { of: [lm('a', '(')] } } }, field: 'expression.all.of[0].label_matches.regex', message: /regex does not compile \(Go RE2 syntax\): error parsing regexp: missing closing \)/ },
  { name: 'look-ahead refused', filter: { expression: lm('a', '(?=a)') }, field: 'expression.label_matches.regex', message: /invalid or unsupported Perl syntax/ },
  { name: 'look-behind refused', filter: { expression: lm('a', '(?<=a)b') }, field: 'expression.label_matches.regex', message: /does not compile/ },
  { name: 'backreference refused', filter: { expression: lm('a', '(a)\\1') }, field: 'expression.label_matches.regex', message: /invalid escape sequence: `\\1`/ },
  { name: 'repeat count over 1000', filter: { expression: lm('a', 'a{1001}') }, field: 'expression.label_matches.regex', message: /invalid repeat count/ },
  { name: 'nested repetition', filter: { expression: { not: lm('a', 'a**') } }, field: 'expression.not.label_matches.regex', message: /invalid nested repetition operator/ },
  { name: 'regex program too large', filter: { expression: lm('a', '.{1000}'.repeat(6)) }, field: 'expression.label_matches.regex', message: /regex compiles to 6002 RE2 instructions; the regexes of one label filter may total at most 5000/ },
  { name: 'regexes of one filter over budget together', filter: { expression: { any: { of: [lm('a', '^.{1000}$'), lm('b', 'x'), lm('c', '[a-z]{1000}'.repeat(3)), lm('d', '.{1000}')] } } }, field: 'expression.any.of[3].label_matches.regex', message: /may total at most 5000/ },
  { name: 'nested counted repetitions refused before compiling', filter: { expression: lm('a', `(?:${'[a-z]'.repeat(800)}){1000}`) }, field: 'expression.label_matches.regex', message: /regex would compile to about 80\d{4} RE2 instructions; the regexes of one label filter may total at most 5000/ },
  { name: 'counted repetition of a group refused before compiling', filter: { expression: lm('a', '((a{10}){10}){9}'.repeat(20)) }, field: 'expression.label_matches.regex', message: /regex would compile to about \d+ RE2 instructions/ },
  { name: 'huge regex', filter: { expression: lm('a', 'a'.repeat(LABEL_MATCHER_LIMITS.maxRegexLength + 1)) }, field: 'expression.label_matches.regex', message: /regex is 4097 characters long; at most 4096 are allowed/ },

  // limits
  { name: 'depth 33', filter: { expression: nestedNot(33) }, field: notPath(33), message: /expressions nest deeper than 32 levels/ },
  { name: 'depth 33 through all.of', filter: { expression: (() => { let e: unknown = { label_exists: 'a' }; for (let i = 1; i < 33; i++) e = { all: { of: [e] } }; return e; })() }, field: 'expression' + '.all.of[0]'.repeat(32), message: /deeper than 32/ },
  { name: 'depth 100000', filter: { expression: nestedNot(100_000) }, field: notPath(33), message: /deeper than 32/ },
  { name: 'too many expressions', filter: { expression: { any: { of: manyExpressions } } }, field: `expression.any.of[${LABEL_MATCHER_LIMITS.maxNodes - 1}]`, message: /more than 10000 nodes/ },
  { name: 'too many values', filter: { match_expressions: [{ key: 'a', operator: 'In', values: manyValues }] }, field: `match_expressions[0].values[${LABEL_MATCHER_LIMITS.maxNodes - 1}]`, message: /more than 10000 nodes/ },
  { name: 'prefix path', filter: { match_labels: { a: 1 } }, field: 'match_labels.a', message: /^match_labels\.a: / },
];

test('validation table has at least 40 bad filters', () => {
  assert.ok(cases.length >= 40, `${cases.length} cases`);
});

for (const c of cases) {
  test(`invalid: ${c.name}`, () => {
    assert.throws(
      () => compileLabelMatcher(c.filter),
      (err: unknown) => {
        assert.ok(err instanceof InvalidArgumentError, `not an InvalidArgumentError: ${String(err)}`);
        assert.equal(err.field, c.field);
        assert.match(err.message, c.message);
        assert.equal(err.code, 'SLUICE_ERR_INVALID_ARGUMENT');
        return true;
      },
    );
  });
}

test('the path argument prefixes every reported field', () => {
  assert.throws(
    () => compileLabelMatcher({ expression: { label_matches: { label: 'a', regex: '(' } } }, 'label_matcher'),
    (err: unknown) => err instanceof InvalidArgumentError && err.field === 'label_matcher.expression.label_matches.regex',
  );
  assert.throws(
    () => compileLabelMatcher(null, 'label_matcher'),
    (err: unknown) => err instanceof InvalidArgumentError && err.field === 'label_matcher' && err.message.startsWith('label_matcher: '),
  );
});

test('limits: exactly at the bounds is accepted', () => {
  const deepest = compileLabelMatcher({ expression: nestedNot(32) });
  // 31 nots around label_exists: an odd count, so the result is negated
  assert.equal(deepest.matches({ a: '' }), false);
  assert.equal(deepest.matches({}), true);
  const longest = compileLabelMatcher({ expression: lm('a', 'a'.repeat(LABEL_MATCHER_LIMITS.maxRegexLength)) });
  assert.equal(longest.matches({ a: 'a'.repeat(LABEL_MATCHER_LIMITS.maxRegexLength) }), true);
  const widest = compileLabelMatcher({ expression: { any: { of: manyExpressions.slice(0, LABEL_MATCHER_LIMITS.maxNodes - 1) } } });
  assert.equal(widest.matches({ a: 'x' }), true);
  const budget = compileLabelMatcher({ expression: { all: { of: [lm('a', '.{1000}.{1000}'), lm('a', '.{1000}.{1000}.{980}')] } } });
  assert.equal(budget.matches({ a: 'x'.repeat(3000) }), true);
  assert.deepEqual({ ...LABEL_MATCHER_LIMITS }, { maxDepth: 32, maxNodes: 10_000, maxRegexLength: 4096, maxRegexProgramSize: 5000 });
  assert.ok(Object.isFrozen(LABEL_MATCHER_LIMITS));
});

test('gateway shape: the field travels in the BadRequest details', () => {
  try {
    compileLabelMatcher({ match_expressions: [{ key: 'a', operator: 'Nope' }] });
    assert.fail('expected a throw');
  } catch (err) {
    assert.ok(err instanceof InvalidArgumentError);
    assert.equal(err.grpcCode, 3);
    assert.equal(err.httpStatus, 400);
    assert.match(JSON.stringify(err.details), /match_expressions\[0\]\.operator/);
  }
});
