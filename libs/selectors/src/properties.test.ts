import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { RE2JS } from 're2js';
import { InvalidArgumentError } from '@sluice/errors';
import { compileLabelMatcher, type FlowLabels } from './index.js';

const RUNS = { numRuns: 300 };

// ---- generators -----------------------------------------------------------

const names = ['a', 'b', 'c', '', '__proto__', 'constructor', 'toString', 'hasOwnProperty', 'λ'];
const labelName = fc.oneof({ arbitrary: fc.constantFrom(...names), weight: 4 }, { arbitrary: fc.string({ unit: 'binary' }), weight: 1 });
const nonEmptyName = labelName.filter((s) => s !== '');
const labelValue = fc.oneof({ arbitrary: fc.constantFrom('', 'x', 'y', '1', 'αβ'), weight: 4 }, { arbitrary: fc.string({ unit: 'binary' }), weight: 1 });
const regexSource = fc.oneof(
  fc.constantFrom('^a$', 'a', 'x|y', '^$', '.*', '\\p{Greek}', '^[[:digit:]]+$', '(?i)X', '(', '[', '(?=a)', '\\1', 'a**', '', 'a{1001}'),
  fc.string({ unit: 'binary', maxLength: 12 }),
);

/** Labels as untrusted input delivers them: own properties only, `__proto__` included. */
function labelsFrom(entries: ReadonlyArray<readonly [string, string]>): FlowLabels {
  const labels: Record<string, string> = {};
  for (const [k, v] of entries) Object.defineProperty(labels, k, { value: v, enumerable: true, writable: true, configurable: true });
  return labels;
}
const labels = fc.array(fc.tuple(labelName, labelValue), { maxLength: 6 }).map(labelsFrom);

/** Valid expressions only (for the equivalence properties). */
const validExpression = fc.letrec((tie) => ({
  expr: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.record({ label_exists: nonEmptyName }),
    fc.record({ label_equals: fc.record({ label: nonEmptyName, value: labelValue }, { requiredKeys: ['label'] }) }),
    fc.record({ label_matches: fc.record({ label: nonEmptyName, regex: fc.constantFrom('^a$', 'a', 'x|y', '^$', '.*', '\\p{Greek}', '(?i)X', '^.$') }) }),
    fc.record({ not: tie('expr') }),
    fc.record({ all: fc.record({ of: fc.array(tie('expr'), { maxLength: 3 }) }) }),
    fc.record({ any: fc.record({ of: fc.array(tie('expr'), { maxLength: 3 }) }) }),
  ),
})).expr;

/** Junk: anything JSON, mixed in with low weight wherever a value goes. */
const junk = fc.jsonValue({ maxDepth: 2 });
const or = <T>(arb: fc.Arbitrary<T>) => fc.oneof({ arbitrary: arb, weight: 15 }, { arbitrary: junk, weight: 1 });

/** Near-valid expressions: right shape most of the time, wrong in places. */
const nearExpression = fc.letrec((tie) => ({
  expr: or(
    fc.oneof(
      { depthSize: 'small' },
      fc.record({ label_exists: or(labelName) }),
      fc.record({ label_equals: or(fc.record({ label: or(labelName), value: or(labelValue) }, { requiredKeys: [] })) }),
      fc.record({ label_matches: or(fc.record({ label: or(labelName), regex: or(regexSource) }, { requiredKeys: [] })) }),
      fc.record({ not: tie('expr') }),
      fc.record({ all: or(fc.record({ of: or(fc.array(tie('expr'), { maxLength: 3 })) }, { requiredKeys: [] })) }),
      fc.record({ any: or(fc.record({ of: or(fc.array(tie('expr'), { maxLength: 3 })) })) }),
      fc.record({ label_exists: labelName, not: tie('expr') }),
      fc.record({ lable_equals: junk }),
      fc.constant({}),
    ),
  ),
})).expr;

const operator = or(fc.constantFrom('In', 'NotIn', 'Exists', 'DoesNotExist', 'DoesNotExists', 'in', 'Equals', ''));
const requirement = or(
  fc.record(
    { key: or(labelName), operator, values: or(fc.array(or(labelValue), { maxLength: 3 })), extra: junk },
    { requiredKeys: ['key', 'operator'] },
  ),
);
const nearFilter = or(
  fc.record(
    {
      match_labels: or(fc.dictionary(labelName, or(labelValue), { maxKeys: 3 })),
      match_expressions: or(fc.array(requirement, { maxLength: 3 })),
      expression: nearExpression,
    },
    { requiredKeys: [] },
  ),
).chain((f) => fc.oneof({ arbitrary: fc.constant(f), weight: 20 }, { arbitrary: fc.constant({ ...(f as object), matchLabels: {} }), weight: 1 }));

function compiles(filter: unknown): boolean {
  try {
    compileLabelMatcher(filter);
    return true;
  } catch (err) {
    if (err instanceof InvalidArgumentError) return false;
    throw err;
  }
}

// ---- robustness ------------------------------------------------------------

test('arbitrary JSON: compileLabelMatcher throws nothing but InvalidArgumentError', () => {
  fc.assert(
    fc.property(fc.jsonValue(), (json) => {
      compiles(json);
    }),
    { numRuns: 500 },
  );
});

test('near-valid filters: only InvalidArgumentError, with a field, and compiled matchers never throw', () => {
  let accepted = 0;
  let refused = 0;
  fc.assert(
    fc.property(nearFilter, fc.array(labels, { maxLength: 3 }), (filter, samples) => {
      let matcher;
      try {
        matcher = compileLabelMatcher(filter);
      } catch (err) {
        assert.ok(err instanceof InvalidArgumentError, String(err));
        assert.equal(typeof err.field, 'string');
        refused++;
        return;
      }
      accepted++;
      for (const l of samples) assert.equal(typeof matcher.matches(l), 'boolean');
    }),
    { numRuns: 1000 },
  );
  // Both outcomes are exercised, so the generator is really near the boundary.
  assert.ok(accepted > 50, `accepted ${accepted}`);
  assert.ok(refused > 50, `refused ${refused}`);
});

test('compiled matchers never throw on arbitrary label objects', () => {
  fc.assert(
    fc.property(
      validExpression,
      fc.dictionary(fc.string(), fc.string()),
      fc.dictionary(fc.string({ unit: 'binary' }), fc.jsonValue({ maxDepth: 1 })),
      (expression, strings, anything) => {
        const m = compileLabelMatcher({ expression });
        assert.equal(typeof m.matches(strings), 'boolean');
        assert.equal(typeof m.matches(anything as FlowLabels), 'boolean');
      },
    ),
    RUNS,
  );
});

// ---- equivalences -----------------------------------------------------------

const evaluate = (filter: unknown, l: FlowLabels) => compileLabelMatcher(filter).matches(l);

test('NotIn(values) is !In(values) when the label exists, and true when it does not', () => {
  fc.assert(
    fc.property(nonEmptyName, fc.array(labelValue, { minLength: 1, maxLength: 4 }), labels, (key, values, l) => {
      const inM = evaluate({ match_expressions: [{ key, operator: 'In', values }] }, l);
      const notInM = evaluate({ match_expressions: [{ key, operator: 'NotIn', values }] }, l);
      const exists = evaluate({ expression: { label_exists: key } }, l);
      assert.equal(notInM, exists ? !inM : true);
      if (!exists) assert.equal(inM, false);
    }),
    RUNS,
  );
});

test('In(values) is any(label_equals value...)', () => {
  fc.assert(
    fc.property(nonEmptyName, fc.array(labelValue, { minLength: 1, maxLength: 4 }), labels, (key, values, l) => {
      const inM = evaluate({ match_expressions: [{ key, operator: 'In', values }] }, l);
      const anyM = evaluate({ expression: { any: { of: values.map((value) => ({ label_equals: { label: key, value } })) } } }, l);
      assert.equal(inM, anyM);
    }),
    RUNS,
  );
});

test('not(not(e)) is e', () => {
  fc.assert(
    fc.property(validExpression, labels, (e, l) => {
      assert.equal(evaluate({ expression: { not: { not: e } } }, l), evaluate({ expression: e }, l));
    }),
    RUNS,
  );
});

test('De Morgan: any(a, b) is not(all(not a, not b)); all(a, b) is both parts ANDed', () => {
  fc.assert(
    fc.property(validExpression, validExpression, labels, (a, b, l) => {
      const ea = evaluate({ expression: a }, l);
      const eb = evaluate({ expression: b }, l);
      assert.equal(evaluate({ expression: { any: { of: [a, b] } } }, l), ea || eb);
      assert.equal(evaluate({ expression: { not: { all: { of: [{ not: a }, { not: b }] } } } }, l), ea || eb);
      assert.equal(evaluate({ expression: { all: { of: [a, b] } } }, l), ea && eb);
    }),
    RUNS,
  );
});

test('match_labels {k: v} is label_equals {label: k, value: v}', () => {
  fc.assert(
    fc.property(nonEmptyName, labelValue, labels, (k, v, l) => {
      const byMap = evaluate(JSON.parse(JSON.stringify({ match_labels: { [k]: v } })), l);
      assert.equal(byMap, evaluate({ expression: { label_equals: { label: k, value: v } } }, l));
      assert.equal(byMap, evaluate({ match_expressions: [{ key: k, operator: 'In', values: [v] }] }, l));
    }),
    RUNS,
  );
});

test('Exists / DoesNotExist(s) agree with label_exists', () => {
  fc.assert(
    fc.property(nonEmptyName, labels, (key, l) => {
      const exists = evaluate({ expression: { label_exists: key } }, l);
      assert.equal(evaluate({ match_expressions: [{ key, operator: 'Exists' }] }, l), exists);
      assert.equal(evaluate({ match_expressions: [{ key, operator: 'DoesNotExist' }] }, l), !exists);
      assert.equal(evaluate({ match_expressions: [{ key, operator: 'DoesNotExists', values: [] }] }, l), !exists);
      assert.equal(exists, Object.prototype.hasOwnProperty.call(l, key));
    }),
    RUNS,
  );
});

test('label_matches ^quote(v)$ is label_equals v (unicode values)', () => {
  fc.assert(
    fc.property(nonEmptyName, fc.string({ unit: 'grapheme', maxLength: 8 }), labels, (label, v, l) => {
      const regex = `^${RE2JS.quote(v)}$`;
      const withValue = labelsFrom([...Object.entries(l), [label, v]]);
      for (const target of [l, withValue]) {
        assert.equal(
          evaluate({ expression: { label_matches: { label, regex } } }, target),
          evaluate({ expression: { label_equals: { label, value: v } } }, target),
        );
      }
    }),
    RUNS,
  );
});

test('a filter combining parts is the AND of the parts', () => {
  fc.assert(
    fc.property(fc.dictionary(nonEmptyName, labelValue, { maxKeys: 2 }), validExpression, labels, (ml, e, l) => {
      const matchLabels = JSON.parse(JSON.stringify(ml)) as Record<string, string>;
      const both = evaluate({ match_labels: matchLabels, expression: e }, l);
      assert.equal(both, evaluate({ match_labels: matchLabels }, l) && evaluate({ expression: e }, l));
    }),
    RUNS,
  );
});
