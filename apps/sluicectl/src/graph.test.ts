import { test } from 'node:test';
import assert from 'node:assert/strict';
import { circuitPicture, toDot, toMermaid } from './graph.js';

const spec = {
  circuit: {
    components: [
      { variable: { constant_output: { value: 1 }, out_ports: { output: { signal_name: 'A' } } } },
      { arithmetic_combinator: { operator: 'add', in_ports: { lhs: { signal_name: 'A' }, rhs: { signal_name: 'MISSING' } }, out_ports: { output: { signal_name: 'B' } } } },
    ],
  },
};

test('signals become edges between their writer and readers; a signal nobody writes is a problem, one nobody reads is unread', () => {
  const p = circuitPicture('p', spec);
  assert.deepEqual(p.nodes.map((n) => [n.id, n.kind]), [['root.0', 'variable'], ['root.1', 'arithmetic_combinator']]);
  assert.deepEqual(p.edges.map((e) => [e.signal, e.from, e.to, e.problem !== undefined]), [
    ['A', 'root.0', 'root.1', false],
    ['MISSING', undefined, 'root.1', true],
    ['B', 'root.1', undefined, false],
  ]);
  assert.match(p.problems.map((x) => x.message).join(), /"MISSING" is read but no component writes it/);
});

test('Mermaid and DOT draw every component and signal, the dangling ones marked', () => {
  const p = circuitPicture('p', spec);
  const m = toMermaid(p);
  assert.match(m, /^flowchart LR\n/);
  assert.match(m, /c_root_0 -->\|"A"\| c_root_1/);
  assert.match(m, /s1\(\["MISSING: no writer"\]\):::problem -\.->\|"MISSING"\| c_root_1/);
  assert.match(m, /c_root_1 -\.->\|"B"\| s2\(\["B: unread"\]\):::unread/);
  const d = toDot(p);
  assert.match(d, /"root\.0" -> "root\.1" \[label="A"\];/);
  assert.match(d, /s1 \[shape=ellipse, style=dashed, color="#cc0000", label="MISSING: no writer"\];/);
  assert.match(d, /"s1" -> "root\.1" \[label="MISSING", style=dashed, color="#cc0000"/);
  assert.match(d, /color="#888888", label="B: unread"/);
});

test('a spec that cannot be read gives its problems and no nodes', () => {
  const p = circuitPicture('p', { circuit: { components: [{ no_such_component: {} }] } });
  assert.equal(p.nodes.length, 0);
  assert.ok(p.problems.length > 0);
});
