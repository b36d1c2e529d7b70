// The policies of test-fixtures/aperture-form (Policy resources in the form Aperture's generator
// writes them) compile, with their dynamicConfig, into what the agents enforce.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { test } from 'node:test';
import { parse } from 'yaml';
import { compilePolicy, type CompiledPolicy } from './compile.js';
import { checkDynamicConfig } from './dynamic-config.js';
import type { PublishedComponent } from './published.js';

const DIR = fileURLToPath(new URL('../test-fixtures/aperture-form/', import.meta.url));

interface Resource { metadata: { name: string }; spec: unknown; dynamicConfig?: unknown }

function load(file: string): { resource: Resource; compiled: CompiledPolicy; dynamic: Map<string, unknown> } {
  const resource = parse(readFileSync(join(DIR, file), 'utf8')) as Resource;
  const compiled = compilePolicy(resource.metadata.name, resource.spec);
  const { problems, values } = checkDynamicConfig(resource.dynamicConfig, compiled.configKeys, 'dynamicConfig');
  assert.deepEqual(problems, [], file);
  return { resource, compiled, dynamic: values };
}

const of = <K extends PublishedComponent['kind']>(c: CompiledPolicy, kind: K) => c.components.filter((x): x is Extract<PublishedComponent, { kind: K }> => x.kind === kind);
const tick = (c: CompiledPolicy, dynamic: Map<string, unknown>, variables = new Map<string, number>()) => c.createCircuit().tick(0, { promql: new Map(), variables, dynamic });

test('there is one fixture per kind of policy, each a Policy resource with a dynamicConfig', () => {
  const files = readdirSync(DIR).filter((f) => f.endsWith('.yaml')).sort();
  assert.deepEqual(files, ['alerting.yaml', 'auto-scaling.yaml', 'load-ramping.yaml', 'quota-scheduling.yaml', 'rate-limiting.yaml', 'service-protection.yaml', 'workload-prioritization.yaml']);
  for (const f of files) {
    const r = parse(readFileSync(join(DIR, f), 'utf8')) as Resource & { apiVersion: string; kind: string };
    assert.equal(`${r.apiVersion} ${r.kind}`, 'sluice.dev/v1alpha1 Policy', f);
    assert.equal(typeof r.dynamicConfig, 'object', f);
  }
});

test('rate limiting: string numbers, max_idle_time 0s, a variable from the dynamic config, a flux meter named with "/"', () => {
  const { compiled, dynamic } = load('rate-limiting.yaml');
  const [rl] = of(compiled, 'rate_limiter');
  assert.equal(rl.parameters.max_idle_time_ms, 0);
  assert.deepEqual(rl.parameters.lazy_sync, { enabled: false, num_sync: 4 });
  const [meter] = of(compiled, 'flux_meter');
  assert.equal(meter.name, 'rate-limiting/workload_latency/0');
  assert.equal(meter.component_id, 'flux_meter.rate-limiting%2Fworkload_latency%2F0');
  assert.deepEqual(meter.buckets, [5, 50, 500, 5000]);
  assert.deepEqual(compiled.ignored, ['spec.resources.infra_meters']);
  // The variable reads the dynamic config's "3" through the variables the controller hands in.
  assert.deepEqual(compiled.configKeys.map((k) => [k.key, k.type]), [['bucket_capacity', 'number']]);
  assert.equal(dynamic.get('bucket_capacity'), 3);
  assert.equal((tick(compiled, dynamic).decisions.get('root.1') as { bucket_capacity: number }).bucket_capacity, 40);
  assert.equal((tick(compiled, dynamic, new Map([['BUCKET_CAPACITY', 3]])).decisions.get('root.1') as { bucket_capacity: number }).bucket_capacity, 3);
});

test('service protection: nested alerter built, infra meters ignored, priorities as strings, dry run from the dynamic config', () => {
  const { compiled, dynamic } = load('service-protection.yaml');
  // The scheduler's alerter is built (it raises alerts), so only the infra meters are listed as ignored.
  assert.deepEqual(compiled.ignored, ['spec.resources.infra_meters']);
  const [ls] = of(compiled, 'load_scheduler');
  assert.deepEqual((ls.parameters.workloads as { name: string; parameters: { priority: number } }[]).map((w) => [w.name, w.parameters.priority]), [['guest', 50], ['subscriber', 200]]);
  assert.deepEqual(compiled.configKeys.map((k) => [k.key, k.type, k.target]), [['dry_run', 'boolean', { component_id: 'root.3', field: ['parameters', 'dry_run'] }]]);
  assert.equal(dynamic.get('dry_run'), false);
  const [meter] = of(compiled, 'flux_meter');
  assert.equal(meter.name, 'service-protection/average_latency/0');
  assert.equal(meter.buckets.length, 10);
  assert.equal(meter.buckets[9], 10000);
  assert.equal(compiled.promql.length, 2);
  assert.match(compiled.promql[0].query, /flux_meter_name="service-protection\/average_latency\/0"/);
});

test('workload prioritisation: a load multiplier and a dry run (dotted key) from the dynamic config', () => {
  const { compiled, dynamic } = load('workload-prioritization.yaml');
  assert.deepEqual(compiled.configKeys.map((k) => k.key), ['load_multiplier', 'scheduler.dry_run']);
  assert.equal(dynamic.get('load_multiplier'), 0.5);
  assert.equal(dynamic.get('scheduler.dry_run'), false);
  const [ls] = of(compiled, 'load_scheduler');
  assert.deepEqual(ls.parameters.default_workload_parameters, { priority: 20 });
  assert.deepEqual((ls.parameters.workloads as { parameters: unknown }[])[0].parameters, { priority: 250, tokens: 1, queue_timeout_ms: 500 });
  assert.deepEqual(of(compiled, 'flux_meter')[0].buckets.slice(0, 3), [10, 110, 210]);
  assert.equal(of(compiled, 'classifier').length, 1);
  assert.deepEqual(tick(compiled, dynamic, new Map([['LOAD_MULTIPLIER', 0.5]])).decisions.get('root.1'), { kind: 'load_scheduler', load_multiplier: 0.5, pass_through: false });
});

test('quota scheduling: string int64s, a fill from the dynamic config, the rate limiter\'s tokens_label_key ignored as Aperture does', () => {
  const { compiled, dynamic } = load('quota-scheduling.yaml');
  assert.deepEqual(compiled.ignored, ['spec.circuit.components[1].flow_control.quota_scheduler.rate_limiter.tokens_label_key', 'spec.resources.infra_meters']);
  const [qs] = of(compiled, 'quota_scheduler');
  assert.deepEqual(qs.rate_limiter, {
    label_key: 'tenant', tokens_label_key: 'tokens', interval_ms: 3_600_000, continuous_fill: false, max_idle_time_ms: 7_200_000,
    lazy_sync: { enabled: false, num_sync: 4 },
  });
  assert.deepEqual(qs.scheduler.default_workload_parameters, { priority: 20 });
  assert.deepEqual((qs.scheduler.workloads as { name: string; parameters: unknown }[]).map((w) => [w.name, w.parameters]), [['gold', { priority: 100, tokens: 1, queue_timeout_ms: 500 }]]);
  assert.equal(of(compiled, 'classifier').length, 1);
  assert.deepEqual(compiled.configKeys.map((k) => [k.key, k.type]), [['fill_amount', 'number']]);
  assert.equal(dynamic.get('fill_amount'), 6);
  assert.deepEqual(tick(compiled, dynamic, new Map([['FILL_AMOUNT', 6]])).decisions.get('root.1'), { kind: 'quota_scheduler', bucket_capacity: 12, fill_amount: 6, pass_through: false });
});

test('alerting: top-level alerter built, a sampler\'s pass-through values from the dynamic config', () => {
  const { compiled, dynamic } = load('alerting.yaml');
  assert.deepEqual(compiled.ignored, ['spec.resources.infra_meters'], 'the alerter is built, not ignored');
  assert.deepEqual(compiled.configKeys.map((k) => [k.key, k.type]), [['accept_percentage', 'number'], ['sampler.pass_through', 'string_list']]);
  assert.deepEqual(dynamic.get('sampler.pass_through'), ['gold']);
  assert.deepEqual(of(compiled, 'flux_meter')[0].buckets, [5, 10, 20, 40, 80, 160, 320, 640]);
});

test('load ramping: the blueprint\'s wiring; start and reset are bool variables of the dynamic config, the pass-through values too', () => {
  const { compiled, dynamic } = load('load-ramping.yaml');
  assert.deepEqual(compiled.configKeys.map((k) => [k.key, k.type]), [['start', 'boolean'], ['reset', 'boolean'], ['pass_through_label_values', 'string_list']]);
  assert.deepEqual([...dynamic], [['start', false], ['reset', false], ['pass_through_label_values', ['qa']]]);
  const [sampler] = of(compiled, 'sampler');
  assert.equal(sampler.component_id, 'root.12');
  assert.deepEqual(sampler.parameters, { label_key: 'user' });
  assert.equal(of(compiled, 'flux_meter')[0].name, 'aperture-form-load-ramping/average_latency/0');
  // The controller hands the booleans in as variables (1/0): without Prometheus the latency driver
  // is invalid, so it neither resets nor holds the ramp; start moves it on, reset sends it back.
  const circuit = compiled.createCircuit();
  const run = (i: number, start: number, reset: number) => circuit.tick(i * 1000, { promql: new Map(), variables: new Map([['USER_START_CONTROL', start], ['USER_RESET_CONTROL', reset]]), dynamic }).signals;
  assert.deepEqual([run(0, 0, 0).ACCEPT_PERCENTAGE, run(1, 0, 0).ACCEPT_PERCENTAGE], [10, 10]);
  const climbing = [2, 3, 4, 5, 6].map((i) => run(i, 1, 0).ACCEPT_PERCENTAGE);
  assert.deepEqual(climbing, [10, 15, 20, 25, 30]);
  const back = run(7, 1, 1);
  assert.deepEqual([back.ACCEPT_PERCENTAGE, back.AT_START, back.RESET], [10, 1, 1]);
});

test('load-based auto-scaling: replicas as strings, the scaler\'s dry run from the dynamic config, a periodic scale-in at the first tick', () => {
  const { compiled, dynamic } = load('auto-scaling.yaml');
  const [scaler] = of(compiled, 'pod_scaler');
  assert.deepEqual([scaler.component_id, scaler.kubernetes_object, scaler.min_replicas, scaler.max_replicas, scaler.scale_out_cooldown_ms, scaler.scale_in_cooldown_ms],
    ['root.1', { namespace: 'prod', api_version: 'apps/v1', kind: 'Deployment', name: 'search' }, 2, 10, 0, 0]);
  assert.deepEqual(compiled.configKeys.map((k) => [k.key, k.target]), [['dry_run', { component_id: 'root.0', field: ['parameters', 'dry_run'] }], ['auto_scaler.dry_run', { component_id: 'root.1', field: ['dry_run'] }]]);
  assert.equal(dynamic.get('auto_scaler.dry_run'), false);
  // 5 running, no latency yet (the scale-out gradient proposes 5): the periodic controller removes
  // 10 % of 5 (rounded up to 1) at the first tick; max_scale_in_percentage "1" still allows one.
  const reports = new Map([['root.1', { actual_replicas: 5, configured_replicas: 5, desired_replicas: null }]]);
  const out = compiled.createCircuit().tick(0, { promql: new Map(), variables: new Map(), dynamic, reports });
  assert.deepEqual(out.decisions.get('root.1'), { kind: 'pod_scaler', replicas: 4 });
  assert.deepEqual([out.signals.ACTUAL_REPLICAS, out.signals.CONFIGURED_REPLICAS, out.signals.DESIRED_REPLICAS], [5, 5, null]);
  assert.deepEqual((out.alerts ?? []).map((a) => a.name), ['Auto-scaler is scaling in', 'Auto-scaler is scaling in']);
});

test('a dynamicConfig with a key no component names, or a value of the wrong type, names it', () => {
  const { compiled } = load('alerting.yaml');
  const { problems } = checkDynamicConfig({ accept_percentage: [1], samplr: {}, sampler: { pass_through: 'gold' } }, compiled.configKeys, 'dynamicConfig');
  assert.deepEqual(problems.map((p) => p.path), ['dynamicConfig.samplr', 'dynamicConfig.accept_percentage', 'dynamicConfig.sampler.pass_through']);
  assert.match(problems[0].message, /unknown key.*accept_percentage, sampler\.pass_through/);
  assert.match(problems[1].message, /not a finite number/);
  assert.match(problems[2].message, /list of strings/);
  assert.deepEqual(checkDynamicConfig([], compiled.configKeys).problems.map((p) => p.path), ['dynamic_config']);
});
