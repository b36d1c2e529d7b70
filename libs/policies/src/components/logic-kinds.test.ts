// and, or, inverter, unary_operator and bool_variable, as Aperture 2.8 computes them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compilePolicy } from '../compile.js';
import { checkDynamicConfig } from '../dynamic-config.js';
import { input, out, outputs, s, series } from '../test-circuit.js';

const T = 7; // any valid non-zero value is true
const logic = (kind: string, ins: Record<string, number | null>) => {
  const names = Object.keys(ins);
  return series([...names.map(input), { [kind]: { in_ports: { inputs: names.map(s) }, out_ports: out('OUT') } }], [ins], ['OUT']).OUT[0];
};

test('and: 0 when any input is 0, else invalid when any is invalid, else 1', () => {
  assert.equal(logic('and', { A: T, B: 1 }), 1);
  assert.equal(logic('and', { A: T, B: 0 }), 0);
  assert.equal(logic('and', { A: null, B: 0 }), 0, 'false wins over invalid');
  assert.equal(logic('and', { A: null, B: T }), null);
  assert.equal(logic('and', { A: -1, B: 0.5 }), 1, 'negative and fractional values are true');
  assert.equal(series([{ and: { out_ports: out('OUT') } }], [{}], ['OUT']).OUT[0], 1, 'no inputs: true');
});

test('or: 1 when any input is true, else invalid when any is invalid, else 0', () => {
  assert.equal(logic('or', { A: 0, B: T }), 1);
  assert.equal(logic('or', { A: null, B: T }), 1, 'true wins over invalid');
  assert.equal(logic('or', { A: null, B: 0 }), null);
  assert.equal(logic('or', { A: 0, B: 0 }), 0);
  assert.equal(series([{ or: { out_ports: out('OUT') } }], [{}], ['OUT']).OUT[0], 0, 'no inputs: false');
});

test('inverter: 1 for 0, 0 for a true value, invalid for invalid', () => {
  assert.deepEqual(outputs({ inverter: { in_ports: { input: s('IN') }, out_ports: out('OUT') } }, [0, T, -2, null]), [1, 0, 0, null]);
});

test('unary_operator: Go math functions; invalid in, or no value at the point (NaN), is invalid; ±Inf is valid', () => {
  const op = (operator: string, ins: (number | null)[]) => outputs({ unary_operator: { operator, in_ports: { input: s('IN') }, out_ports: out('OUT') } }, ins);
  const close = (operator: string, x: number, expected: number) => {
    const [got] = op(operator, [x]);
    assert.ok(got !== null && Math.abs(got - expected) <= 1e-7 * Math.max(1, Math.abs(expected)), `${operator}(${x}) = ${got}, want ${expected}`);
  };
  assert.deepEqual(op('sqrt', [4, -1, null]), [2, null, null]);
  assert.deepEqual(op('log', [0]), [Number.NEGATIVE_INFINITY]);
  assert.deepEqual(op('abs', [-3]), [3]);
  assert.deepEqual(op('round', [2.5, -2.5, 2.4]), [3, -3, 2]);
  assert.deepEqual(op('roundtoeven', [2.5, 3.5, -2.5, 2.6]), [2, 4, -2, 3]);
  assert.deepEqual(op('trunc', [-2.7]), [-2]);
  assert.deepEqual(op('exp2', [10]), [1024]);
  assert.deepEqual(op('acos', [2]), [null]);
  // Values of Go's math package.
  close('erf', 0.5, 0.5204998778130465);
  close('erfc', 0.5, 0.4795001221869535);
  close('erfinv', 0.5, 0.4769362762044699);
  close('erfcinv', 0.5, 0.4769362762044699);
  close('gamma', 5, 24);
  close('gamma', 0.5, 1.772453850905516);
  close('lgamma', -0.5, 1.2655121234846454);
  close('j0', 1, 0.7651976865579666);
  close('j1', 1, 0.44005058574493355);
  close('y0', 1, 0.08825696421567697);
  close('y1', 1, -0.7812128213002887);
  assert.deepEqual(op('y0', [0, -1]), [Number.NEGATIVE_INFINITY, null]);
  assert.deepEqual(op('gamma', [-1]), [null], 'Γ at a negative integer has no value');
  assert.throws(() => compilePolicy('p', { circuit: { components: [input('IN'), { unary_operator: { operator: 'sqr', in_ports: { input: s('IN') }, out_ports: out('OUT') } }] } }), /operator/);
});

test('bool_variable: constant_output (false by default) as 1 or 0 until set through the API by its signal name; any non-zero value is true', () => {
  const policy = { circuit: { components: [{ bool_variable: { constant_output: true, config_key: 'k', out_ports: out('ON') } }, { bool_variable: { out_ports: out('OFF') } }] } };
  const compiled = compilePolicy('p', policy);
  assert.deepEqual(compiled.variables, ['ON', 'OFF']);
  const circuit = compiled.createCircuit();
  const tick = (variables: [string, number][]) => circuit.tick(0, { promql: new Map(), variables: new Map(variables) }).signals;
  assert.deepEqual(tick([]), { ON: 1, OFF: 0 });
  assert.deepEqual(tick([['ON', 0], ['OFF', 0.5]]), { ON: 0, OFF: 1 });
  assert.deepEqual(tick([['OFF', -3]]), { ON: 1, OFF: 1 });
  assert.throws(() => compilePolicy('p', { circuit: { components: [{ bool_variable: { constant_output: true } }] } }), /needs an output signal/);
});

test('bool_variable: config_key names a boolean of the dynamic configuration that sets it (by its output signal)', () => {
  const compiled = compilePolicy('p', { circuit: { components: [{ bool_variable: { constant_output: true, config_key: 'start', out_ports: out('ON') } }, { bool_variable: { out_ports: out('OFF') } }] } });
  assert.deepEqual(compiled.configKeys.map((k) => [k.key, k.type, k.target, k.path]), [['start', 'boolean', { variable: 'ON' }, 'spec.circuit.components[0].bool_variable.config_key']]);
  assert.deepEqual(checkDynamicConfig({ start: false }, compiled.configKeys).values, new Map([['start', false]]));
  const { problems } = checkDynamicConfig({ start: 'yes' }, compiled.configKeys);
  assert.deepEqual(problems.map((p) => p.path), ['dynamic_config.start']);
  assert.match(problems[0].message, /want a boolean/);
});
