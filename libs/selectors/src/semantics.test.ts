import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileLabelMatcher, type FlowLabels } from './index.js';

interface Case {
  name: string;
  filter: unknown;
  labels: FlowLabels;
  want: boolean;
}

const le = (label: string, value?: string) => ({ label_equals: value === undefined ? { label } : { label, value } });
const lm = (label: string, regex: string) => ({ label_matches: { label, regex } });
const ex = (label: string) => ({ label_exists: label });
const req = (key: string, operator: string, values?: string[]) => (values === undefined ? { key, operator } : { key, operator, values });

/** Labels parsed from JSON, as they arrive from untrusted input (own `__proto__` included). */
const parsed = (json: string): FlowLabels => JSON.parse(json) as FlowLabels;

const cases: Case[] = [
  // empty filter and parts
  { name: '{} matches empty labels', filter: {}, labels: {}, want: true },
  { name: '{} matches any labels', filter: {}, labels: { a: '1' }, want: true },
  { name: 'empty match_labels matches', filter: { match_labels: {} }, labels: {}, want: true },
  { name: 'empty match_expressions matches', filter: { match_expressions: [] }, labels: {}, want: true },
  { name: 'undefined members count as absent', filter: { match_labels: undefined, expression: undefined }, labels: {}, want: true },

  // match_labels
  { name: 'match_labels equal', filter: { match_labels: { tier: 'web' } }, labels: { tier: 'web' }, want: true },
  { name: 'match_labels different', filter: { match_labels: { tier: 'web' } }, labels: { tier: 'db' }, want: false },
  { name: 'match_labels missing', filter: { match_labels: { tier: 'web' } }, labels: {}, want: false },
  { name: 'match_labels empty value vs present empty', filter: { match_labels: { tier: '' } }, labels: { tier: '' }, want: true },
  { name: 'match_labels empty value vs missing', filter: { match_labels: { tier: '' } }, labels: {}, want: false },
  { name: 'match_labels all pairs ANDed', filter: { match_labels: { a: '1', b: '2' } }, labels: { a: '1', b: '3' }, want: false },
  { name: 'match_labels all pairs present', filter: { match_labels: { a: '1', b: '2' } }, labels: { a: '1', b: '2', c: '3' }, want: true },
  { name: 'match_labels case sensitive', filter: { match_labels: { a: 'X' } }, labels: { a: 'x' }, want: false },
  { name: 'match_labels number as string', filter: { match_labels: { code: '200' } }, labels: { code: '200' }, want: true },
  { name: 'match_labels "200" vs "200.0"', filter: { match_labels: { code: '200' } }, labels: { code: '200.0' }, want: false },
  { name: 'match_labels dotted key', filter: { match_labels: { 'app.kubernetes.io/name': 'x' } }, labels: { 'app.kubernetes.io/name': 'x' }, want: true },

  // match_expressions
  { name: 'In hit', filter: { match_expressions: [req('a', 'In', ['x', 'y'])] }, labels: { a: 'y' }, want: true },
  { name: 'In miss', filter: { match_expressions: [req('a', 'In', ['x', 'y'])] }, labels: { a: 'z' }, want: false },
  { name: 'In missing label', filter: { match_expressions: [req('a', 'In', ['x'])] }, labels: {}, want: false },
  { name: 'In single value', filter: { match_expressions: [req('a', 'In', ['x'])] }, labels: { a: 'x' }, want: true },
  { name: 'In empty string value', filter: { match_expressions: [req('a', 'In', [''])] }, labels: { a: '' }, want: true },
  { name: 'In empty string value, missing label', filter: { match_expressions: [req('a', 'In', [''])] }, labels: {}, want: false },
  { name: 'NotIn missing label', filter: { match_expressions: [req('a', 'NotIn', ['x'])] }, labels: {}, want: true },
  { name: 'NotIn differs', filter: { match_expressions: [req('a', 'NotIn', ['x', 'y'])] }, labels: { a: 'z' }, want: true },
  { name: 'NotIn equal to one', filter: { match_expressions: [req('a', 'NotIn', ['x', 'y'])] }, labels: { a: 'y' }, want: false },
  { name: 'NotIn single equal', filter: { match_expressions: [req('a', 'NotIn', ['x'])] }, labels: { a: 'x' }, want: false },
  { name: 'Exists present', filter: { match_expressions: [req('a', 'Exists')] }, labels: { a: '' }, want: true },
  { name: 'Exists missing', filter: { match_expressions: [req('a', 'Exists', [])] }, labels: { b: '1' }, want: false },
  { name: 'DoesNotExist missing', filter: { match_expressions: [req('a', 'DoesNotExist')] }, labels: {}, want: true },
  { name: 'DoesNotExist present', filter: { match_expressions: [req('a', 'DoesNotExist')] }, labels: { a: 'v' }, want: false },
  { name: 'DoesNotExists missing', filter: { match_expressions: [req('a', 'DoesNotExists', [])] }, labels: {}, want: true },
  { name: 'DoesNotExists present', filter: { match_expressions: [req('a', 'DoesNotExists')] }, labels: { a: '' }, want: false },
  { name: 'requirements ANDed', filter: { match_expressions: [req('a', 'Exists'), req('b', 'In', ['1'])] }, labels: { a: 'x', b: '2' }, want: false },
  { name: 'requirements ANDed, all hold', filter: { match_expressions: [req('a', 'Exists'), req('b', 'In', ['1']), req('c', 'DoesNotExist')] }, labels: { a: 'x', b: '1' }, want: true },
  { name: 'In number as string', filter: { match_expressions: [req('status', 'In', ['200', '204'])] }, labels: { status: '204' }, want: true },

  // expression leaves
  { name: 'label_equals hit', filter: { expression: le('a', 'x') }, labels: { a: 'x' }, want: true },
  { name: 'label_equals miss', filter: { expression: le('a', 'x') }, labels: { a: 'y' }, want: false },
  { name: 'label_equals missing label', filter: { expression: le('a', 'x') }, labels: {}, want: false },
  { name: 'label_equals default value "" vs present empty', filter: { expression: le('a') }, labels: { a: '' }, want: true },
  { name: 'label_equals default value "" vs missing', filter: { expression: le('a') }, labels: {}, want: false },
  { name: 'label_equals default value "" vs non-empty', filter: { expression: le('a') }, labels: { a: 'x' }, want: false },
  { name: 'label_exists present', filter: { expression: ex('a') }, labels: { a: '' }, want: true },
  { name: 'label_exists missing', filter: { expression: ex('a') }, labels: {}, want: false },
  { name: 'label_matches unanchored search', filter: { expression: lm('a', 'b') }, labels: { a: 'abc' }, want: true },
  { name: 'label_matches anchored miss', filter: { expression: lm('a', '^b$') }, labels: { a: 'abc' }, want: false },
  { name: 'label_matches ^a$ exact', filter: { expression: lm('a', '^a$') }, labels: { a: 'a' }, want: true },
  { name: 'label_matches ^a$ vs aa', filter: { expression: lm('a', '^a$') }, labels: { a: 'aa' }, want: false },
  { name: 'label_matches a vs aa', filter: { expression: lm('a', 'a') }, labels: { a: 'baab' }, want: true },
  { name: 'label_matches missing label', filter: { expression: lm('a', '.*') }, labels: {}, want: false },
  { name: 'label_matches .* vs present empty', filter: { expression: lm('a', '.*') }, labels: { a: '' }, want: true },
  { name: 'label_matches ^$ vs present empty', filter: { expression: lm('a', '^$') }, labels: { a: '' }, want: true },
  { name: 'label_matches \\p{Greek}', filter: { expression: lm('word', '^\\p{Greek}+$') }, labels: { word: 'λόγος' }, want: true },
  { name: 'label_matches \\p{Greek} vs latin', filter: { expression: lm('word', '^\\p{Greek}+$') }, labels: { word: 'logos' }, want: false },
  { name: 'label_matches dot is one code point (astral)', filter: { expression: lm('e', '^.$') }, labels: { e: '😀' }, want: true },
  { name: 'label_matches (?i)', filter: { expression: lm('m', '(?i)^get$') }, labels: { m: 'GeT' }, want: true },
  { name: 'label_matches digits', filter: { expression: lm('code', '^5\\d\\d$') }, labels: { code: '503' }, want: true },
  { name: 'label_matches digits miss', filter: { expression: lm('code', '^5\\d\\d$') }, labels: { code: '200' }, want: false },
  { name: 'label_matches POSIX class', filter: { expression: lm('a', '^[[:alpha:]]+$') }, labels: { a: 'abc' }, want: true },
  { name: 'label_matches multiline off: $ is end of text', filter: { expression: lm('a', '^x$') }, labels: { a: 'x\ny' }, want: false },

  // unicode names and values
  { name: 'unicode label name and value', filter: { match_labels: { 'ключ': 'значение' } }, labels: { 'ключ': 'значение' }, want: true },
  { name: 'unicode normalisation is not applied', filter: { expression: le('n', 'é') }, labels: { n: 'e\u0301' }, want: false },
  { name: 'emoji label', filter: { expression: ex('🏷') }, labels: { '🏷': '' }, want: true },

  // nesting
  { name: 'all true', filter: { expression: { all: { of: [ex('a'), le('b', '1')] } } }, labels: { a: '', b: '1' }, want: true },
  { name: 'all one false', filter: { expression: { all: { of: [ex('a'), le('b', '1')] } } }, labels: { a: '', b: '2' }, want: false },
  { name: 'all of three', filter: { expression: { all: { of: [ex('a'), ex('b'), ex('c')] } } }, labels: { a: '', b: '', c: '' }, want: true },
  { name: 'all of three, last false', filter: { expression: { all: { of: [ex('a'), ex('b'), ex('c')] } } }, labels: { a: '', b: '' }, want: false },
  { name: 'empty all is true', filter: { expression: { all: { of: [] } } }, labels: {}, want: true },
  { name: 'any one true', filter: { expression: { any: { of: [ex('a'), ex('b')] } } }, labels: { b: '' }, want: true },
  { name: 'any none true', filter: { expression: { any: { of: [ex('a'), ex('b'), ex('c')] } } }, labels: { d: '' }, want: false },
  { name: 'any of three, last true', filter: { expression: { any: { of: [ex('a'), ex('b'), ex('c')] } } }, labels: { c: '' }, want: true },
  { name: 'empty any is false', filter: { expression: { any: { of: [] } } }, labels: { a: '' }, want: false },
  { name: 'not', filter: { expression: { not: ex('a') } }, labels: {}, want: true },
  { name: 'not not', filter: { expression: { not: { not: ex('a') } } }, labels: {}, want: false },
  { name: 'not label_equals on missing label is true', filter: { expression: { not: le('a', 'x') } }, labels: {}, want: true },
  {
    name: 'nested all/any/not',
    filter: { expression: { all: { of: [{ any: { of: [le('m', 'GET'), le('m', 'HEAD')] } }, { not: lm('path', '^/admin') }] } } },
    labels: { m: 'HEAD', path: '/api' },
    want: true,
  },
  {
    name: 'nested all/any/not, negated part fails',
    filter: { expression: { all: { of: [{ any: { of: [le('m', 'GET'), le('m', 'HEAD')] } }, { not: lm('path', '^/admin') }] } } },
    labels: { m: 'GET', path: '/admin/x' },
    want: false,
  },
  { name: 'three parts ANDed: all hold', filter: { match_labels: { a: '1' }, match_expressions: [req('b', 'Exists')], expression: ex('c') }, labels: { a: '1', b: '', c: '' }, want: true },
  { name: 'three parts ANDed: expression fails', filter: { match_labels: { a: '1' }, match_expressions: [req('b', 'Exists')], expression: ex('c') }, labels: { a: '1', b: '' }, want: false },
  { name: 'three parts ANDed: match_labels fails', filter: { match_labels: { a: '1' }, match_expressions: [req('b', 'Exists')], expression: ex('c') }, labels: { a: '2', b: '', c: '' }, want: false },

  // prototype-named labels: only own properties count
  { name: 'constructor label missing', filter: { expression: ex('constructor') }, labels: {}, want: false },
  { name: 'toString label missing', filter: { match_expressions: [req('toString', 'Exists')] }, labels: {}, want: false },
  { name: 'toString DoesNotExist', filter: { match_expressions: [req('toString', 'DoesNotExist')] }, labels: {}, want: true },
  { name: '__proto__ label missing', filter: { expression: ex('__proto__') }, labels: {}, want: false },
  { name: 'hasOwnProperty NotIn missing', filter: { match_expressions: [req('hasOwnProperty', 'NotIn', ['x'])] }, labels: {}, want: true },
  { name: 'constructor label present', filter: { match_labels: { constructor: 'c' } }, labels: { constructor: 'c' }, want: true },
  { name: '__proto__ label present (JSON-parsed)', filter: parsed('{"match_labels":{"__proto__":"p"}}'), labels: parsed('{"__proto__":"p"}'), want: true },
  { name: '__proto__ label regex', filter: { expression: lm('__proto__', '^p') }, labels: parsed('{"__proto__":"pq"}'), want: true },
  { name: 'valueOf label matches .*: missing', filter: { expression: lm('valueOf', '.*') }, labels: {}, want: false },
  { name: 'null-prototype labels', filter: { match_labels: { a: '1' } }, labels: Object.assign(Object.create(null) as Record<string, string>, { a: '1' }), want: true },
  { name: 'inherited label does not count', filter: { expression: ex('a') }, labels: Object.create({ a: '1' }) as FlowLabels, want: false },
  { name: 'non-string label value does not count', filter: { expression: ex('a') }, labels: { a: 1 } as unknown as FlowLabels, want: false },
];

test('semantics table has at least 60 cases', () => {
  assert.ok(cases.length >= 60, `${cases.length} cases`);
});

for (const c of cases) {
  test(`semantics: ${c.name}`, () => {
    const matcher = compileLabelMatcher(c.filter);
    assert.equal(matcher.matches(c.labels), c.want, `${JSON.stringify(c.filter)} on ${JSON.stringify(c.labels)}`);
  });
}

test('a compiled matcher is reusable and keeps no state between calls', () => {
  const m = compileLabelMatcher({ expression: { any: { of: [lm('a', '^x'), le('b', 'y')] } } });
  for (let i = 0; i < 3; i++) {
    assert.equal(m.matches({ a: 'xz' }), true);
    assert.equal(m.matches({ a: 'zx' }), false);
    assert.equal(m.matches({ b: 'y' }), true);
  }
});

test('matches works detached from its object', () => {
  const { matches } = compileLabelMatcher({ match_labels: { a: '1' } });
  assert.equal(matches({ a: '1' }), true);
  assert.equal(matches({ a: '2' }), false);
});
