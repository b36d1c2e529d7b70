import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compilePolicy } from '@sluice/policies';
import { findBlueprint, generatePolicy, type Blueprint } from './index.js';

const blueprint = (): Blueprint => {
  const b = findBlueprint('load-ramping');
  assert.ok(b);
  return b;
};

type Component = Record<string, Record<string, unknown>>;
const componentsOf = (spec: Record<string, unknown>) => (spec.circuit as { components: Component[] }).components;

test('load-ramping without drivers: start (a bool variable on the key `start`) moves the ramp; reset sends it back', () => {
  const p = generatePolicy(blueprint(), { policy_name: 'ramp', load_ramp: { steps: [{ target_accept_percentage: 10, duration: '0s' }, { target_accept_percentage: 30, duration: '2s' }] } }, 'v');
  const components = componentsOf(p.spec);
  assert.deepEqual(components.map((c) => Object.keys(c)[0]), ['bool_variable', 'bool_variable', 'or', 'or', 'inverter', 'first_valid', 'inverter', 'first_valid', 'and', 'and', 'flow_control']);
  const ramp = (components[10].flow_control as { load_ramp: Record<string, unknown> }).load_ramp;
  assert.deepEqual(ramp.parameters, { sampler: { selectors: [{ control_point: 'ingress', agent_group: 'default', service: 'any' }] }, steps: [{ target_accept_percentage: 10, duration: '0s' }, { target_accept_percentage: 30, duration: '2s' }] });
  assert.equal(ramp.pass_through_label_values_config_key, 'pass_through_label_values');
  assert.equal(p.spec.resources, undefined, 'no flux meter without a latency driver');

  const compiled = compilePolicy('ramp', p.spec);
  assert.deepEqual(compiled.configKeys.map((k) => [k.key, k.type]), [['start', 'boolean'], ['reset', 'boolean'], ['pass_through_label_values', 'string_list']]);
  const circuit = compiled.createCircuit();
  const run = (i: number, start: number, reset: number) => circuit.tick(i * 1000, { promql: new Map(), variables: new Map([['USER_START_CONTROL', start], ['USER_RESET_CONTROL', reset]]) }).signals;
  assert.deepEqual([0, 1].map((i) => run(i, 0, 0).ACCEPT_PERCENTAGE), [10, 10], 'start is false by default');
  assert.deepEqual([2, 3, 4, 5].map((i) => run(i, 1, 0).ACCEPT_PERCENTAGE), [10, 20, 30, 30]);
  assert.equal(run(6, 1, 0).AT_END, 1);
  assert.deepEqual([run(7, 1, 1).ACCEPT_PERCENTAGE, run(8, 1, 1).ACCEPT_PERCENTAGE], [10, 10], 'reset holds it at the start');
});

test('load-ramping drivers: a latency driver (its flux meter named after the policy) holds and resets; a PromQL driver backs off', () => {
  const values = {
    policy_name: 'ramp',
    start: true,
    load_ramp: { sampler: { label_key: 'user' }, steps: [{ target_accept_percentage: 0, duration: '0s' }, { target_accept_percentage: 100, duration: '4s' }], pass_through_label_values: ['qa'] },
    drivers: {
      average_latency_drivers: [{ criteria: { forward: { threshold: 75 }, reset: { threshold: 250 } } }],
      promql_drivers: [{ query_string: 'sum(errors)', criteria: { backward: { threshold: 5, operator: 'gte' } } }],
    },
  };
  const p = generatePolicy(blueprint(), values, 'v');
  assert.deepEqual(Object.keys((p.spec.resources as { flow_control: { flux_meters: object } }).flow_control.flux_meters), ['ramp/average_latency/0']);
  const compiled = compilePolicy('ramp', p.spec);
  assert.equal(compiled.promql.length, 2);
  const [errors, latency] = compiled.promql;
  assert.equal(errors.query, 'sum(errors)');
  assert.match(latency.query, /flux_meter_name="ramp\/average_latency\/0"/);
  const circuit = compiled.createCircuit();
  const run = (i: number, lat: number | undefined, err: number | undefined) => circuit.tick(i * 1000, { promql: new Map([[latency.id, lat], [errors.id, err]]), variables: new Map() }).signals.ACCEPT_PERCENTAGE;
  // No latency yet: the forward criterion is unknown, so the ramp waits.
  assert.deepEqual([run(0, undefined, 0), run(1, undefined, 0)], [0, 0]);
  // Fast and no errors: forward.
  assert.deepEqual([2, 3, 4].map((i) => run(i, 50, 0)), [0, 25, 50]);
  // Slow (between the thresholds): it holds; errors: it walks back.
  assert.deepEqual([run(5, 100, 0), run(6, 50, 9)], [50, 25]);
  // Very slow: reset.
  assert.equal(run(7, 300, 0), 0);
  const ramp = (componentsOf(p.spec).at(-1)!.flow_control as { load_ramp: { pass_through_label_values: string[]; parameters: { sampler: { label_key: string } } } }).load_ramp;
  assert.deepEqual(ramp.pass_through_label_values, ['qa']);
  assert.equal(ramp.parameters.sampler.label_key, 'user');
});
