import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compilePolicy, validatePolicy } from './compile.js';
import { PolicyCompileError } from './problems.js';
import { POLICY_SPEC_MAX_DEPTH } from './limits.js';
import { fullPolicy, promqlCapacityPolicy, rateLimiterPolicy } from './test-fixtures.js';

const RL = 'spec.circuit.components[0].flow_control.rate_limiter';

type Obj = Record<string, unknown>;

/** A deep copy of a fixture, changed by `edit`. */
function edited(base: Obj, edit: (spec: Obj & { circuit: { components: Obj[] } }) => void): Obj {
  const spec = structuredClone(base) as Obj & { circuit: { components: Obj[] } };
  edit(spec);
  return spec;
}

function rl(spec: { circuit: { components: Obj[] } }, i = 0): Obj & { in_ports: Obj; parameters: Obj; selectors: Obj[] } {
  return (spec.circuit.components[i].flow_control as Obj).rate_limiter as Obj & { in_ports: Obj; parameters: Obj; selectors: Obj[] };
}

function problemsOf(spec: unknown) {
  const problems = validatePolicy(spec);
  assert.ok(problems.length > 0, 'expected problems');
  return problems;
}

function assertProblem(spec: unknown, path: string, pattern: RegExp) {
  const problems = problemsOf(spec);
  assert.ok(
    problems.some((p) => p.path === path && pattern.test(p.message)),
    `no problem at ${path} matching ${pattern}; got ${JSON.stringify(problems, null, 1)}`,
  );
}

test('a rate limiter with constant signals compiles into one published component per agent group', () => {
  const c = compilePolicy('rl', rateLimiterPolicy());
  assert.equal(c.name, 'rl');
  assert.equal(c.evaluationIntervalMs, 1000);
  assert.match(c.hash, /^[0-9a-f]{64}$/);
  assert.deepEqual(c.ignored, []);
  assert.equal(c.components.length, 1);
  const [rlc] = c.components;
  assert.equal(rlc.kind, 'rate_limiter');
  assert.equal(rlc.component_id, 'root.0');
  assert.equal(rlc.agent_group, 'default');
  assert.deepEqual(rlc.selectors, [{ control_point: 'ingress', service: 'any', agent_group: 'default' }]);
  assert.ok(rlc.kind === 'rate_limiter');
  assert.deepEqual(rlc.parameters, {
    label_key: 'http.request.header.user',
    tokens_label_key: 'tokens',
    interval_ms: 1000,
    continuous_fill: true,
    max_idle_time_ms: 7_200_000,
    lazy_sync: { enabled: false, num_sync: 4 },
  });
  const out = c.createCircuit().tick(0, { promql: new Map(), variables: new Map() });
  assert.deepEqual(out.decisions.get('root.0'), { kind: 'rate_limiter', bucket_capacity: 20, fill_amount: 10, pass_through: false });
});

test('defaults: evaluation_interval 10s; equal specs in another key order hash equally', () => {
  const spec = rateLimiterPolicy() as { circuit: Obj };
  delete spec.circuit.evaluation_interval;
  const a = compilePolicy('a', spec);
  assert.equal(a.evaluationIntervalMs, 10_000);
  const reordered = { circuit: { components: spec.circuit.components } };
  assert.equal(compilePolicy('a', reordered).hash, a.hash);
  assert.notEqual(compilePolicy('a', rateLimiterPolicy()).hash, a.hash);
});

test('an empty policy compiles to nothing', () => {
  const c = compilePolicy('empty', {});
  assert.deepEqual(c.components, []);
  assert.deepEqual(c.createCircuit().tick(0, { promql: new Map(), variables: new Map() }).decisions.size, 0);
});

test('selectors in two agent groups publish one component per group, promql and variables are listed', () => {
  const c = compilePolicy('p', fullPolicy());
  const limiters = c.components.filter((x) => x.kind === 'rate_limiter');
  assert.deepEqual(limiters.map((x) => [x.agent_group, x.selectors.map((s) => s.control_point)]), [['g1', ['ingress']], ['g2', ['egress']]]);
  assert.deepEqual(c.promql, [{ id: 'root.3', query: 'sum(rate(x[1m]))', evaluationIntervalMs: 10_000 }]);
  assert.deepEqual(c.variables, ['PCT']);
  const sampler = c.components.find((x) => x.kind === 'sampler');
  assert.ok(sampler?.kind === 'sampler');
  assert.deepEqual(sampler.parameters, { label_key: 'user' });
  assert.deepEqual(sampler.pass_through_label_values, ['ops']);
  assert.deepEqual(sampler.selectors[0].label_matcher, { match_labels: { tier: 'free' } });
  const classifier = c.components.find((x) => x.kind === 'classifier');
  assert.ok(classifier?.kind === 'classifier');
  assert.equal(classifier.component_id, 'classifier.0');
  assert.deepEqual(classifier.rules, {
    tier: { extractor: { from: 'request.http.headers.x-tier' } },
    customer: { extractor: { json: { from: 'request.http.body', pointer: '/id' } } },
  });
  const hidden = structuredClone(fullPolicy()) as { resources: { flow_control: { classifiers: { rules: Record<string, { telemetry?: boolean }> }[] } } };
  hidden.resources.flow_control.classifiers[0].rules.tier.telemetry = false;
  hidden.resources.flow_control.classifiers[0].rules.customer.telemetry = true;
  const published = compilePolicy('p', hidden).components.find((x) => x.kind === 'classifier');
  assert.ok(published?.kind === 'classifier');
  assert.deepEqual(published.rules, {
    tier: { extractor: { from: 'request.http.headers.x-tier' }, telemetry: false },
    customer: { extractor: { json: { from: 'request.http.body', pointer: '/id' } } },
  }, 'telemetry: false is published; the default is left out');
  const meter = c.components.find((x) => x.kind === 'flux_meter');
  assert.ok(meter?.kind === 'flux_meter');
  assert.equal(meter.component_id, 'flux_meter.latency');
  assert.equal(meter.attribute_key, 'workload_duration_ms');
  assert.deepEqual(meter.buckets, [1, 2, 4, 8, 16]);
});

test('flux meter buckets: static default, linear, exponential range; bad ones are problems', () => {
  const meterPolicy = (meter: Obj) => ({ resources: { flow_control: { flux_meters: { m: { selectors: [{ control_point: 'a' }], ...meter } } } } });
  const buckets = (meter: Obj) => {
    const c = compilePolicy('m', meterPolicy(meter));
    const m = c.components[0];
    assert.ok(m.kind === 'flux_meter');
    return m.buckets;
  };
  assert.deepEqual(buckets({}), [5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000]);
  assert.deepEqual(buckets({ linear_buckets: { start: 10, width: 5, count: 3 } }), [10, 15, 20]);
  assert.deepEqual(buckets({ static_buckets: { buckets: [1, 3] } }), [1, 3]);
  const range = buckets({ exponential_buckets_range: { min: 1, max: 100, count: 3 } });
  assert.equal(range.length, 3);
  assert.equal(range[0], 1);
  assert.ok(Math.abs(range[1] - 10) < 1e-9);
  assert.equal(range[2], 100);
  const M = 'spec.resources.flow_control.flux_meters.m';
  assertProblem(meterPolicy({ static_buckets: { buckets: [3, 1] } }), `${M}.static_buckets.buckets`, /strictly increasing/);
  assertProblem(meterPolicy({ linear_buckets: { start: 0, width: 1, count: 2 }, static_buckets: {} }), M, /at most one/);
  assertProblem(meterPolicy({ exponential_buckets: { start: 1, factor: 1, count: 2 } }), `${M}.exponential_buckets.factor`, /must be > 1/);
  assertProblem(meterPolicy({ exponential_buckets: { start: 1, factor: 1e300, count: 3 } }), `${M}.exponential_buckets`, /not a finite number/);
  assertProblem(meterPolicy({ exponential_buckets_range: { min: 5, max: 5, count: 2 } }), `${M}.exponential_buckets_range.max`, /greater than min/);
  assertProblem(meterPolicy({ linear_buckets: { start: 0, width: 1, count: 100000 } }), `${M}.linear_buckets.count`, /<= 1000/);
  // A name may hold "/" (Aperture's blueprints name meters so), not be empty.
  assert.deepEqual(validatePolicy({ resources: { flow_control: { flux_meters: { 'a/b': { selectors: [{ control_point: 'a' }] } } } } }), []);
  assertProblem({ resources: { flow_control: { flux_meters: { '': { selectors: [{ control_point: 'a' }] } } } } }, 'spec.resources.flow_control.flux_meters[""]', /must match/);
});

test('compile errors name the JSON path of the field', async (t) => {
  const cases: [string, Obj, string, RegExp][] = [
    ['undefined signal', edited(rateLimiterPolicy(), (s) => (rl(s).in_ports.fill_amount = { signal_name: 'NOPE' })), `${RL}.in_ports.fill_amount.signal_name`, /"NOPE" is read but no component writes it/],
    ['negative capacity', edited(rateLimiterPolicy(), (s) => (rl(s).in_ports.bucket_capacity = { constant_signal: { value: -1 } })), `${RL}.in_ports.bucket_capacity.constant_signal.value`, /below the minimum 0/],
    ['fill < 0', edited(rateLimiterPolicy(), (s) => (rl(s).in_ports.fill_amount = { constant_signal: { value: -0.5 } })), `${RL}.in_ports.fill_amount.constant_signal.value`, /below the minimum 0/],
    ['NaN capacity', edited(rateLimiterPolicy(), (s) => (rl(s).in_ports.bucket_capacity = { constant_signal: { special_value: 'NaN' } })), `${RL}.in_ports.bucket_capacity.constant_signal.special_value`, /finite/],
    ['missing control point', edited(rateLimiterPolicy(), (s) => (rl(s).selectors = [{ agent_group: 'x' }])), `${RL}.selectors[0].control_point`, /missing required field/],
    ['no selectors', edited(rateLimiterPolicy(), (s) => (rl(s).selectors = [])), `${RL}.selectors`, /fewer than 1/],
    ['3000 regex selectors', edited(rateLimiterPolicy(), (s) => (rl(s).selectors = Array.from({ length: 3000 }, (_, i) => ({ control_point: 'a', label_matcher: { expression: { label_matches: { label: 'a', regex: `^/r${i}` } } } })))), `${RL}.selectors`, /more than 64/],
    ['65 selectors', edited(rateLimiterPolicy(), (s) => (rl(s).selectors = Array.from({ length: 65 }, () => ({ control_point: 'a' })))), `${RL}.selectors`, /more than 64/],
    ['flux meter with 65 selectors', { resources: { flow_control: { flux_meters: { m: { selectors: Array.from({ length: 65 }, () => ({ control_point: 'a' })) } } } } }, 'spec.resources.flow_control.flux_meters.m.selectors', /more than 64/],
    ['regex past 4096 characters', edited(rateLimiterPolicy(), (s) => (rl(s).selectors = [{ control_point: 'a', label_matcher: { expression: { label_matches: { label: 'a', regex: 'a'.repeat(4097) } } } }])), `${RL}.selectors[0].label_matcher.expression.label_matches.regex`, /4097 characters long; at most 4096/],
    ['zero interval', edited(rateLimiterPolicy(), (s) => (rl(s).parameters.interval = '0s')), `${RL}.parameters.interval`, /positive duration/],
    ['negative interval', edited(rateLimiterPolicy(), (s) => (rl(s).parameters.interval = '-1s')), `${RL}.parameters.interval`, /positive duration/],
    ['not a duration', edited(rateLimiterPolicy(), (s) => (rl(s).parameters.interval = '10 seconds')), `${RL}.parameters.interval`, /Go syntax/],
    ['missing interval', edited(rateLimiterPolicy(), (s) => delete rl(s).parameters.interval), `${RL}.parameters.interval`, /missing required/],
    ['zero evaluation interval', edited(rateLimiterPolicy(), (s) => ((s.circuit as Obj).evaluation_interval = '0s')), 'spec.circuit.evaluation_interval', /at least 100ms/],
    ['num_sync 0', edited(rateLimiterPolicy(), (s) => (rl(s).parameters.lazy_sync = { num_sync: 0 })), `${RL}.parameters.lazy_sync.num_sync`, />= 1/],
    ['bad selector operator', edited(rateLimiterPolicy(), (s) => (rl(s).selectors = [{ control_point: 'a', label_matcher: { match_expressions: [{ key: 'k', operator: 'Like', values: ['x'] }] } }])), `${RL}.selectors[0].label_matcher.match_expressions[0].operator`, /Like/],
    ['bad regex', edited(rateLimiterPolicy(), (s) => (rl(s).selectors = [{ control_point: 'a', label_matcher: { expression: { label_matches: { label: 'a', regex: '(' } } } }])), `${RL}.selectors[0].label_matcher.expression.label_matches.regex`, /does not compile/],
    ['label matcher not an object', edited(rateLimiterPolicy(), (s) => (rl(s).selectors = [{ control_point: 'a', label_matcher: 'x' }])), `${RL}.selectors[0].label_matcher`, /object/],
    ['agent group with a slash', edited(rateLimiterPolicy(), (s) => (rl(s).selectors = [{ control_point: 'a', agent_group: 'a/b' }])), `${RL}.selectors[0].agent_group`, /must match/],
    ['unknown field', edited(rateLimiterPolicy(), (s) => (rl(s).parameters.bucket = 3)), `${RL}.parameters.bucket`, /unknown field "bucket"/],
    ['kind one level too high', edited(rateLimiterPolicy(), (s) => s.circuit.components.push({ sampler: {} })), 'spec.circuit.components[1].sampler', /did you mean flow_control\.sampler\?/],
    ['typo', edited(rateLimiterPolicy(), (s) => (rl(s).parameters.continous_fill = true)), `${RL}.parameters.continous_fill`, /unknown field "continous_fill"; did you mean continuous_fill\?/],
    ['unknown component', edited(rateLimiterPolicy(), (s) => s.circuit.components.push({ frobnicator: {} })), 'spec.circuit.components[1].frobnicator', /^unknown field "frobnicator"; known fields here: alerter, /],
    ['two kinds in one component', edited(rateLimiterPolicy(), (s) => (s.circuit.components[0].variable = { constant_output: { value: 1 } })), 'spec.circuit.components[0]', /exactly one of/],
    ['empty component', edited(rateLimiterPolicy(), (s) => s.circuit.components.push({})), 'spec.circuit.components[1]', /exactly one of/],
    ['unsupported component', edited(rateLimiterPolicy(), (s) => s.circuit.components.push({ flow_control: { private: {} } })), 'spec.circuit.components[1].flow_control.private', /^flow_control\.private is an Aperture feature that Sluice does not support/],
    ['auto scaler without its backend', edited(rateLimiterPolicy(), (s) => s.circuit.components.push({ auto_scale: { auto_scaler: {} } })), 'spec.circuit.components[1].auto_scale.auto_scaler.scaling_backend', /missing required field/],
    ['jwt extractor without from', { resources: { flow_control: { classifiers: [{ selectors: [{ control_point: 'a' }], rules: { x: { extractor: { jwt: {} } } } }] } } }, 'spec.resources.flow_control.classifiers[0].rules.x.extractor.jwt.from', /missing required field/],
    ['rego classifier', { resources: { flow_control: { classifiers: [{ selectors: [{ control_point: 'a' }], rego: { module: 'x' } }] } } }, 'spec.resources.flow_control.classifiers[0].rego', /not support/],
    ['classifier without rules', { resources: { flow_control: { classifiers: [{ selectors: [{ control_point: 'a' }], rules: {} }] } } }, 'spec.resources.flow_control.classifiers[0].rules', /at least one rule/],
    ['bad JSON pointer', { resources: { flow_control: { classifiers: [{ selectors: [{ control_point: 'a' }], rules: { x: { extractor: { json: { from: 'request.http.body', pointer: 'id' } } } } }] } } }, 'spec.resources.flow_control.classifiers[0].rules.x.extractor.json.pointer', /JSON pointer/],
    ['wrong type', edited(rateLimiterPolicy(), (s) => (rl(s).parameters.continuous_fill = 'yes')), `${RL}.parameters.continuous_fill`, /must be boolean/],
    ['bad operator', { circuit: { components: [{ arithmetic_combinator: { operator: 'pow', in_ports: { lhs: { constant_signal: { value: 1 } }, rhs: { constant_signal: { value: 1 } } }, out_ports: {} } }] } }, 'spec.circuit.components[0].arithmetic_combinator.operator', /allowed values/],
    ['port with both members', edited(rateLimiterPolicy(), (s) => (rl(s).in_ports.fill_amount = { signal_name: 'A', constant_signal: { value: 1 } })), `${RL}.in_ports.fill_amount`, /exactly one of: signal_name, constant_signal/],
    ['bad special value', edited(rateLimiterPolicy(), (s) => (rl(s).in_ports.fill_amount = { constant_signal: { special_value: 'Infinity' } })), `${RL}.in_ports.fill_amount.constant_signal.special_value`, /allowed values/],
    ['spec not an object', [] as unknown as Obj, 'spec', /must be an object, got array/],
  ];
  for (const [name, spec, path, pattern] of cases) {
    await t.test(name, () => assertProblem(spec, path, pattern));
  }
});

test('accept_percentage outside 0..100 is refused', () => {
  const spec = fullPolicy() as { circuit: { components: Obj[] } };
  const sampler = (spec.circuit.components[2].flow_control as Obj).sampler as { in_ports: Obj };
  sampler.in_ports.accept_percentage = { constant_signal: { value: 150 } };
  assertProblem(spec, 'spec.circuit.components[2].flow_control.sampler.in_ports.accept_percentage.constant_signal.value', /above the maximum 100/);
  sampler.in_ports.accept_percentage = { constant_signal: { value: -1 } };
  assertProblem(spec, 'spec.circuit.components[2].flow_control.sampler.in_ports.accept_percentage.constant_signal.value', /below the minimum 0/);
});

test('a signal written twice is refused at the second writer', () => {
  const spec = promqlCapacityPolicy() as { circuit: { components: Obj[] } };
  spec.circuit.components.push({ variable: { constant_output: { value: 1 }, out_ports: { output: { signal_name: 'CAP' } } } });
  assertProblem(spec, 'spec.circuit.components[5].variable.out_ports.output.signal_name', /"CAP" is already written by spec\.circuit\.components\[3\]\.switcher\.out_ports\.output\.signal_name/);
});

test('a cycle is refused and named, at its lowest-index component', () => {
  const add = (lhs: string, out: string) => ({
    arithmetic_combinator: { operator: 'add', in_ports: { lhs: { signal_name: lhs }, rhs: { constant_signal: { value: 1 } } }, out_ports: { output: { signal_name: out } } },
  });
  const spec = { circuit: { components: [{ variable: { constant_output: { value: 1 }, out_ports: { output: { signal_name: 'V' } } } }, add('C', 'A'), add('A', 'B'), add('B', 'C')] } };
  const problems = problemsOf(spec);
  assert.equal(problems.length, 1);
  assert.equal(problems[0].path, 'spec.circuit.components[1].arithmetic_combinator');
  assert.match(problems[0].message, /cycle \(root\.1 → root\.2 → root\.3 → root\.1\)/);
  // A component reading its own output is a cycle too.
  assertProblem({ circuit: { components: [add('S', 'S')] } }, 'spec.circuit.components[0].arithmetic_combinator', /cycle \(root\.0 → root\.0\)/);
});

test('several problems are reported at once; compilePolicy throws PolicyCompileError with all of them', () => {
  const spec = edited(rateLimiterPolicy(), (s) => {
    rl(s).in_ports.bucket_capacity = { constant_signal: { value: -1 } };
    rl(s).in_ports.fill_amount = { signal_name: 'NOPE' };
    rl(s).selectors = [{ control_point: 'a', label_matcher: { expression: { label_matches: { label: 'a', regex: '[' } } } }];
  });
  assert.equal(validatePolicy(spec).length, 3);
  const shapeSpec = edited(rateLimiterPolicy(), (s) => {
    rl(s).parameters.interval = '0s';
    rl(s).selectors = [{}];
    rl(s).extra = true;
  });
  assert.equal(validatePolicy(shapeSpec).length, 3);
  assert.throws(
    () => compilePolicy('bad', spec),
    (err: unknown) => {
      assert.ok(err instanceof PolicyCompileError);
      assert.equal(err.grpcCode, 3);
      assert.equal(err.httpStatus, 400);
      assert.equal(err.problems.length, 3);
      assert.match(err.message, /^policy "bad" is invalid: /);
      const details = err.details[0] as { field_violations: { field: string }[] };
      assert.equal(details.field_violations.length, 3);
      return true;
    },
  );
});

test('policy names are checked', () => {
  assert.throws(() => compilePolicy('a/b', {}), (err: unknown) => err instanceof PolicyCompileError && err.problems[0].path === 'name');
  assert.throws(() => compilePolicy('', {}), PolicyCompileError);
  assert.equal(compilePolicy('rate-limit.v2-x', {}).name, 'rate-limit.v2-x');
  assert.throws(() => compilePolicy('rate_limit', {}), PolicyCompileError);
});

test('inert Aperture parts are accepted and listed as ignored', () => {
  const spec = rateLimiterPolicy() as { circuit: { components: Obj[] }; resources?: Obj };
  spec.resources = { infra_meters: { kubeletstats: { receivers: {} } }, telemetry_collectors: [] };
  const c = compilePolicy('p', spec);
  assert.deepEqual(c.ignored, ['spec.resources.infra_meters', 'spec.resources.telemetry_collectors']);
  assert.equal(c.components.length, 1);
});

test('a spec nested deeper than POLICY_SPEC_MAX_DEPTH (32) levels is refused without recursing into it', () => {
  let deep: unknown = {};
  for (let i = 0; i < 100_000; i++) deep = [deep];
  const spec = { resources: { infra_meters: { x: deep } } };
  const problems = validatePolicy(spec);
  assert.equal(problems.length, 1);
  assert.match(problems[0].path, /^spec\.resources\.infra_meters\.x\[0\]/);
  assert.match(problems[0].message, /nested more than 32 levels/);
  let ok: unknown = 1;
  for (let i = 0; i < POLICY_SPEC_MAX_DEPTH - 3; i++) ok = [ok];
  assert.deepEqual(validatePolicy({ resources: { infra_meters: { x: ok } } }), [], 'exactly 32 levels (spec, resources, infra_meters, 29 lists) is fine');
  assert.equal(validatePolicy({ resources: { infra_meters: { x: [ok] } } }).length, 1);
});

test('evaluation intervals below 100ms are refused: the circuit, a PromQL query, keep_admitted_rate', () => {
  for (const bad of ['1ns', '99ms', '0.05s', '1us', '0s', '-1s']) {
    assertProblem(edited(rateLimiterPolicy(), (s) => { (s.circuit as Obj).evaluation_interval = bad; }), 'spec.circuit.evaluation_interval', /at least 100ms/);
    assertProblem(
      edited(promqlCapacityPolicy(), (s) => { ((s.circuit.components[0].query as Obj).promql as Obj).evaluation_interval = bad; }),
      'spec.circuit.components[0].query.promql.evaluation_interval',
      /at least 100ms/,
    );
  }
  const ok = edited(rateLimiterPolicy(), (s) => { (s.circuit as Obj).evaluation_interval = '100ms'; });
  assert.equal(compilePolicy('p', ok).evaluationIntervalMs, 100);
  const q = edited(promqlCapacityPolicy(), (s) => { ((s.circuit.components[0].query as Obj).promql as Obj).evaluation_interval = '0.1s'; });
  assert.equal(compilePolicy('p', q).promql[0].evaluationIntervalMs, 100);
});
