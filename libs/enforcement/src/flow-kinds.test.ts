import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Engine, type FlowComponent } from '@sluice/flowcontrol';
import { configKey, decisionKey, PUBLISHED_KIND_NAMES, type PublishedComponent, type PublishedKindName } from '@sluice/policies';
import { Registry } from 'prom-client';
import { localTokenBucketStore } from './builders.js';
import { checkFlowKinds, FLOW_KINDS, flowKind, UnknownFlowKindError, type FlowKindEntry } from './flow-kinds.js';
import { PolicyEnforcement } from './policy-enforcement.js';
import { FakeEtcd } from './test-support.js';
import { silentLogger } from '@sluice/telemetry/logger';

const common = { policy_name: 'p', policy_hash: 'h', agent_group: 'default' };
const selectors = [{ control_point: 'ingress' }];

/** One configuration of every published kind (keyed by kind: a new kind needs one here to compile). */
const SAMPLES: { [K in PublishedKindName]: Extract<PublishedComponent, { kind: K }> } = {
  rate_limiter: { ...common, kind: 'rate_limiter', component_id: 'root.0', selectors, parameters: { interval_ms: 1000, continuous_fill: true, max_idle_time_ms: 1000 } },
  sampler: { ...common, kind: 'sampler', component_id: 'root.1', selectors, parameters: {}, pass_through_label_values: [] },
  classifier: { ...common, kind: 'classifier', component_id: 'classifier.0', selectors, classifier_index: 0, rules: { user: { extractor: { from: 'request.http.headers.user' } } } },
  flux_meter: { ...common, kind: 'flux_meter', component_id: 'flux_meter.m', selectors, name: 'm', attribute_key: 'workload_duration_ms', buckets: [] },
  load_scheduler: { ...common, kind: 'load_scheduler', component_id: 'root.2', selectors, parameters: { workloads: [] } },
  pod_scaler: {
    ...common, kind: 'pod_scaler', component_id: 'root.3', selectors: [],
    kubernetes_object: { namespace: 'shop', api_version: 'apps/v1', kind: 'Deployment', name: 'web' },
    min_replicas: 1, max_replicas: 3, scale_out_cooldown_ms: 0, scale_in_cooldown_ms: 0, dry_run: false,
  },
  quota_scheduler: {
    ...common, kind: 'quota_scheduler', component_id: 'root.4', selectors,
    rate_limiter: { interval_ms: 1000, continuous_fill: true, max_idle_time_ms: 1000 }, scheduler: { workloads: [] },
  },
};

function stageOf(c: FlowComponent | undefined): string {
  if (c === undefined) return 'none';
  return typeof c.kind === 'string' ? c.kind : c.kind.name;
}

test('every published kind has one registry entry, under its name, and what it builds carries the entry\'s limiter kind', () => {
  assert.deepEqual(Object.keys(FLOW_KINDS).sort(), [...PUBLISHED_KIND_NAMES].sort());
  checkFlowKinds();
  for (const kind of PUBLISHED_KIND_NAMES) {
    const entry = flowKind(kind);
    assert.equal(entry.kind, kind);
    const live = entry.build(SAMPLES[kind], { tokenBucketStore: localTokenBucketStore, registry: new Registry() });
    const component = live.component;
    if (entry.limiter !== undefined) {
      assert.equal(entry.limiter.name, kind);
      assert.ok(component !== undefined && typeof component.kind !== 'string', `${kind} builds a limiter`);
      assert.equal(component.kind, entry.limiter, `${kind}: the limiter carries the registry's kind`);
    } else {
      assert.ok(['classifier', 'flux_meter', 'none'].includes(stageOf(component)), `${kind} builds ${stageOf(component)}`);
    }
    live.dispose?.();
  }
  // Groups order samplers before rate limiters before schedulers; each kind has its own reject reason and status.
  assert.ok(FLOW_KINDS.sampler.limiter!.group < FLOW_KINDS.rate_limiter.limiter!.group);
  assert.ok(FLOW_KINDS.rate_limiter.limiter!.group < FLOW_KINDS.load_scheduler.limiter!.group);
  assert.deepEqual(
    [FLOW_KINDS.sampler, FLOW_KINDS.rate_limiter, FLOW_KINDS.load_scheduler].map((e) => [e.limiter!.rejectReason, e.limiter!.deniedStatus]),
    [['REJECT_REASON_REGULATED', 403], ['REJECT_REASON_RATE_LIMITED', 429], ['REJECT_REASON_NO_TOKENS', 503]],
  );
});

test('an unknown kind is an error: the lookup throws, and a registry missing a published kind fails the check run at start', () => {
  assert.throws(() => flowKind('concurrency_limiter'), (err: unknown) => err instanceof UnknownFlowKindError && err.kind === 'concurrency_limiter');
  assert.throws(() => flowKind('toString'), UnknownFlowKindError, 'no inherited member passes for a kind');
  const { sampler: _dropped, ...withoutSampler } = FLOW_KINDS;
  assert.throws(() => checkFlowKinds(withoutSampler as Record<string, FlowKindEntry>), /"sampler" has no entry/);
  assert.throws(() => checkFlowKinds(FLOW_KINDS, [...PUBLISHED_KIND_NAMES, 'new_kind']), /"new_kind" has no entry/);
  assert.throws(() => checkFlowKinds({ ...FLOW_KINDS, sampler: { ...FLOW_KINDS.sampler, limiter: FLOW_KINDS.rate_limiter.limiter } }), /sampler: its limiter kind is named "rate_limiter"/);
  assert.throws(() => checkFlowKinds({ ...FLOW_KINDS, extra: { ...FLOW_KINDS.sampler } } as Record<string, FlowKindEntry>), /"extra" is in the agent's registry but has no published contract/);
});

function enforcementOn(etcd: FakeEtcd, registry = new Registry()) {
  const warnings: { message: string; error: string }[] = [];
  const logger = { ...silentLogger, warn(message: string, meta?: Record<string, unknown>) { warnings.push({ message, error: String(meta?.error ?? '') }); } };
  const enforcement = new PolicyEnforcement({ etcd, engine: new Engine({ agentGroup: 'default' }), agentGroup: 'default', registry, logger });
  enforcement.start();
  return { enforcement, warnings, registry };
}

test('the agent refuses a published component or decision its kind\'s schema refuses, naming the JSON path', () => {
  const etcd = new FakeEtcd();
  const { enforcement, warnings } = enforcementOn(etcd);
  const bad = { ...SAMPLES.rate_limiter, parameters: { ...SAMPLES.rate_limiter.parameters, interval_ms: 0 } };
  etcd.put(configKey('sluice', 'default', 'p', 'root.0'), JSON.stringify(bad));
  assert.equal(enforcement.enforced().length, 0);
  assert.match(warnings.at(-1)?.error ?? '', /^parameters\.interval_ms: must be > 0, got 0/);
  etcd.put(configKey('sluice', 'default', 'p', 'root.1'), JSON.stringify({ ...SAMPLES.sampler, selectors: [{ control_point: 'a', service: 5 }] }));
  assert.match(warnings.at(-1)?.error ?? '', /^selectors\[0\]\.service: must be a string, got number/);
  etcd.put(configKey('sluice', 'default', 'p', 'root.9'), JSON.stringify({ ...SAMPLES.sampler, kind: 'concurrency_limiter' }));
  assert.match(warnings.at(-1)?.error ?? '', /^kind: must be one of rate_limiter, sampler, classifier, flux_meter, load_scheduler, pod_scaler, quota_scheduler, got "concurrency_limiter"/);
  etcd.put(configKey('sluice', 'default', 'p', 'root.0'), JSON.stringify(SAMPLES.rate_limiter));
  assert.equal(enforcement.enforced().length, 1);
  etcd.put(decisionKey('sluice', 'default', 'p', 'root.0'), '{"kind":"rate_limiter","bucket_capacity":5,"fill_amount":"1","pass_through":false}');
  assert.match(warnings.at(-1)?.error ?? '', /^fill_amount: must be a number, got string/);
  assert.equal(enforcement.enforced()[0].decision, null, 'the refused decision is not applied');
  enforcement.shutdown();
});

test('the components gauge counts every kind of the registry: a removed pod scaler goes back to 0', async () => {
  const etcd = new FakeEtcd();
  const { enforcement, registry } = enforcementOn(etcd);
  const gauge = async (kind: string) => (await registry.getSingleMetric('policy_enforced_components')!.get()).values.find((v) => v.labels.kind === kind)?.value;
  etcd.put(configKey('sluice', 'default', 'p', 'root.3'), JSON.stringify(SAMPLES.pod_scaler));
  assert.equal(await gauge('pod_scaler'), 1);
  etcd.delete(configKey('sluice', 'default', 'p', 'root.3'));
  assert.equal(await gauge('pod_scaler'), 0);
  for (const kind of PUBLISHED_KIND_NAMES) assert.equal(await gauge(kind), 0, kind);
  enforcement.shutdown();
});
