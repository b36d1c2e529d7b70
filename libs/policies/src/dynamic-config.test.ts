import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compilePolicy, validatePolicy } from './compile.js';
import { checkDynamicConfig, lookupKey, withDynamicValues } from './dynamic-config.js';
import type { PublishedPodScaler } from './published.js';

const c = (value: number) => ({ constant_signal: { value } });
const s = (name: string) => ({ signal_name: name });

test('a gradient controller\'s manual_mode_config_key switches manual mode at the next tick', () => {
  const compiled = compilePolicy('g', {
    circuit: {
      components: [{ gradient_controller: {
        in_ports: { signal: c(200), setpoint: c(100), control_variable: c(10) },
        out_ports: { output: s('OUT') },
        parameters: { slope: -1 },
        manual_mode_config_key: 'manual',
      } }],
    },
  });
  assert.deepEqual(compiled.configKeys, [{ key: 'manual', type: 'boolean', path: 'spec.circuit.components[0].gradient_controller.manual_mode_config_key', target: { circuit: true } }]);
  const circuit = compiled.createCircuit();
  const out = (dynamic: Map<string, unknown>) => circuit.tick(0, { promql: new Map(), variables: new Map(), dynamic }).signals.OUT;
  assert.equal(out(new Map()), 5, 'the gradient halves the control variable');
  assert.equal(out(new Map([['manual', true]])), 10, 'manual: the control variable unchanged');
  assert.equal(out(new Map([['manual', false]])), 5);
});

test('a pod scaler\'s dry_run_config_key replaces dry_run in a copy of its published configuration', () => {
  const compiled = compilePolicy('p', {
    circuit: {
      components: [
        { variable: { constant_output: { value: 2 }, out_ports: { output: s('want') } } },
        { auto_scale: { pod_scaler: {
          kubernetes_object_selector: { namespace: 'shop', api_version: 'apps/v1', kind: 'Deployment', name: 'web' },
          in_ports: { replicas: s('want') },
          dry_run_config_key: 'scaling.dry_run',
        } } },
      ],
    },
  });
  const published = compiled.components[0] as PublishedPodScaler;
  const { problems, values } = checkDynamicConfig({ scaling: { dry_run: true } }, compiled.configKeys);
  assert.deepEqual(problems, []);
  const changed = withDynamicValues(published, compiled.configKeys, values) as PublishedPodScaler;
  assert.equal(changed.dry_run, true);
  assert.equal(published.dry_run, false, 'the compiled component is not changed');
  assert.equal(withDynamicValues(published, compiled.configKeys, new Map()), published, 'no value: the same object');
});

test('keys: a member, else a dotted path; one key may not hold two types', () => {
  assert.equal(lookupKey({ 'a.b': 1, a: { b: 2 } }, 'a.b'), 1);
  assert.equal(lookupKey({ a: { b: 2 } }, 'a.b'), 2);
  assert.equal(lookupKey({ a: { b: 2 } }, 'a.c'), undefined);
  assert.equal(lookupKey({ a: 1 }, 'a.b'), undefined);
  const problems = validatePolicy({
    circuit: {
      components: [
        { variable: { constant_output: { value: 1 }, config_key: 'k', out_ports: { output: s('V') } } },
        { flow_control: { load_scheduler: { in_ports: { load_multiplier: s('V') }, dry_run_config_key: 'k', parameters: { selectors: [{ control_point: 'x' }] } } } },
      ],
    },
  });
  assert.deepEqual(problems.map((p) => p.path), ['spec.circuit.components[1].flow_control.load_scheduler.dry_run_config_key']);
  assert.match(problems[0].message, /holds a boolean here but a number at spec\.circuit\.components\[0\]\.variable\.config_key/);
});
