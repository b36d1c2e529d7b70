// The load ramp (flow_control.load_ramp): a walk through steps of accept percentage, enforced by a
// sampler the agents run, driven by forward / backward / reset and reported on its out-ports.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { parse } from 'yaml';
import { compilePolicy } from '../compile.js';
import { PolicyCompileError } from '../problems.js';
import { checkDynamicConfig } from '../dynamic-config.js';
import { c, input, s, series, type Obj } from '../test-circuit.js';

const SELECTORS = [{ control_point: 'ingress', agent_group: 'default' }];

function ramp(extra: Obj = {}, steps: Obj[] = [{ target_accept_percentage: 10, duration: '0s' }, { target_accept_percentage: 50, duration: '4s' }, { target_accept_percentage: 100, duration: '2s' }]): Obj {
  return {
    flow_control: {
      load_ramp: {
        in_ports: { forward: s('F'), backward: s('B'), reset: s('R') },
        out_ports: { accept_percentage: { signal_name: 'PCT' }, at_start: { signal_name: 'START' }, at_end: { signal_name: 'END' } },
        parameters: { sampler: { label_key: 'user', selectors: SELECTORS }, steps },
        ...extra,
      },
    },
  };
}

const circuitOf = (extra: Obj = {}) => [input('F'), input('B'), input('R'), ramp(extra)];

test('load_ramp: walks the steps while forward is true, interpolating linearly over each duration, and holds the last target at the end', () => {
  const ticks = [{}, ...Array.from({ length: 9 }, () => ({ F: 1 }))];
  const got = series(circuitOf(), ticks, ['PCT', 'START', 'END']);
  // 10 at the start; the first step (0s) takes one tick; 10→50 over 4 ticks; 50→100 over 2; then held.
  assert.deepEqual(got.PCT, [10, 10, 20, 30, 40, 50, 75, 100, 100, 100]);
  assert.deepEqual(got.START, [1, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
  assert.deepEqual(got.END, [0, 0, 0, 0, 0, 0, 0, 1, 1, 1]);
});

test('load_ramp: the interval counts the ticks of a step (rounded up)', () => {
  const steps = [{ target_accept_percentage: 0, duration: '0s' }, { target_accept_percentage: 100, duration: '2500ms' }];
  const got = series([input('F'), input('B'), input('R'), ramp({}, steps)], Array.from({ length: 6 }, () => ({ F: 1 })), ['PCT'], '500ms');
  // 2.5 s at 0.5 s ticks is 5 ticks of 20 points.
  assert.deepEqual(got.PCT, [0, 20, 40, 60, 80, 100]);
});

test('load_ramp: backward walks back (to at_start), both or neither stays, reset returns to the start at once', () => {
  const ticks: Record<string, number | null>[] = [
    { F: 1 }, { F: 1 }, { F: 1 }, // 10 (the first step done), 20, 30
    { F: 1, B: 1 }, {}, // both, neither: stays at 30
    { B: 1 }, { B: 1 }, { B: 1 }, { B: 1 }, // 20, 10, the first step, then at the start
    { F: 1 }, { F: 1 }, { F: 1 }, { F: 1 }, { F: 1 }, { F: 1 }, { F: 1 }, // to the end
    { B: 1 }, // one tick back from the end
    { F: 1, R: 1 }, // reset wins over forward
  ];
  const got = series(circuitOf(), ticks, ['PCT', 'START', 'END']);
  assert.deepEqual(got.PCT, [10, 20, 30, 30, 30, 20, 10, 10, 10, 10, 20, 30, 40, 50, 75, 100, 75, 10]);
  // Back on the first step it takes one more tick back to be at the start.
  assert.deepEqual(got.START, [0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1]);
  assert.deepEqual(got.END, [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0]);
});

test('load_ramp: an invalid forward, backward or reset is not true (the ramp stays); unconnected ports too', () => {
  const ticks: Record<string, number | null>[] = [{ F: 1 }, { F: 1 }, { F: null }, { F: 1, B: null }, { F: 1, R: null }, { B: null, F: null }, { F: 0, R: 0 }];
  assert.deepEqual(series(circuitOf(), ticks, ['PCT']).PCT, [10, 20, 20, 30, 40, 40, 40]);
  // With no in-ports at all it holds the first step's target forever.
  const still = [{ flow_control: { load_ramp: { out_ports: { accept_percentage: { signal_name: 'PCT' } }, parameters: { sampler: { selectors: SELECTORS }, steps: [{ target_accept_percentage: 5, duration: '0s' }, { target_accept_percentage: 90, duration: '1s' }] } } } }];
  assert.deepEqual(series(still, [{}, {}, {}], ['PCT']).PCT, [5, 5, 5]);
  // A constant forward ramps every tick.
  const constant = [{ flow_control: { load_ramp: { in_ports: { forward: c(1) }, out_ports: { accept_percentage: { signal_name: 'PCT' } }, parameters: { sampler: { selectors: SELECTORS }, steps: [{ target_accept_percentage: 0, duration: '0s' }, { target_accept_percentage: 100, duration: '2s' }] } } } }];
  assert.deepEqual(series(constant, [{}, {}, {}, {}], ['PCT']).PCT, [0, 50, 100, 100]);
});

test('load_ramp: publishes a sampler for the agents and decides its accept percentage each tick', () => {
  const compiled = compilePolicy('ramp', { circuit: { evaluation_interval: '1s', components: circuitOf({ pass_through_label_values: ['ops', 'qa'] }) } });
  const samplers = compiled.components.filter((x) => x.kind === 'sampler');
  assert.equal(samplers.length, 1);
  const [sampler] = samplers;
  assert.ok(sampler.kind === 'sampler');
  assert.equal(sampler.component_id, 'root.3');
  assert.equal(sampler.agent_group, 'default');
  assert.deepEqual(sampler.parameters, { label_key: 'user' });
  assert.deepEqual(sampler.pass_through_label_values, ['ops', 'qa']);
  const circuit = compiled.createCircuit();
  const at = (i: number, f: number) => circuit.tick(i * 1000, { promql: new Map(), variables: new Map([['F', f]]) }).decisions.get('root.3');
  assert.deepEqual(at(0, 0), { kind: 'sampler', accept_percentage: 10, pass_through: false });
  assert.deepEqual(at(1, 1), { kind: 'sampler', accept_percentage: 10, pass_through: false });
  assert.deepEqual(at(2, 1), { kind: 'sampler', accept_percentage: 20, pass_through: false });
  // An empty label key (as Aperture's blueprint writes it) is no label: each flow drawn at random.
  const unlabelled = compilePolicy('ramp', { circuit: { components: [{ flow_control: { load_ramp: { parameters: { sampler: { label_key: '', selectors: SELECTORS }, steps: [{ target_accept_percentage: 1, duration: '0s' }] } } } }] } });
  const [u] = unlabelled.components;
  assert.ok(u.kind === 'sampler');
  assert.deepEqual(u.parameters, {});
  assert.deepEqual(u.pass_through_label_values, []);
});

test('load_ramp: pass_through_label_values_config_key names a list of strings of the dynamic configuration, published into the sampler', () => {
  const compiled = compilePolicy('ramp', { circuit: { components: circuitOf({ pass_through_label_values: ['ops'], pass_through_label_values_config_key: 'pass_through_label_values' }) } });
  assert.deepEqual(compiled.configKeys.map((k) => [k.key, k.type, k.target, k.path]), [
    ['pass_through_label_values', 'string_list', { component_id: 'root.3', field: ['pass_through_label_values'] }, 'spec.circuit.components[3].flow_control.load_ramp.pass_through_label_values_config_key'],
  ]);
  assert.deepEqual(checkDynamicConfig({ pass_through_label_values: ['beta'] }, compiled.configKeys).values.get('pass_through_label_values'), ['beta']);
  const bad = checkDynamicConfig({ pass_through_label_values: 'beta' }, compiled.configKeys).problems;
  assert.deepEqual(bad.map((p) => p.path), ['dynamic_config.pass_through_label_values']);
  assert.match(bad[0].message, /want a list of strings/);
});

test('load_ramp: bad specs are refused with the JSON path of the field', () => {
  const AT = 'spec.circuit.components[0].flow_control.load_ramp';
  const cases: [string, Obj, string, RegExp][] = [
    ['no steps', { parameters: { sampler: { selectors: SELECTORS }, steps: [] } }, `${AT}.parameters.steps`, /fewer than 1|at least/],
    ['no sampler', { parameters: { steps: [{ target_accept_percentage: 1, duration: '0s' }] } }, `${AT}.parameters.sampler`, /missing required field/],
    ['no selectors', { parameters: { sampler: {}, steps: [{ target_accept_percentage: 1, duration: '0s' }] } }, `${AT}.parameters.sampler.selectors`, /missing required field/],
    ['above 100', { parameters: { sampler: { selectors: SELECTORS }, steps: [{ target_accept_percentage: 101, duration: '0s' }] } }, `${AT}.parameters.steps[0].target_accept_percentage`, /<= 100/],
    ['negative', { parameters: { sampler: { selectors: SELECTORS }, steps: [{ target_accept_percentage: -1, duration: '0s' }] } }, `${AT}.parameters.steps[0].target_accept_percentage`, />= 0/],
    ['no duration', { parameters: { sampler: { selectors: SELECTORS }, steps: [{ target_accept_percentage: 1 }] } }, `${AT}.parameters.steps[0].duration`, /missing required field/],
    ['bad duration', { parameters: { sampler: { selectors: SELECTORS }, steps: [{ target_accept_percentage: 1, duration: 'soon' }] } }, `${AT}.parameters.steps[0].duration`, /duration/],
    ['session_label_key (not a 2.8 field)', { parameters: { sampler: { session_label_key: 'user', selectors: SELECTORS }, steps: [{ target_accept_percentage: 1, duration: '0s' }] } }, `${AT}.parameters.sampler.session_label_key`, /unknown field/],
    ['unknown in-port', { in_ports: { start: { signal_name: 'X' } }, parameters: { sampler: { selectors: SELECTORS }, steps: [{ target_accept_percentage: 1, duration: '0s' }] } }, `${AT}.in_ports.start`, /unknown field/],
  ];
  for (const [name, spec, path, message] of cases) {
    assert.throws(
      () => compilePolicy('ramp', { circuit: { components: [{ flow_control: { load_ramp: spec } }] } }),
      (e: unknown) => {
        assert.ok(e instanceof PolicyCompileError, name);
        const problem = e.problems.find((p) => p.path === path);
        assert.ok(problem !== undefined, `${name}: ${JSON.stringify(e.problems)}`);
        assert.match(problem.message, message, name);
        return true;
      },
    );
  }
});

test('load_ramp: target percentages as proto3 strings, and a loop from at_end back into backward is no cycle', () => {
  const steps = [{ target_accept_percentage: '20', duration: '0s' }, { target_accept_percentage: '60', duration: '2s' }];
  const loop = [{ flow_control: { load_ramp: { in_ports: { forward: c(1), backward: s('END') }, out_ports: { accept_percentage: { signal_name: 'PCT' }, at_end: { signal_name: 'END' } }, parameters: { sampler: { selectors: SELECTORS }, steps } } } }];
  // Up to the end; there forward and backward (the end signal of the previous tick) are both true: it stays.
  assert.deepEqual(series(loop, Array.from({ length: 6 }, () => ({})), ['PCT', 'END']), { PCT: [20, 40, 60, 60, 60, 60], END: [0, 0, 1, 1, 1, 1] });
});

test('deploy/examples/load-ramp.yaml: its dynamicConfig is what its components read; start climbs to 10% over 5 minutes, reset returns to 1%', () => {
  const file = fileURLToPath(new URL('../../../../deploy/examples/load-ramp.yaml', import.meta.url));
  const resource = parse(readFileSync(file, 'utf8')) as { metadata: { name: string }; spec: unknown; dynamicConfig: unknown };
  const compiled = compilePolicy(resource.metadata.name, resource.spec);
  const { problems, values } = checkDynamicConfig(resource.dynamicConfig, compiled.configKeys, 'dynamicConfig');
  assert.deepEqual(problems, []);
  assert.deepEqual(values.get('pass_through_label_values'), ['qa-team']);
  const circuit = compiled.createCircuit();
  const run = (i: number, start: number, reset: number) => circuit.tick(i * 10_000, { promql: new Map(), variables: new Map([['START', start], ['USER_RESET', reset]]), dynamic: values }).signals;
  assert.equal(run(0, 0, 0).ACCEPT_PERCENTAGE, 1);
  let last = run(1, 1, 0);
  for (let i = 2; i <= 31; i++) last = run(i, 1, 0);
  assert.equal(last.ACCEPT_PERCENTAGE, 10, '5 minutes of 10 s ticks after the first step');
  assert.equal(run(32, 0, 0).ACCEPT_PERCENTAGE, 10, 'paused');
  assert.deepEqual([run(33, 1, 1).ACCEPT_PERCENTAGE, run(34, 1, 1).AT_START], [1, 1]);
});
