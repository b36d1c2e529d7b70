import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compilePolicy } from './compile.js';
import type { CircuitInputs } from './circuit.js';
import { promqlCapacityPolicy } from './test-fixtures.js';

type Obj = Record<string, unknown>;
const NONE: CircuitInputs = { promql: new Map(), variables: new Map() };
const promql = (id: string, v: number | undefined): CircuitInputs => ({ promql: new Map([[id, v]]), variables: new Map() });

/** The signals of one tick of a fresh circuit of `components`. */
function signalsOf(components: Obj[], inputs: CircuitInputs = NONE, nowMs = 0) {
  return compilePolicy('t', { circuit: { components } }).createCircuit().tick(nowMs, inputs).signals;
}

const c = (value: number) => ({ constant_signal: { value } });
const s = (name: string) => ({ signal_name: name });
const out = (name: string) => ({ output: { signal_name: name } });
const promqlComponent = (name: string) => ({ query: { promql: { query_string: 'up', out_ports: out(name) } } });

test('capacity = 2 × PromQL, or 10 when it is missing (switcher and decider)', () => {
  const circuit = compilePolicy('p', promqlCapacityPolicy()).createCircuit();
  const missing = circuit.tick(0, NONE);
  assert.deepEqual(missing.decisions.get('root.4'), { kind: 'rate_limiter', bucket_capacity: 10, fill_amount: 5, pass_through: false });
  assert.equal(missing.signals.Q, null);
  assert.equal(missing.signals.DOUBLE, null);
  const seven = circuit.tick(3, promql('root.0', 7)).decisions.get('root.4');
  assert.ok(seven?.kind === 'rate_limiter');
  assert.equal(seven.bucket_capacity, 14);
  assert.equal(circuit.tick(4, promql('root.0', 0)).signals.CAP, 0, 'a valid zero is 2 × 0, not the fallback');
  assert.equal(circuit.tick(5, promql('root.0', undefined)).signals.CAP, 10);
  assert.equal(circuit.tick(6, promql('root.0', Number.NaN)).signals.CAP, 10);
});

test('capacity = 2 × PromQL, or 10 when it is missing (first_valid)', () => {
  const components = [
    promqlComponent('Q'),
    { arithmetic_combinator: { operator: 'mul', in_ports: { lhs: s('Q'), rhs: c(2) }, out_ports: out('D') } },
    { first_valid: { in_ports: { inputs: [s('D'), c(10)] }, out_ports: out('CAP') } },
  ];
  assert.equal(signalsOf(components).CAP, 10);
  assert.equal(signalsOf(components, promql('root.0', 4)).CAP, 8);
});

test('a rate limiter keeps its last good values while an input is invalid or out of range; none before the first', () => {
  const components = [
    promqlComponent('Q'),
    {
      flow_control: {
        rate_limiter: {
          in_ports: { bucket_capacity: s('Q'), fill_amount: c(1), pass_through: s('Q') },
          parameters: { interval: '1s' },
          selectors: [{ control_point: 'a' }],
        },
      },
    },
  ];
  const circuit = compilePolicy('p', { circuit: { components } }).createCircuit();
  assert.equal(circuit.tick(0, NONE).decisions.size, 0, 'no decision before a valid capacity');
  assert.deepEqual(circuit.tick(1, promql('root.0', 3)).decisions.get('root.1'), { kind: 'rate_limiter', bucket_capacity: 3, fill_amount: 1, pass_through: true });
  assert.deepEqual(circuit.tick(2, NONE).decisions.get('root.1'), { kind: 'rate_limiter', bucket_capacity: 3, fill_amount: 1, pass_through: true });
  assert.deepEqual(circuit.tick(3, promql('root.0', -5)).decisions.get('root.1'), { kind: 'rate_limiter', bucket_capacity: 3, fill_amount: 1, pass_through: true });
  assert.deepEqual(circuit.tick(4, promql('root.0', 0)).decisions.get('root.1'), { kind: 'rate_limiter', bucket_capacity: 0, fill_amount: 1, pass_through: false });
  // Each createCircuit starts afresh.
  assert.equal(compilePolicy('p', { circuit: { components } }).createCircuit().tick(0, NONE).decisions.size, 0);
});

test('a sampler decides its accept percentage; out of 0..100 keeps the last good one', () => {
  const components = [
    { variable: { constant_output: { value: 30 }, out_ports: out('PCT') } },
    { flow_control: { sampler: { in_ports: { accept_percentage: s('PCT') }, parameters: { selectors: [{ control_point: 'a' }] } } } },
  ];
  const circuit = compilePolicy('p', { circuit: { components } }).createCircuit();
  assert.deepEqual(circuit.tick(0, NONE).decisions.get('root.1'), { kind: 'sampler', accept_percentage: 30, pass_through: false });
  const set = (v: number): CircuitInputs => ({ promql: new Map(), variables: new Map([['PCT', v]]) });
  assert.deepEqual(circuit.tick(1, set(75)).decisions.get('root.1'), { kind: 'sampler', accept_percentage: 75, pass_through: false });
  assert.deepEqual(circuit.tick(2, set(150)).decisions.get('root.1'), { kind: 'sampler', accept_percentage: 75, pass_through: false });
  assert.deepEqual(circuit.tick(3, set(Number.NaN)).decisions.get('root.1'), { kind: 'sampler', accept_percentage: 75, pass_through: false });
});

test('variable: constant_output until set through the API; NaN is invalid', () => {
  const components = [{ variable: { constant_output: { value: 5 }, out_ports: out('V') } }];
  assert.equal(signalsOf(components).V, 5);
  assert.equal(signalsOf(components, { promql: new Map(), variables: new Map([['V', 9]]) }).V, 9);
  assert.equal(signalsOf([{ variable: { constant_output: { special_value: 'NaN' }, out_ports: out('V') } }]).V, null);
  assert.equal(signalsOf([{ variable: { constant_output: { special_value: '+Inf' }, out_ports: out('V') } }]).V, Number.POSITIVE_INFINITY);
  const problems = compilePolicy.bind(null, 'p', { circuit: { components: [{ variable: { constant_output: { value: 1 } } }] } });
  assert.throws(problems, /variable needs an output signal/);
});

test('arithmetic_combinator: every operator; invalid in, invalid out; division by zero is invalid', () => {
  const arith = (operator: string, lhs: Obj, rhs: Obj) => signalsOf([{ arithmetic_combinator: { operator, in_ports: { lhs, rhs }, out_ports: out('O') } }]).O;
  assert.equal(arith('add', c(2), c(3)), 5);
  assert.equal(arith('sub', c(2), c(3)), -1);
  assert.equal(arith('mul', c(2), c(3)), 6);
  assert.equal(arith('div', c(3), c(2)), 1.5);
  assert.equal(arith('div', c(3), c(0)), null);
  assert.equal(arith('xor', c(6), c(3)), 5);
  assert.equal(arith('lshift', c(1), c(3)), 8);
  assert.equal(arith('rshift', c(8), c(2)), 2);
  assert.equal(arith('add', { constant_signal: { special_value: 'NaN' } }, c(1)), null);
  assert.equal(arith('sub', { constant_signal: { special_value: '+Inf' } }, { constant_signal: { special_value: '+Inf' } }), null, 'Inf - Inf is NaN: invalid');
});

test('min and max: invalid when any input is; first_valid skips invalid inputs', () => {
  const nan = { constant_signal: { special_value: 'NaN' } };
  const run = (kind: string, inputs: Obj[]) => signalsOf([{ [kind]: { in_ports: { inputs }, out_ports: out('O') } }]).O;
  assert.equal(run('min', [c(3), c(1), c(2)]), 1);
  assert.equal(run('max', [c(3), c(1), c(2)]), 3);
  assert.equal(run('min', [c(3), nan]), null);
  assert.equal(run('max', [nan, c(1)]), null);
  assert.equal(run('first_valid', [nan, c(7), c(8)]), 7);
  assert.equal(run('first_valid', [nan]), null);
});

test('decider: each comparison; invalid inputs give 0; true_for and false_for delay a change', () => {
  const decide = (operator: string, a: number, b: number) =>
    signalsOf([{ decider: { operator, in_ports: { lhs: c(a), rhs: c(b) }, out_ports: out('O') } }]).O;
  assert.deepEqual(
    ['gt', 'lt', 'gte', 'lte', 'eq', 'neq'].map((op) => [decide(op, 1, 2), decide(op, 2, 2)]),
    [[0, 0], [1, 0], [0, 1], [1, 1], [0, 1], [1, 0]],
  );
  assert.equal(signalsOf([{ decider: { operator: 'lt', in_ports: { lhs: { constant_signal: { special_value: 'NaN' } }, rhs: c(1) }, out_ports: out('O') } }]).O, 0);

  const components = [
    promqlComponent('Q'),
    { decider: { operator: 'gt', true_for: '10s', false_for: '5s', in_ports: { lhs: s('Q'), rhs: c(0) }, out_ports: out('O') } },
  ];
  const circuit = compilePolicy('p', { circuit: { components } }).createCircuit();
  const at = (ms: number, q: number) => circuit.tick(ms, promql('root.0', q)).signals.O;
  assert.equal(at(0, -1), 0, 'the first comparison is settled at once');
  assert.equal(at(1000, 1), 0, 'true, but not yet for 10s');
  assert.equal(at(10_999, 1), 0);
  assert.equal(at(11_000, 1), 1);
  assert.equal(at(12_000, -1), 1, 'false, but not yet for 5s');
  assert.equal(at(13_000, 1), 1, 'back to true: nothing pending');
  assert.equal(at(14_000, -1), 1);
  assert.equal(at(19_000, -1), 0);
});

test('switcher: on when the switch is valid and non-zero, else off', () => {
  const sw = (swValue: Obj) => signalsOf([{ switcher: { in_ports: { on_signal: c(1), off_signal: c(2), switch: swValue }, out_ports: out('O') } }]).O;
  assert.equal(sw(c(1)), 1);
  assert.equal(sw(c(-3)), 1);
  assert.equal(sw(c(0)), 2);
  assert.equal(sw({ constant_signal: { special_value: 'NaN' } }), 2);
});

test('components run in signal order whatever their order in the list', () => {
  const components = [
    { arithmetic_combinator: { operator: 'add', in_ports: { lhs: s('B'), rhs: c(1) }, out_ports: out('C') } },
    { arithmetic_combinator: { operator: 'add', in_ports: { lhs: s('A'), rhs: c(1) }, out_ports: out('B') } },
    { variable: { constant_output: { value: 1 }, out_ports: out('A') } },
  ];
  assert.deepEqual(signalsOf(components), { A: 1, B: 2, C: 3 });
});

test('a PromQL component reads its result by component id and lists its evaluation interval', () => {
  const p = compilePolicy('p', { circuit: { components: [{ query: { promql: { query_string: 'up', evaluation_interval: '30s', out_ports: out('Q') } } }] } });
  assert.deepEqual(p.promql, [{ id: 'root.0', query: 'up', evaluationIntervalMs: 30_000 }]);
  assert.equal(p.createCircuit().tick(0, promql('root.0', 2)).signals.Q, 2);
  assert.equal(p.createCircuit().tick(0, promql('root.9', 2)).signals.Q, null);
});

test('signal names and rule labels such as __proto__ are plain names', () => {
  const components = [
    { variable: { constant_output: { value: 4 }, out_ports: out('__proto__') } },
    { arithmetic_combinator: { operator: 'add', in_ports: { lhs: s('__proto__'), rhs: c(1) }, out_ports: out('constructor') } },
  ];
  const signals = signalsOf(components);
  assert.equal(Object.getOwnPropertyDescriptor(signals, '__proto__')?.value, 4);
  assert.equal(signals.constructor, 5);
  const spec = JSON.parse(
    '{"resources":{"flow_control":{"classifiers":[{"selectors":[{"control_point":"a"}],"rules":{"__proto__":{"extractor":{"from":"request.http.method"}}}}]}}}',
  ) as unknown;
  const classifier = compilePolicy('p', spec).components[0];
  assert.ok(classifier.kind === 'classifier');
  assert.deepEqual(Object.keys(classifier.rules), ['__proto__']);
  assert.equal(JSON.stringify(classifier.rules), '{"__proto__":{"extractor":{"from":"request.http.method"}}}');
});
