import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { compilePolicy, validatePolicy } from './compile.js';
import { PolicyCompileError } from './problems.js';
import { fullPolicy } from './test-fixtures.js';

type Path = (string | number)[];

/** Every path of a JSON tree (containers and leaves). */
function pathsOf(value: unknown, at: Path = [], out: Path[] = []): Path[] {
  out.push(at);
  if (Array.isArray(value)) value.forEach((v, i) => pathsOf(v, [...at, i], out));
  else if (typeof value === 'object' && value !== null) for (const [k, v] of Object.entries(value)) pathsOf(v, [...at, k], out);
  return out;
}

type Mutation = { kind: 'set'; value: unknown } | { kind: 'delete' } | { kind: 'add'; key: string; value: unknown };

/** Applies `m` at `path` (values are copied: fast-check hands out the same constant objects again). */
function mutate(spec: unknown, path: Path, original: Mutation): unknown {
  const m = structuredClone(original);
  if (path.length === 0) return m.kind === 'set' ? m.value : spec;
  const parent = path.slice(0, -1).reduce<unknown>((node, key) => (node as Record<string | number, unknown>)[key], spec) as Record<string | number, unknown>;
  const last = path[path.length - 1];
  if (m.kind === 'set') parent[last] = m.value;
  else if (m.kind === 'delete') {
    if (Array.isArray(parent)) parent.splice(Number(last), 1);
    else delete parent[last];
  } else {
    const target = parent[last];
    if (typeof target === 'object' && target !== null && !Array.isArray(target)) Object.defineProperty(target, m.key, { value: m.value, enumerable: true, writable: true, configurable: true });
    else if (Array.isArray(target)) target.push(m.value);
  }
  return spec;
}

const interesting = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom(-1, 0, 1e308, -1e308, 150, 0.5, '', '0s', '-1s', '1h', 'NaN', '+Inf', '(', '[a-', 'gt', 'add', 'Like', null, true, [], {}),
  fc.constantFrom({ signal_name: 'X' }, { constant_signal: { value: -5 } }, { constant_signal: { special_value: 'NaN' } }, { match_expressions: [{ key: 'a', operator: 'In' }] }),
);
const keys = fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('__proto__', 'constructor', 'toString', 'flow_control', 'quota_scheduler', 'rate_limiter', 'signal_name', 'alerter'));
const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  interesting.map((value) => ({ kind: 'set' as const, value })),
  fc.constant({ kind: 'delete' as const }),
  fc.tuple(keys, interesting).map(([key, value]) => ({ kind: 'add' as const, key, value })),
);

test('random mutations of a valid policy: only PolicyCompileError, never a crash', () => {
  let refused = 0;
  let compiled = 0;
  fc.assert(
    fc.property(fc.array(fc.tuple(fc.nat(), mutation), { minLength: 1, maxLength: 4 }), (steps) => {
      let spec: unknown = fullPolicy();
      for (const [pick, m] of steps) {
        const paths = pathsOf(spec);
        spec = mutate(spec, paths[pick % paths.length], m);
      }
      const problems = validatePolicy(spec);
      assert.ok(Array.isArray(problems));
      for (const p of problems) {
        assert.equal(typeof p.path, 'string');
        assert.ok(p.path === 'name' || p.path.startsWith('spec'), p.path);
        assert.equal(typeof p.message, 'string');
      }
      try {
        const policy = compilePolicy('p', spec);
        compiled++;
        assert.equal(problems.length, 0);
        const circuit = policy.createCircuit();
        for (let t = 0; t < 3; t++) circuit.tick(t * 1000, { promql: new Map(policy.promql.map((q) => [q.id, t === 1 ? undefined : t])), variables: new Map() });
        assert.doesNotThrow(() => JSON.stringify(policy.components));
      } catch (err) {
        if (!(err instanceof PolicyCompileError)) throw err;
        refused++;
        assert.ok(err.problems.length > 0);
        assert.deepEqual(err.problems, problems);
      }
    }),
    { numRuns: 150, seed: 20261123 },
  );
  assert.equal(refused + compiled, 150);
  assert.ok(refused > 25, `only ${refused} mutations were refused`);
});
