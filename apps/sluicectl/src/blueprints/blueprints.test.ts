import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { compilePolicy } from '@sluice/policies';
import { CliError, EXIT_FAILURE } from '../errors.js';
import { BLUEPRINTS, blueprintMarkdown, exampleValuesYaml, fieldsOf, findBlueprint, generatePolicy, type Blueprint } from './index.js';

const named = (name: string): Blueprint => {
  const b = findBlueprint(name);
  assert.ok(b, name);
  return b;
};

/** The message of the CliError `fn` throws (exit 1). */
function refusal(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof CliError, String(err));
    assert.equal(err.exitCode, EXIT_FAILURE);
    return err.message;
  }
  assert.fail('the values were accepted');
}

test('every blueprint\'s example values generate a Policy resource the compiler accepts', () => {
  assert.deepEqual(BLUEPRINTS.map((b) => b.name), ['rate-limiting', 'service-protection-average-latency', 'service-protection-promql', 'workload-prioritization', 'load-ramping', 'load-based-auto-scaling', 'quota-scheduling']);
  for (const b of BLUEPRINTS) {
    const p = generatePolicy(b, b.example, 'example');
    assert.equal(p.apiVersion, 'fluxninja.com/v1alpha1');
    assert.equal(p.kind, 'Policy');
    assert.equal(p.metadata.name, b.example.policy_name);
    const compiled = compilePolicy(p.metadata.name, p.spec);
    assert.ok(compiled, b.name);
    assert.ok(b.description.length > 0 && b.description.length < 60 && !b.description.includes('\n'), `${b.name}: a line that fits the table`);
  }
});

test('the values are what the policy holds, defaults filled in where absent', () => {
  const rl = generatePolicy(named('rate-limiting'), { policy_name: 'p', rate_limiter: { bucket_capacity: 7, fill_amount: 3 } }, 'v');
  const limiter = (rl.spec.circuit as { components: Array<{ flow_control: { rate_limiter: Record<string, Record<string, unknown>> } }> }).components[0]?.flow_control.rate_limiter;
  assert.deepEqual(limiter?.in_ports, { bucket_capacity: { constant_signal: { value: 7 } }, fill_amount: { constant_signal: { value: 3 } } });
  assert.deepEqual(limiter?.parameters, { interval: '1s', continuous_fill: true });
  assert.deepEqual(limiter?.selectors, [{ control_point: 'ingress', agent_group: 'default', service: 'any' }]);
  compilePolicy('p', rl.spec);

  const latency = generatePolicy(named('service-protection-average-latency'), { policy_name: 'svc', latency_baseliner: { latency_tolerance_multiplier: 1.5, query_window: '20s' } }, 'v');
  const text = JSON.stringify(latency.spec);
  assert.match(text, /"value":1\.5/);
  assert.match(text, /flux_meter_sum\{flux_meter_name=\\"svc\\"[^}]*\}\[20s\]/);
  assert.deepEqual(Object.keys((latency.spec.resources as { flow_control: { flux_meters: object } }).flow_control.flux_meters), ['svc']);
  compilePolicy('svc', latency.spec);

  const promql = generatePolicy(named('service-protection-promql'), { policy_name: 'q', promql: { query_string: 'up', setpoint: 3 }, load_scheduling: { dry_run: true } }, 'v');
  const components = (promql.spec.circuit as { components: Array<Record<string, unknown>> }).components;
  assert.deepEqual(components[0], { query: { promql: { query_string: 'up', evaluation_interval: '10s', out_ports: { output: { signal_name: 'SIGNAL' } } } } });
  assert.deepEqual(components[1], { variable: { constant_output: { value: 3 }, out_ports: { output: { signal_name: 'SETPOINT' } } } });
  assert.match(JSON.stringify(components[2]), /"dry_run":true/);
  compilePolicy('q', promql.spec);

  const wp = generatePolicy(named('workload-prioritization'), { policy_name: 'w', load_scheduler: { workloads: [{ label_matcher: { match_labels: { a: 'b' } }, parameters: { priority: 9 } }] } }, 'v');
  assert.match(JSON.stringify(wp.spec), /"constant_output":\{"value":1\}/);
  compilePolicy('w', wp.spec);
});

test('load-based auto-scaling: the example\'s auto scaler is what the controller publishes and runs', () => {
  const b = named('load-based-auto-scaling');
  const p = generatePolicy(b, b.example, 'example');
  const compiled = compilePolicy(p.metadata.name, p.spec);
  const scaler = compiled.components.find((c) => c.kind === 'pod_scaler') as { component_id: string; kubernetes_object: unknown; min_replicas: number; max_replicas: number; dry_run: boolean } | undefined;
  assert.deepEqual([scaler?.kubernetes_object, scaler?.min_replicas, scaler?.max_replicas, scaler?.dry_run], [{ namespace: 'prod', api_version: 'apps/v1', kind: 'Deployment', name: 'search' }, 2, 10, false]);
  assert.ok(compiled.components.some((c) => c.kind === 'load_scheduler') && compiled.components.some((c) => c.kind === 'flux_meter'));
  const auto = (p.spec.circuit as { components: Array<{ auto_scale?: { auto_scaler: Record<string, Record<string, unknown>> } }> }).components.at(-1)?.auto_scale?.auto_scaler;
  // Defaults filled in where the example gives none.
  assert.deepEqual(auto?.scaling_parameters.scale_out_cooldown, '30s');
  assert.deepEqual(auto?.scaling_parameters.max_scale_in_percentage, 1);
  assert.deepEqual(auto?.scale_in_controllers, [{ controller: { periodic: { period: '120s', scale_in_percentage: 10 } }, alerter: { alert_name: 'search-auto-scaling: periodic scale-in proposed' } }]);
  // 5 running: the periodic scale-in proposes 4 at the first tick (no latency yet: no scale-out).
  const reports = new Map([[scaler!.component_id, { actual_replicas: 5, configured_replicas: 5, desired_replicas: null }]]);
  const out = compiled.createCircuit().tick(0, { promql: new Map(), variables: new Map(), reports });
  assert.deepEqual(out.decisions.get(scaler!.component_id), { kind: 'pod_scaler', replicas: 4 });
  const bad = refusal(() => generatePolicy(b, { policy_name: 'p', auto_scaling: { kubernetes_object: { namespace: 'prod', name: 'search', kind: 'Pod' } } }, 'v'));
  assert.match(bad, /auto_scaling\.kubernetes_object\.kind/);
  assert.match(refusal(() => generatePolicy(b, { policy_name: 'p', auto_scaling: { kubernetes_object: { namespace: 'prod' } } }, 'v')), /auto_scaling\.kubernetes_object\.name: is required/);
  assert.match(refusal(() => generatePolicy(b, { policy_name: 'p' }, 'v')), /auto_scaling: is required/);
});

test('bad values are refused (exit 1) naming the field at fault', () => {
  const cases: Array<[string, unknown, RegExp]> = [
    ['rate-limiting', { rate_limiter: { bucket_capacity: 1, fill_amount: 1 } }, /: policy_name: is required/],
    ['rate-limiting', { policy_name: 'Not_A_Name', rate_limiter: { bucket_capacity: 1, fill_amount: 1 } }, /policy_name: "Not_A_Name" is not lower-case letters, digits, - or \./],
    ['rate-limiting', { policy_name: 'p', rate_limiter: { bucket_capacity: -1, fill_amount: 1 } }, /rate_limiter\.bucket_capacity: must be >= 0/],
    ['rate-limiting', { policy_name: 'p', rate_limiter: { bucket_capacity: 1 } }, /rate_limiter\.fill_amount: is required/],
    ['rate-limiting', { policy_name: 'p', rate_limiter: { bucket_capacity: 1, fill_amount: 1, interval: 'soon' } }, /rate_limiter\.interval: "soon" is not a duration such as 500ms/],
    ['rate-limiting', { policy_name: 'p', rate_limiter: { bucket_capacity: 1, fill_amount: 1, bucket_capcity: 1 } }, /rate_limiter\.bucket_capcity: is not a field here \(known: bucket_capacity, fill_amount/],
    ['rate-limiting', { policy_name: 'p', rate_limiter: { bucket_capacity: 1, fill_amount: 1, selectors: [{ agent_group: 'g' }] } }, /rate_limiter\.selectors\[0\]\.control_point: is required/],
    ['rate-limiting', { blueprint: 'workload-prioritization', policy_name: 'p', rate_limiter: { bucket_capacity: 1, fill_amount: 1 } }, /blueprint: must be "rate-limiting"/],
    ['service-protection-average-latency', { policy_name: 'p', latency_baseliner: { latency_tolerance_multiplier: 0.5 } }, /latency_baseliner\.latency_tolerance_multiplier: must be >= 1/],
    ['service-protection-average-latency', { policy_name: 'p', load_scheduling: { workloads: [{ label_matcher: {}, parameters: { priority: 0 } }] } }, /load_scheduling\.workloads\[0\]\.parameters\.priority: must be > 0/],
    ['service-protection-promql', { policy_name: 'p', promql: { query_string: 'up' } }, /promql\.setpoint: is required/],
    ['service-protection-promql', { policy_name: 'p', promql: { query_string: 'up', setpoint: 'high' } }, /promql\.setpoint: must be number/],
    ['workload-prioritization', { policy_name: 'p', load_scheduler: { workloads: [] } }, /load_scheduler\.workloads: must NOT have fewer than 1 items/],
    ['workload-prioritization', { policy_name: 'p', load_scheduler: { workloads: [{ label_matcher: {} }], load_multiplier: -0.5 } }, /load_scheduler\.load_multiplier: must be >= 0/],
    ['workload-prioritization', ['a list'], /\(the values\): must be object/],
    ['load-ramping', { policy_name: 'p' }, /: load_ramp: is required/],
    ['load-ramping', { policy_name: 'p', load_ramp: { steps: [] } }, /load_ramp\.steps: must NOT have fewer than 1 items/],
    ['load-ramping', { policy_name: 'p', load_ramp: { steps: [{ target_accept_percentage: 101, duration: '0s' }] } }, /load_ramp\.steps\[0\]\.target_accept_percentage: must be <= 100/],
    ['load-ramping', { policy_name: 'p', load_ramp: { steps: [{ target_accept_percentage: 1 }] } }, /load_ramp\.steps\[0\]\.duration: is required/],
    ['load-ramping', { policy_name: 'p', load_ramp: { steps: [{ target_accept_percentage: 1, duration: '0s' }] }, drivers: { promql_drivers: [{ query_string: 'up', criteria: { forward: { threshold: 1 } } }] } }, /drivers\.promql_drivers\[0\]\.criteria\.forward\.operator: is required/],
  ];
  for (const [name, values, want] of cases) {
    const message = refusal(() => generatePolicy(named(name), values, 'values.yaml'));
    assert.match(message, /^values\.yaml: bad values for blueprint /);
    assert.match(message, want, `${name} ${JSON.stringify(values)}`);
  }
});

test('the values given are not changed by generating (defaults go into a copy)', () => {
  const values = { policy_name: 'p', rate_limiter: { bucket_capacity: 1, fill_amount: 1 } };
  generatePolicy(named('rate-limiting'), values, 'v');
  assert.deepEqual(values, { policy_name: 'p', rate_limiter: { bucket_capacity: 1, fill_amount: 1 } });
});

test('the example values file reads back as the example, with each field described', () => {
  for (const b of BLUEPRINTS) {
    const text = exampleValuesYaml(b);
    assert.deepEqual(parse(text), b.example, b.name);
    assert.match(text, /# The name of the Policy resource[^\n]*\npolicy_name: /, b.name);
  }
});

test('the sluicectl guide holds each blueprint\'s fields table as `describe --markdown` prints it', () => {
  const guide = readFileSync(fileURLToPath(new URL('../../../../docs/guides/sluicectl.md', import.meta.url)), 'utf8');
  for (const b of BLUEPRINTS) {
    assert.ok(guide.includes(blueprintMarkdown(b)), `docs/guides/sluicectl.md is stale for ${b.name}: put in what \`sluicectl blueprints describe ${b.name} --markdown\` prints`);
  }
  const paths = fieldsOf(named('service-protection-average-latency').schema).map((f) => f.path);
  for (const p of ['policy_name', 'latency_baseliner.latency_tolerance_multiplier', 'load_scheduling.workloads.parameters.priority', 'load_scheduling.gradient.slope']) assert.ok(paths.includes(p), p);
});

test('quota-scheduling: the values are the quota scheduler\'s, defaults filled in; bad values name their field', () => {
  const b = named('quota-scheduling');
  const p = generatePolicy(b, { policy_name: 'q', quota_scheduler: { bucket_capacity: 6, fill_amount: 6, limit_by_label_key: 'tenant', workloads: [{ label_matcher: { match_labels: { tier: 'gold' } }, parameters: { priority: 100 } }] } }, 'v');
  const qs = (p.spec.circuit as { components: Array<{ flow_control: { quota_scheduler: Record<string, unknown> } }> }).components[0]?.flow_control.quota_scheduler;
  assert.deepEqual(qs, {
    in_ports: { bucket_capacity: { constant_signal: { value: 6 } }, fill_amount: { constant_signal: { value: 6 } } },
    selectors: [{ control_point: 'ingress', agent_group: 'default', service: 'any' }],
    rate_limiter: { interval: '1s', continuous_fill: true, limit_by_label_key: 'tenant' },
    scheduler: { workloads: [{ label_matcher: { match_labels: { tier: 'gold' } }, parameters: { priority: 100 } }], default_workload_parameters: {} },
  });
  compilePolicy('q', p.spec);
  assert.match(refusal(() => generatePolicy(b, { policy_name: 'q', quota_scheduler: { fill_amount: 1 } }, 'v')), /quota_scheduler\.bucket_capacity: is required/);
  assert.match(refusal(() => generatePolicy(b, { policy_name: 'q', quota_scheduler: { bucket_capacity: -1, fill_amount: 1 } }, 'v')), /quota_scheduler\.bucket_capacity: must be >= 0/);
  assert.match(refusal(() => generatePolicy(b, { policy_name: 'q', quota_scheduler: { bucket_capacity: 1, fill_amount: 1, interval: 'soon' } }, 'v')), /quota_scheduler\.interval: "soon" is not a duration/);
  assert.match(refusal(() => generatePolicy(b, { policy_name: 'q', quota_scheduler: { bucket_capacity: 1, fill_amount: 1, label_key: 'x' } }, 'v')), /quota_scheduler\.label_key: is not a field here/);
});
