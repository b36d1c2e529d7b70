import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Engine, type FlowComponent } from '@sluice/flowcontrol';
import { checkLimiterKind } from '@sluice/flowcontrol';
import {
  checkPublishedComponent, checkPublishedDecision, configKey, decisionKey, kindName, PUBLISHED_KIND_NAMES, PUBLISHED_KINDS,
  type PublishedComponent, type PublishedDecision, type PublishedKindName,
} from '@sluice/policies';
import { Registry } from 'prom-client';
import { localTokenBucketStore } from './builders.js';
import { checkFlowKinds, FLOW_KINDS, flowKind, UnknownFlowKindError, type FlowKindEntry } from './flow-kinds.js';
import { PolicyEnforcement } from './policy-enforcement.js';
import { FakeEtcd } from './test-support.js';
import { silentLogger } from '@sluice/telemetry/logger';


/** The example configuration of every published kind, from its contract (a kind without one does not compile). */
const SAMPLES = Object.fromEntries(PUBLISHED_KINDS.map((k) => [kindName(k), { ...k.example.component, policy_name: 'p' }])) as {
  [K in PublishedKindName]: Extract<PublishedComponent, { kind: K }>;
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
    void live.shutdown?.();
  }
  // Groups order samplers before rate limiters before schedulers; each kind has its own reject reason and status.
  assert.ok(FLOW_KINDS.sampler.limiter!.group < FLOW_KINDS.rate_limiter.limiter!.group);
  assert.ok(FLOW_KINDS.rate_limiter.limiter!.group < FLOW_KINDS.load_scheduler.limiter!.group);
  assert.deepEqual(
    [FLOW_KINDS.sampler, FLOW_KINDS.rate_limiter, FLOW_KINDS.load_scheduler].map((e) => [e.limiter!.rejectReason, e.limiter!.deniedStatus]),
    [['REJECT_REASON_REGULATED', 403], ['REJECT_REASON_RATE_LIMITED', 429], ['REJECT_REASON_NO_TOKENS', 503]],
  );
});

test('the registry walked: each published kind has its schema and example, an entry with a builder that takes the example and its decision, and a limiter kind the encoder writes', () => {
  for (const contract of PUBLISHED_KINDS) {
    const kind = kindName(contract) as PublishedKindName;
    const example = contract.example;
    const parsed = checkPublishedComponent(example.component);
    assert.ok(parsed.ok, `${kind}: its example configuration passes its schema (${parsed.ok ? '' : parsed.error})`);
    assert.equal(example.decision === undefined, contract.decision === undefined, `${kind}: an example decision iff the kind takes decisions`);
    const entry = flowKind(kind);
    assert.equal(typeof entry.build, 'function', `${kind}: a builder`);
    const live = entry.build(SAMPLES[kind], { tokenBucketStore: localTokenBucketStore, registry: new Registry() });
    try {
      if (example.decision !== undefined) {
        const decision = checkPublishedDecision(example.decision);
        assert.ok(decision.ok, `${kind}: its example decision passes its schema (${decision.ok ? '' : decision.error})`);
        live.setDecision(decision.value);
        live.setDecision(undefined);
        assert.ok(entry.limiter !== undefined || kind === 'pod_scaler', `${kind}: a kind taking decisions for flows has a limiter kind`);
      }
      const other = PUBLISHED_KINDS.find((c) => c.example.decision !== undefined && kindName(c) !== kind)!.example.decision as PublishedDecision;
      assert.throws(() => live.setDecision(other), /does not fit/, `${kind}: another kind's decision is refused`);
      if (entry.limiter !== undefined) {
        assert.doesNotThrow(() => checkLimiterKind(entry.limiter!), `${kind}: reject reason, status and details the encoder writes`);
        assert.notEqual(entry.limiter.rejectReason, 'REJECT_REASON_NONE');
      }
    } finally {
      void live.shutdown?.();
    }
  }
});

test('a registry entry missing a piece fails the check run at start, naming the kind and the piece', () => {
  const rate = FLOW_KINDS.rate_limiter;
  const broken = (over: Partial<FlowKindEntry>) => ({ ...FLOW_KINDS, rate_limiter: { ...rate, ...over } }) as Record<string, FlowKindEntry>;
  assert.throws(() => checkFlowKinds(broken({ build: undefined as unknown as FlowKindEntry['build'] })), /rate_limiter: its entry has no builder/);
  assert.throws(() => checkFlowKinds(broken({ limiter: { ...rate.limiter!, rejectReason: 'REJECT_REASON_NONE' } })), /"rate_limiter": rejectReason must be a RejectReason/);
  assert.throws(() => checkFlowKinds(broken({ limiter: { ...rate.limiter!, details: { ...rate.limiter!.details, message: 'SamplerInfo' } } })), /details\.message "SamplerInfo" is not the type of rate_limiter_info/);
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
  assert.ok((warnings.at(-1)?.error ?? '').startsWith(`kind: must be one of ${PUBLISHED_KIND_NAMES.join(', ')}, got "concurrency_limiter"`), warnings.at(-1)?.error);
  assert.ok(PUBLISHED_KIND_NAMES.includes('quota_scheduler') && PUBLISHED_KIND_NAMES.includes('classifier'));
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
