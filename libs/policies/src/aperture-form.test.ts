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
  assert.deepEqual(files, ['alerting.yaml', 'quota-scheduling.yaml', 'rate-limiting.yaml', 'service-protection.yaml', 'workload-prioritization.yaml']);
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

test('a dynamicConfig with a key no component names, or a value of the wrong type, names it', () => {
  const { compiled } = load('alerting.yaml');
  const { problems } = checkDynamicConfig({ accept_percentage: [1], samplr: {}, sampler: { pass_through: 'gold' } }, compiled.configKeys, 'dynamicConfig');
  assert.deepEqual(problems.map((p) => p.path), ['dynamicConfig.samplr', 'dynamicConfig.accept_percentage', 'dynamicConfig.sampler.pass_through']);
  assert.match(problems[0].message, /unknown key.*accept_percentage, sampler\.pass_through/);
  assert.match(problems[1].message, /not a finite number/);
  assert.match(problems[2].message, /list of strings/);
  assert.deepEqual(checkDynamicConfig([], compiled.configKeys).problems.map((p) => p.path), ['dynamic_config']);
});
