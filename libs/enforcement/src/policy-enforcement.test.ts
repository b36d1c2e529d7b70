import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Engine, type CheckDecision } from '@sluice/flowcontrol';
import { LocalTokenBucketStore, type TokenBucketParams, type TokenBucketStore } from '@sluice/tokenbucket';
import { configKey, decisionKey, type PublishedComponent, type PublishedDecision } from '@sluice/policies';
import { Registry } from 'prom-client';
import { PolicyEnforcement } from './policy-enforcement.js';
import { FakeEtcd } from './test-support.js';
import { silentLogger } from '@sluice/telemetry/logger';

function limiter(policy: string, id: string, over: Partial<PublishedComponent> = {}, group = 'default'): PublishedComponent {
  return {
    kind: 'rate_limiter',
    policy_name: policy,
    policy_hash: 'h1',
    component_id: id,
    agent_group: group,
    selectors: [{ control_point: 'ingress', agent_group: group }],
    parameters: { interval_ms: 60_000, continuous_fill: false, max_idle_time_ms: 7_200_000, lazy_sync: { enabled: false, num_sync: 4 } },
    ...over,
  } as PublishedComponent;
}

function rl(capacity: number, passThrough = false): PublishedDecision {
  return { kind: 'rate_limiter', bucket_capacity: capacity, fill_amount: 0, pass_through: passThrough };
}

function setup(group = 'default', extra: Partial<ConstructorParameters<typeof PolicyEnforcement>[0]> = {}) {
  const etcd = new FakeEtcd();
  const engine = new Engine({ agentGroup: group });
  const registry = new Registry();
  const warnings: string[] = [];
  const logger = { ...silentLogger, warn(m: string) { warnings.push(m); }, error(m: string) { warnings.push(m); } };
  const enforcement = new PolicyEnforcement({ etcd, engine, agentGroup: group, registry, logger, ...extra });
  return { etcd, engine, registry, enforcement, warnings };
}

function check(engine: Engine, labels: Record<string, string> = {}): CheckDecision {
  return engine.check({ controlPoint: 'ingress', labels, services: [] }) as CheckDecision;
}

/** Accepted flows out of `n`. */
function admitted(engine: Engine, n: number, labels: Record<string, string> = {}): number {
  let ok = 0;
  for (let i = 0; i < n; i++) if (check(engine, labels).accepted) ok++;
  return ok;
}

async function metric(registry: Registry, name: string, labels: Record<string, string> = {}): Promise<number> {
  const m = registry.getSingleMetric(name);
  if (m === undefined) return 0;
  return (await m.get()).values.filter((v) => Object.entries(labels).every(([k, l]) => v.labels[k] === l)).reduce((n, v) => n + v.value, 0);
}

const CFG = (policy: string, id: string, group = 'default') => configKey('sluice', group, policy, id);
const DEC = (policy: string, id: string, group = 'default') => decisionKey('sluice', group, policy, id);

test('a rate limiter runs in pass-through until its first decision, then enforces it', async () => {
  const { etcd, engine, enforcement, registry } = setup();
  enforcement.start();
  assert.equal(enforcement.synced(), true);
  etcd.put(CFG('p', 'root.0'), JSON.stringify(limiter('p', 'root.0')));
  assert.equal(admitted(engine, 20), 20, 'no decision yet: pass-through');
  assert.equal(check(engine).limiters.length, 1, 'registered');
  etcd.put(DEC('p', 'root.0'), JSON.stringify(rl(5)));
  assert.equal(admitted(engine, 20), 5);
  assert.deepEqual(enforcement.enforced().map((e) => [e.policy_name, e.component_id, e.kind, e.decision]), [['p', 'root.0', 'rate_limiter', rl(5)]]);
  assert.equal(await metric(registry, 'policy_enforced_components', { kind: 'rate_limiter' }), 1);
  assert.equal(await metric(registry, 'policy_decisions_applied_total'), 1);
});

test('a new decision updates the live limiter in place: tokens kept, no re-registration', () => {
  let stores = 0;
  const { etcd, engine, enforcement } = setup('default', {
    tokenBucketStore: (params, c) => { stores++; return localStore(params, c); },
  });
  enforcement.start();
  etcd.put(DEC('p', 'root.0'), JSON.stringify(rl(10)));
  etcd.put(CFG('p', 'root.0'), JSON.stringify(limiter('p', 'root.0')));
  assert.equal(admitted(engine, 4), 4);
  etcd.put(DEC('p', 'root.0'), JSON.stringify(rl(8)));
  assert.equal(admitted(engine, 20), 6, 'the bucket kept its 6 tokens under the new capacity');
  etcd.put(DEC('p', 'root.0'), JSON.stringify(rl(3)));
  assert.equal(admitted(engine, 5), 0, 'tokens capped at the new capacity: none left');
  etcd.put(DEC('p', 'root.0'), JSON.stringify(rl(3, true)));
  assert.equal(admitted(engine, 5), 5, 'pass_through in the decision');
  assert.equal(stores, 1, 'one store: the component was never rebuilt');
});

function localStore(params: TokenBucketParams, _c: unknown): TokenBucketStore {
  return new LocalTokenBucketStore(params);
}

test('a changed configuration replaces the component; deleting the key unregisters it', async () => {
  const { etcd, engine, enforcement, registry } = setup();
  enforcement.start();
  etcd.put(CFG('p', 'root.0'), JSON.stringify(limiter('p', 'root.0')));
  etcd.put(DEC('p', 'root.0'), JSON.stringify(rl(2)));
  assert.equal(admitted(engine, 5), 2);
  etcd.put(CFG('p', 'root.0'), JSON.stringify(limiter('p', 'root.0', { policy_hash: 'h2', parameters: { interval_ms: 60_000, continuous_fill: false, max_idle_time_ms: 1000, lazy_sync: { enabled: false, num_sync: 4 }, label_key: 'user' } } as Partial<PublishedComponent>)));
  assert.equal(check(engine).limiters.length, 1, 'the old registration is gone');
  assert.equal(check(engine).limiters[0]?.identity.policy_hash, 'h2');
  assert.equal(admitted(engine, 5, { user: 'a' }), 2, 'the decision applies to the new component, with its new label key');
  assert.equal(admitted(engine, 5, { user: 'b' }), 2);
  assert.equal(await metric(registry, 'policy_components_replaced_total'), 1);
  etcd.delete(CFG('p', 'root.0'));
  assert.equal(check(engine).limiters.length, 0);
  assert.equal(admitted(engine, 10, { user: 'a' }), 10);
  assert.deepEqual(enforcement.enforced(), []);
});

test('a new policy hash with an otherwise equal configuration keeps the live limiter and its exhausted bucket', async () => {
  let stores = 0;
  const { etcd, engine, enforcement, registry } = setup('default', {
    tokenBucketStore: (params, c) => { stores++; return localStore(params, c); },
  });
  enforcement.start();
  etcd.put(CFG('p', 'root.0'), JSON.stringify(limiter('p', 'root.0')));
  etcd.put(DEC('p', 'root.0'), JSON.stringify(rl(5)));
  assert.equal(admitted(engine, 10), 5, 'the bucket is exhausted');
  // A PATCH of the capacity alone: the policy's hash changes in every config, the capacity in the decision.
  etcd.put(CFG('p', 'root.0'), JSON.stringify(limiter('p', 'root.0', { policy_hash: 'h2' } as Partial<PublishedComponent>)));
  etcd.put(DEC('p', 'root.0'), JSON.stringify(rl(8)));
  assert.equal(admitted(engine, 10), 0, 'no burst: the bucket kept its state (no tokens) under the new capacity');
  assert.equal(stores, 1, 'never rebuilt');
  assert.equal(check(engine).limiters.length, 1);
  assert.equal(check(engine).limiters[0]?.identity.policy_hash, 'h2', 'the identity took the new hash');
  assert.equal(enforcement.enforced()[0]?.policy_hash, 'h2');
  assert.equal(await metric(registry, 'policy_components_replaced_total'), 0);
});

test('a deleted decision returns the component to pass-through', () => {
  const { etcd, engine, enforcement } = setup();
  enforcement.start();
  etcd.put(CFG('p', 'root.0'), JSON.stringify(limiter('p', 'root.0')));
  etcd.put(DEC('p', 'root.0'), JSON.stringify(rl(0)));
  assert.equal(admitted(engine, 3), 0, 'capacity 0 rejects all');
  etcd.delete(DEC('p', 'root.0'));
  assert.equal(admitted(engine, 3), 3);
});

test('keys of another group are never seen (default vs default2)', () => {
  const { etcd, engine, enforcement } = setup('default');
  etcd.put(CFG('p', 'root.0', 'default2'), JSON.stringify(limiter('p', 'root.0', {}, 'default2')));
  etcd.put(DEC('p', 'root.0', 'default2'), JSON.stringify(rl(0)));
  enforcement.start();
  assert.equal(admitted(engine, 3), 3);
  assert.deepEqual(enforcement.enforced(), []);
});

test('what was published before start is enforced at the first read, and a resync is idempotent', () => {
  const { etcd, engine, enforcement } = setup();
  etcd.put(CFG('p', 'root.0'), JSON.stringify(limiter('p', 'root.0')));
  etcd.put(DEC('p', 'root.0'), JSON.stringify(rl(4)));
  enforcement.start();
  assert.equal(admitted(engine, 2), 2);
  etcd.resync();
  etcd.resync();
  assert.equal(check(engine).limiters.length, 1, 'registered once (this check takes a token)');
  assert.equal(admitted(engine, 10), 1, 'the same bucket: a resync did not rebuild the limiter');
});

test('changes missed while away are applied by the resync', () => {
  const { etcd, engine, enforcement } = setup();
  etcd.put(CFG('p', 'root.0'), JSON.stringify(limiter('p', 'root.0')));
  etcd.put(DEC('p', 'root.0'), JSON.stringify(rl(4)));
  enforcement.start();
  // Changed behind the watch's back (as while etcd was away): the resync sees the difference.
  etcd.kv.delete(CFG('p', 'root.0'));
  etcd.kv.set(CFG('q', 'root.0'), JSON.stringify(limiter('q', 'root.0')));
  etcd.kv.set(DEC('q', 'root.0'), JSON.stringify(rl(1)));
  etcd.resync();
  assert.deepEqual(enforcement.enforced().map((e) => e.policy_name), ['q']);
  assert.equal(admitted(engine, 3), 1);
});

test('malformed values are logged and counted once and disturb nothing else', async () => {
  const { etcd, engine, enforcement, registry, warnings } = setup();
  enforcement.start();
  etcd.put(CFG('good', 'root.0'), JSON.stringify(limiter('good', 'root.0')));
  etcd.put(DEC('good', 'root.0'), JSON.stringify(rl(3)));
  const bad: [string, string][] = [
    [CFG('bad', 'json'), '{not json'],
    [CFG('bad', 'array'), '[1,2]'],
    [CFG('bad', 'kind'), JSON.stringify({ ...limiter('bad', 'kind'), kind: 'teleporter' })],
    [CFG('bad', 'noselectors'), JSON.stringify(limiter('bad', 'noselectors', { selectors: [] }))],
    [CFG('bad', 'nocp'), JSON.stringify(limiter('bad', 'nocp', { selectors: [{ control_point: '' }] } as Partial<PublishedComponent>))],
    [CFG('bad', 'interval'), JSON.stringify(limiter('bad', 'interval', { parameters: { interval_ms: 0, continuous_fill: true, max_idle_time_ms: 1, lazy_sync: { enabled: false, num_sync: 4 } } } as Partial<PublishedComponent>))],
    [CFG('bad', 'regex'), JSON.stringify(limiter('bad', 'regex', { selectors: [{ control_point: 'ingress', label_matcher: { expression: { label_matches: { label: 'x', regex: '(' } } } }] } as Partial<PublishedComponent>))],
    [`${CFG('bad', 'deep')}/extra`, JSON.stringify(limiter('bad', 'deep'))],
  ];
  for (const [k, v] of bad) etcd.put(k, v);
  etcd.put(DEC('good', 'root.0'), '{"kind":"rate_limiter"');
  etcd.put(DEC('good', 'root.0'), JSON.stringify({ kind: 'rate_limiter', bucket_capacity: -1, fill_amount: 0, pass_through: false }));
  etcd.put(DEC('good', 'root.0'), JSON.stringify({ kind: 'sampler', accept_percentage: 50, pass_through: false }));
  // Each refused value is reported once, however many reconciles follow.
  etcd.resync();
  etcd.put(CFG('other', 'x'), JSON.stringify(limiter('other', 'x', { selectors: [{ control_point: 'elsewhere' }] } as Partial<PublishedComponent>)));
  assert.equal(await metric(registry, 'policy_malformed_values_total', { type: 'config' }), bad.length);
  assert.equal(await metric(registry, 'policy_malformed_values_total', { type: 'decision' }), 3);
  assert.equal(warnings.length, bad.length + 3);
  assert.deepEqual(enforcement.enforced().map((e) => e.policy_name), ['good', 'other']);
  assert.deepEqual(enforcement.enforced()[0]?.decision, rl(3), 'the last good decision stays');
  assert.equal(admitted(engine, 10), 3);
  // A fixed value is used.
  etcd.put(CFG('bad', 'json'), JSON.stringify(limiter('bad', 'json')));
  assert.equal(enforcement.enforced().length, 3);
});

test('no published kind is skipped: without a builder given for it, the registry\'s builds it; flux meters are named in the check', () => {
  const { etcd, engine, enforcement, warnings } = setup('default', { builders: { load_scheduler: undefined } });
  enforcement.start();
  etcd.put(CFG('p', 'sched'), JSON.stringify({ ...limiter('p', 'sched'), kind: 'load_scheduler', parameters: {} }));
  etcd.put(CFG('p', 'flux_meter.lat'), JSON.stringify({ kind: 'flux_meter', policy_name: 'p', policy_hash: 'h', component_id: 'flux_meter.lat', agent_group: 'default', selectors: [{ control_point: 'ingress' }], name: 'lat', attribute_key: 'workload_duration_ms', buckets: [5, 10] }));
  assert.deepEqual(check(engine).fluxMeters, ['lat']);
  assert.deepEqual(enforcement.enforced().map((e) => e.kind).sort(), ['flux_meter', 'load_scheduler']);
  assert.deepEqual(warnings, []);
});

test('shutdown unregisters the published components but not the others', async () => {
  const { etcd, engine, enforcement } = setup();
  const local = { kind: 'flux_meter' as const, name: 'local' };
  engine.register(local, { control_point: 'ingress' });
  enforcement.start();
  etcd.put(CFG('p', 'flux_meter.x'), JSON.stringify({ kind: 'flux_meter', policy_name: 'p', policy_hash: 'h', component_id: 'flux_meter.x', agent_group: 'default', selectors: [{ control_point: 'ingress' }], name: 'x', attribute_key: 'a', buckets: [1] }));
  assert.deepEqual([...check(engine).fluxMeters].sort(), ['local', 'x']);
  await enforcement.shutdown();
  assert.deepEqual(check(engine).fluxMeters, ['local']);
  etcd.put(CFG('p', 'flux_meter.y'), JSON.stringify({ kind: 'flux_meter', policy_name: 'p', policy_hash: 'h', component_id: 'flux_meter.y', agent_group: 'default', selectors: [{ control_point: 'ingress' }], name: 'y', attribute_key: 'a', buckets: [1] }));
  assert.deepEqual(check(engine).fluxMeters, ['local'], 'no watch after shutdown');
});

test('a sampler runs in pass-through until its decision, which it then applies in place', () => {
  const { etcd, engine, enforcement } = setup();
  enforcement.start();
  etcd.put(CFG('s', 'root.0'), JSON.stringify({
    kind: 'sampler', policy_name: 's', policy_hash: 'h', component_id: 'root.0', agent_group: 'default',
    selectors: [{ control_point: 'ingress' }], parameters: { label_key: 'user' }, pass_through_label_values: ['vip'],
  }));
  assert.equal(admitted(engine, 5, { user: 'a' }), 5);
  etcd.put(DEC('s', 'root.0'), JSON.stringify({ kind: 'sampler', accept_percentage: 0, pass_through: false }));
  assert.equal(admitted(engine, 5, { user: 'a' }), 0);
  assert.equal(check(engine, { user: 'a' }).deniedStatus, 403);
  assert.equal(admitted(engine, 5, { user: 'vip' }), 5, 'pass-through label values');
  etcd.put(DEC('s', 'root.0'), JSON.stringify({ kind: 'sampler', accept_percentage: 100, pass_through: false }));
  assert.equal(admitted(engine, 5, { user: 'a' }), 5);
});

test('a classifier adds its label, which a published rate limiter keys on', () => {
  const { etcd, engine, enforcement } = setup();
  enforcement.start();
  etcd.put(CFG('c', 'classifier.0'), JSON.stringify({
    kind: 'classifier', policy_name: 'c', policy_hash: 'h', component_id: 'classifier.0', agent_group: 'default', classifier_index: 0,
    selectors: [{ control_point: 'ingress' }], rules: { tier: { extractor: { from: 'request.http.headers.x-tier' } } },
  }));
  etcd.put(CFG('c', 'bad'), JSON.stringify({
    kind: 'classifier', policy_name: 'c', policy_hash: 'h', component_id: 'bad', agent_group: 'default', classifier_index: 1,
    selectors: [{ control_point: 'ingress' }], rules: { x: { extractor: { from: 'request.nowhere' } } },
  }));
  assert.deepEqual(enforcement.enforced().map((e) => e.component_id), ['classifier.0'], 'a bad attribute path refuses that classifier only');
  const d = engine.check({ controlPoint: 'ingress', labels: {}, services: [], type: 'http', http: { request: { headers: { 'x-tier': 'gold' } } } as never }) as CheckDecision;
  assert.equal(d.labels.tier, 'gold');
});

test('selectors past the agent\'s total: the component is refused, logged and counted once, and enforced once others go', async () => {
  const { etcd, enforcement, registry, warnings } = setup('default', { maxSelectors: 5 });
  enforcement.start();
  const three = [{ control_point: 'ingress' }, { control_point: 'a' }, { control_point: 'b' }];
  etcd.put(CFG('p1', 'root.0'), JSON.stringify(limiter('p1', 'root.0', { selectors: three } as Partial<PublishedComponent>)));
  etcd.put(CFG('p2', 'root.0'), JSON.stringify(limiter('p2', 'root.0', { selectors: three } as Partial<PublishedComponent>)));
  etcd.put(CFG('p3', 'root.0'), JSON.stringify(limiter('p3', 'root.0', { selectors: three.slice(0, 2) } as Partial<PublishedComponent>)));
  assert.deepEqual(enforcement.enforced().map((e) => e.policy_name), ['p1', 'p3'], '3 + 2 selectors fit; 3 more do not');
  etcd.resync();
  assert.equal(await metric(registry, 'policy_selector_limit_refusals_total'), 1, 'one refused value, counted once');
  assert.equal(warnings.filter((w) => /more selectors than it allows/.test(w)).length, 1);
  etcd.delete(CFG('p1', 'root.0'));
  assert.deepEqual(enforcement.enforced().map((e) => e.policy_name), ['p2', 'p3'], 'room again: the refused one is enforced');
  // A new configuration of a live component that would not fit leaves the live one in force.
  etcd.put(CFG('p3', 'root.0'), JSON.stringify(limiter('p3', 'root.0', { selectors: three } as Partial<PublishedComponent>)));
  assert.deepEqual(enforcement.enforced().map((e) => [e.policy_name, e.selectors]), [['p2', 3], ['p3', 2]]);
  assert.equal(await metric(registry, 'policy_selector_limit_refusals_total'), 2);
});

test('a published component with more selectors than a policy may have is refused as malformed', async () => {
  const { etcd, enforcement, registry } = setup();
  enforcement.start();
  const many = Array.from({ length: 65 }, (_, i) => ({ control_point: 'ingress', label_matcher: { expression: { label_matches: { label: 'x', regex: `^${i}` } } } }));
  etcd.put(CFG('p', 'root.0'), JSON.stringify(limiter('p', 'root.0', { selectors: many } as Partial<PublishedComponent>)));
  assert.deepEqual(enforcement.enforced(), []);
  assert.equal(await metric(registry, 'policy_malformed_values_total', { type: 'config' }), 1);
});
