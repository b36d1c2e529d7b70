import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compilePolicy, validatePolicy } from './compile.js';
import { UNSUPPORTED_COMPONENTS } from './components/index.js';
import { c, input, out, s, series, type Obj } from './test-circuit.js';

const ingress = (port: string, signal: string): Obj => ({ nested_signal_ingress: { port_name: port, out_ports: { signal: { signal_name: signal } } } });
const egress = (port: string, signal: string): Obj => ({ nested_signal_egress: { port_name: port, in_ports: { signal: s(signal) } } });
const mul = (lhs: string, k: number, to: string): Obj => ({ arithmetic_combinator: { operator: 'mul', in_ports: { lhs: s(lhs), rhs: c(k) }, out_ports: out(to) } });
/** A nested circuit: OUT-port `y` = 2 × IN-port `x`; its own signals are named IN and X like outer ones. */
const doubler = (from: Obj, to: string): Obj => ({
  nested_circuit: { in_ports_map: { x: from }, out_ports_map: { y: { signal_name: to } }, components: [ingress('x', 'IN'), mul('IN', 2, 'X'), egress('y', 'X')] },
});

test('a nested circuit runs inlined: its ports map the enclosing signals, its own signal names do not meet the outer ones', () => {
  const got = series([input('IN'), doubler(s('IN'), 'OUT'), mul('OUT', 1, 'X')], [{ IN: 3 }, { IN: null }, { IN: 5 }], ['OUT', 'X', 'root.1/X', 'root.1/IN']);
  assert.deepEqual(got.OUT, [6, null, 10]);
  assert.deepEqual(got.X, [6, null, 10], 'the outer X is its own signal');
  assert.deepEqual(got['root.1/X'], [6, null, 10], 'inner signals are reported as <nested id>/<name>');
  assert.deepEqual(got['root.1/IN'], [3, null, 5]);
  // A constant mapped in; nested circuits inside nested circuits.
  const deep = [{ nested_circuit: { in_ports_map: { a: c(4) }, out_ports_map: { b: { signal_name: 'OUT' } }, components: [ingress('a', 'A'), doubler(s('A'), 'B'), egress('b', 'B')] } }];
  const twice = series(deep, [{}], ['OUT', 'root.0/A', 'root.0.1/IN']);
  assert.deepEqual(twice, { OUT: [8], 'root.0/A': [4], 'root.0.1/IN': [4] });
});

test('components inside a nested circuit get ids under its id; an unmapped ingress reads invalid, an unmapped egress writes nothing', () => {
  const limiter = { flow_control: { rate_limiter: { in_ports: { bucket_capacity: s('CAP'), fill_amount: c(1) }, parameters: { interval: '1s' }, selectors: [{ control_point: 'cp' }] } } };
  const policy = { circuit: { components: [{ variable: { constant_output: { value: 1 }, out_ports: out('V') } }, { nested_circuit: { in_ports_map: { cap: s('V') }, components: [ingress('cap', 'C'), mul('C', 10, 'CAP'), limiter, ingress('unmapped', 'U'), egress('nowhere', 'CAP')] } }] } };
  const compiled = compilePolicy('p', policy);
  assert.deepEqual(compiled.components.map((x) => x.component_id), ['root.1.2']);
  const tick = compiled.createCircuit().tick(0, { promql: new Map(), variables: new Map() });
  assert.deepEqual(tick.decisions.get('root.1.2'), { kind: 'rate_limiter', bucket_capacity: 10, fill_amount: 1, pass_through: false });
  assert.equal(tick.signals['root.1/U'], null);
  assert.deepEqual(Object.keys(tick.signals).sort(), ['V', 'root.1/C', 'root.1/CAP', 'root.1/U']);
  // A variable inside is set by its scoped name.
  const inner = compilePolicy('p', { circuit: { components: [{ nested_circuit: { components: [{ bool_variable: { out_ports: out('ON') } }] } }] } });
  assert.deepEqual(inner.variables, ['root.0/ON']);
  assert.deepEqual(inner.createCircuit().tick(0, { promql: new Map(), variables: new Map([['root.0/ON', 1]]) }).signals, { 'root.0/ON': 1 });
});

test('nested circuit problems name their paths: the nested components\' schema, unsupported and ignored parts, port names, ingress outside', () => {
  const at = (spec: Obj) => validatePolicy(spec).map((p) => `${p.path}: ${p.message}`);
  const nested = (body: Obj): Obj => ({ circuit: { components: [input('IN'), { nested_circuit: body }] } });
  const unknown = at(nested({ components: [{ emma: {} }] }));
  assert.ok(unknown.some((p) => p.startsWith('spec.circuit.components[1].nested_circuit.components[0].emma: unknown field "emma"')), unknown.join('\n'));
  const bad = at(nested({ components: [{ sma: { in_ports: { input: s('X') }, parameters: { sma_window: 'soon' } } }] }));
  assert.ok(bad.some((p) => p.startsWith('spec.circuit.components[1].nested_circuit.components[0].sma.parameters.sma_window: "soon" is not a positive duration')), bad.join('\n'));
  const refused = UNSUPPORTED_COMPONENTS[0];
  const part = refused.reduceRight<Obj>((inner, key) => ({ [key]: inner }), {});
  const unsupported = at(nested({ components: [part] }));
  const name = refused.join('.');
  assert.ok(unsupported.some((p) => p.startsWith(`spec.circuit.components[1].nested_circuit.components[0].${name}: ${name} is an Aperture feature`)), unsupported.join('\n'));
  const unmapped = at(nested({ in_ports_map: { x: s('IN'), z: s('IN') }, components: [ingress('x', 'A'), ingress('x', 'B')] }));
  assert.deepEqual(unmapped.sort(), [
    'spec.circuit.components[1].nested_circuit.components[1].nested_signal_ingress.port_name: port "x" is already used by spec.circuit.components[1].nested_circuit.components[0].nested_signal_ingress.port_name',
    'spec.circuit.components[1].nested_circuit.in_ports_map.z: no nested_signal_ingress inside the nested circuit has port_name "z"',
  ]);
  const noEgress = at(nested({ out_ports_map: { y: { signal_name: 'Y' } }, components: [] }));
  assert.deepEqual(noEgress, ['spec.circuit.components[1].nested_circuit.out_ports_map.y: no nested_signal_egress inside the nested circuit has port_name "y"']);
  assert.deepEqual(at({ circuit: { components: [ingress('x', 'A')] } }), ['spec.circuit.components[0].nested_signal_ingress: a nested_signal_ingress belongs inside a nested_circuit']);
  // A signal the nested circuit reads but nobody inside writes: the outer one of that name does not count.
  const unwritten = at(nested({ components: [mul('IN', 2, 'X')] }));
  assert.deepEqual(unwritten, ['spec.circuit.components[1].nested_circuit.components[0].arithmetic_combinator.in_ports.lhs.signal_name: signal "root.1/IN" is read but no component writes it']);
});
