import assert from 'node:assert/strict';
import { TEST_KINDS } from '../testing/test-support.js';
import { test } from 'node:test';
import { Registry } from 'prom-client';
import type { Classifier, Limiter, LimiterKind, LimiterResult } from '../check/component.js';
import { MeteredEngine } from './metered-engine.js';

/** The value of the sample of `name` whose labels are exactly `labels` (undefined when there is none). */
async function value(registry: Registry, name: string, labels: Record<string, string>): Promise<number | undefined> {
  const m = await registry.getSingleMetric(name)?.get();
  return m?.values.find((v) => Object.keys(v.labels).length === Object.keys(labels).length && Object.entries(labels).every(([k, x]) => String(v.labels[k]) === x))?.value;
}

function limiter(kind: LimiterKind, id: string, answer: (labels: Record<string, string>) => LimiterResult | Promise<LimiterResult>): Limiter {
  return { kind, identity: { policy_name: 'p', policy_hash: 'h1', component_id: id }, decide: (labels) => answer(labels) };
}

const ok: LimiterResult = { accepted: true, waitMs: 0 };
const no: LimiterResult = { accepted: false, waitMs: 5 };

test('checks are counted per control point, decision and reject reason, under Aperture\'s names and labels', async () => {
  const registry = new Registry();
  const engine = new MeteredEngine({ agentGroup: 'edge', registry });
  engine.register(limiter(TEST_KINDS.rate_limiter, 'root.0', (l) => (l.user === 'bob' ? no : ok)), { control_point: 'ingress', agent_group: 'edge' });
  const check = (user: string) => engine.check({ controlPoint: 'ingress', labels: { user }, services: [] });
  check('amy');
  check('amy');
  const d = check('bob');
  assert.ok(!(d instanceof Promise) && !d.accepted);
  engine.check({ controlPoint: 'other', labels: {}, services: [] });
  assert.equal(await value(registry, 'flowcontrol_requests_total', { control_point: 'ingress', agent_group: 'edge' }), 3);
  assert.equal(await value(registry, 'flowcontrol_requests_total', { control_point: 'other', agent_group: 'edge' }), 1);
  assert.equal(await value(registry, 'flowcontrol_decisions_total', { control_point: 'ingress', decision_type: 'DECISION_TYPE_ACCEPTED', agent_group: 'edge' }), 2);
  assert.equal(await value(registry, 'flowcontrol_decisions_total', { control_point: 'ingress', decision_type: 'DECISION_TYPE_REJECTED', agent_group: 'edge' }), 1);
  assert.equal(await value(registry, 'flowcontrol_reject_reasons_total', { control_point: 'ingress', reject_reason: 'REJECT_REASON_RATE_LIMITED', agent_group: 'edge' }), 1);
  assert.equal(await value(registry, 'flowcontrol_reject_reasons_total', { control_point: 'other', reject_reason: 'REJECT_REASON_RATE_LIMITED', agent_group: 'edge' }), undefined, 'accepted checks have no reason');
  const rl = { policy_name: 'p', policy_hash: 'h1', component_id: 'root.0' };
  assert.equal(await value(registry, 'rate_limiter_counter_total', { ...rl, decision_type: 'DECISION_TYPE_ACCEPTED', limiter_dropped: 'false' }), 2);
  assert.equal(await value(registry, 'rate_limiter_counter_total', { ...rl, decision_type: 'DECISION_TYPE_REJECTED', limiter_dropped: 'true' }), 1);
  assert.equal(await value(registry, 'rate_limiter_counter_total', { ...rl, decision_type: 'DECISION_TYPE_ACCEPTED', limiter_dropped: 'true' }), undefined, 'no series for what never happened');
});

test('samplers, scheduler workloads (also when they answer later) and classifiers are counted; a limiter that accepted a rejected flow is not dropped', async () => {
  const registry = new Registry();
  const engine = new MeteredEngine({ registry });
  const cp = { control_point: 'api' };
  engine.register(limiter(TEST_KINDS.sampler, 'root.1', () => ok), cp);
  engine.register(limiter(TEST_KINDS.scheduler, 'root.2', (l) => Promise.resolve(l.tier === 'low' ? { ...no, workloadIndex: '1' } : { ...ok, workloadIndex: '0' })), cp);
  const classifier: Classifier = { kind: 'classifier', identity: { policy_name: 'p', policy_hash: 'h1', classifier_index: 0 }, classify: () => ({ tier: 'low' }) };
  engine.register(classifier, { control_point: 'classified' });
  await engine.check({ controlPoint: 'api', labels: { tier: 'high' }, services: [] });
  const rejected = await engine.check({ controlPoint: 'api', labels: { tier: 'low' }, services: [] });
  assert.equal(rejected.accepted, false);
  engine.check({ controlPoint: 'classified', labels: {}, services: [] });
  const id = (component_id: string) => ({ policy_name: 'p', policy_hash: 'h1', component_id });
  assert.equal(await value(registry, 'sampler_counter_total', { ...id('root.1'), decision_type: 'DECISION_TYPE_ACCEPTED', sampler_dropped: 'false' }), 1);
  assert.equal(await value(registry, 'sampler_counter_total', { ...id('root.1'), decision_type: 'DECISION_TYPE_REJECTED', sampler_dropped: 'false' }), 1, 'the sampler let it through; the scheduler dropped it');
  assert.equal(await value(registry, 'workload_requests_total', { ...id('root.2'), decision_type: 'DECISION_TYPE_ACCEPTED', workload_index: '0', limiter_dropped: 'false' }), 1);
  assert.equal(await value(registry, 'workload_requests_total', { ...id('root.2'), decision_type: 'DECISION_TYPE_REJECTED', workload_index: '1', limiter_dropped: 'true' }), 1);
  assert.equal(await value(registry, 'flowcontrol_reject_reasons_total', { control_point: 'api', reject_reason: 'REJECT_REASON_NO_TOKENS', agent_group: 'default' }), 1);
  assert.equal(await value(registry, 'classifier_counter_total', { policy_name: 'p', policy_hash: 'h1', classifier_index: '0' }), 1);
});

test('two engines of one registry share its counters', async () => {
  const registry = new Registry();
  new MeteredEngine({ registry }).check({ controlPoint: 'a', labels: {}, services: [] });
  new MeteredEngine({ registry }).check({ controlPoint: 'a', labels: {}, services: [] });
  assert.equal(await value(registry, 'flowcontrol_requests_total', { control_point: 'a', agent_group: 'default' }), 2);
});

test('a limiter\'s and a classifier\'s series go when their last registration does (a policy removed or replaced)', async () => {
  const registry = new Registry();
  const engine = new MeteredEngine({ registry });
  const rl = limiter(TEST_KINDS.rate_limiter, 'root.0', () => no);
  const offA = engine.register(rl, { control_point: 'a' });
  const offB = engine.register(rl, { control_point: 'b' });
  const sched = limiter(TEST_KINDS.scheduler, 'root.1', () => ({ ...ok, workloadIndex: '0' }));
  const offS = engine.register(sched, { control_point: 'c' });
  const classifier: Classifier = { kind: 'classifier', identity: { policy_name: 'p', policy_hash: 'h1', classifier_index: 2 }, classify: () => undefined };
  const offC = engine.register(classifier, { control_point: 'c' });
  engine.check({ controlPoint: 'a', labels: {}, services: [] });
  engine.check({ controlPoint: 'c', labels: {}, services: [] });
  const rlSeries = { policy_name: 'p', policy_hash: 'h1', component_id: 'root.0', decision_type: 'DECISION_TYPE_REJECTED', limiter_dropped: 'true' };
  const wlSeries = { policy_name: 'p', policy_hash: 'h1', component_id: 'root.1', decision_type: 'DECISION_TYPE_ACCEPTED', workload_index: '0', limiter_dropped: 'false' };
  const clSeries = { policy_name: 'p', policy_hash: 'h1', classifier_index: '2' };
  assert.equal(await value(registry, 'rate_limiter_counter_total', rlSeries), 1);
  offA();
  offA();
  assert.equal(await value(registry, 'rate_limiter_counter_total', rlSeries), 1, 'still registered for control point b');
  offB();
  assert.equal(await value(registry, 'rate_limiter_counter_total', rlSeries), undefined);
  assert.equal(await value(registry, 'workload_requests_total', wlSeries), 1);
  assert.equal(await value(registry, 'classifier_counter_total', clSeries), 1);
  offS();
  offC();
  assert.equal(await value(registry, 'workload_requests_total', wlSeries), undefined);
  assert.equal(await value(registry, 'classifier_counter_total', clSeries), undefined);
  assert.equal(await value(registry, 'flowcontrol_requests_total', { control_point: 'a', agent_group: 'default' }), 1, 'per control point series stay');
  engine.register(rl, { control_point: 'a' });
  engine.check({ controlPoint: 'a', labels: {}, services: [] });
  assert.equal(await value(registry, 'rate_limiter_counter_total', rlSeries), 1, 'registered again: counted afresh');
});
