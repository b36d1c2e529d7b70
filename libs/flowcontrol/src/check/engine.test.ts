import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Engine } from './engine.js';
import { RateLimiter } from '../limiters/rate-limiter.js';
import { toCheckResponse } from '../wire/check-response.js';
import { millisOf } from '../wire/proto-time.js';
import type { CheckDecision } from './decision.js';
import type { Classifier, DecideContext, Limiter, LimiterKind, LimiterResult } from './component.js';
import { LocalTokenBucketStore } from '@sluice/tokenbucket';
import { TEST_KINDS } from '../testing/test-support.js';
import type { FlowLabels } from '@sluice/selectors';

/** A limiter answering a fixed decision, counting calls (a test fixture of the Limiter interface). */
class FixedLimiter implements Limiter {
  calls = 0;
  reverted = 0;
  readonly kind: LimiterKind;
  constructor(kind: keyof typeof TEST_KINDS, readonly accept: boolean, readonly waitMs = 0, readonly id: string = kind, readonly async = false) {
    this.kind = TEST_KINDS[kind];
  }
  get identity() { return { policy_name: 'p', policy_hash: 'h', component_id: this.id }; }
  decide(_labels: FlowLabels, _ctx: DecideContext): LimiterResult | Promise<LimiterResult> {
    this.calls++;
    const r = { accepted: this.accept, waitMs: this.waitMs, tokens: this.accept ? 1 : 0, label: 'default' };
    return this.async ? new Promise((res) => setTimeout(() => res(r), 5)) : r;
  }
  revert(): void { this.reverted++; }
}

function bucket(capacity: number, labelKey?: string): { rl: RateLimiter; store: LocalTokenBucketStore } {
  const store = new LocalTokenBucketStore({ capacity, fillAmount: 1, intervalMs: 1000, continuousFill: true });
  const rl = new RateLimiter({ identity: { policy_name: 'p', policy_hash: 'h', component_id: `rl-${capacity}` }, store, ...(labelKey ? { labelKey } : {}) });
  return { rl, store };
}

const flow = (labels: Record<string, string> = {}, services: string[] = []) => ({ controlPoint: 'cp', labels, services });

test('no components: accepted, with the flow label keys and services', async () => {
  const e = new Engine();
  const d = await e.check(flow({ a: '1', b: '2' }, ['s1']));
  assert.equal(d.accepted, true);
  const r = toCheckResponse(d);
  assert.equal(r.decision_type, 'DECISION_TYPE_ACCEPTED');
  assert.deepEqual(r.flow_label_keys, ['a', 'b']);
  assert.deepEqual(r.services, ['s1']);
  assert.equal(r.control_point, 'cp');
  assert.ok(millisOf(r.end) >= millisOf(r.start) && millisOf(r.start) > 0);
});

test('groups run in order samplers, rate limiters, schedulers; the first rejecting group decides', async () => {
  const e = new Engine();
  const sampler = new FixedLimiter('sampler', true);
  const rl = new FixedLimiter('rate_limiter', false, 1500);
  const rl2 = new FixedLimiter('rate_limiter', true, 0, 'rl2');
  const sched = new FixedLimiter('scheduler', false);
  e.register(sched, { control_point: 'cp' });
  e.register(rl, { control_point: 'cp' });
  e.register(rl2, { control_point: 'cp' });
  e.register(sampler, { control_point: 'cp' });
  const d = await e.check(flow());
  assert.equal(d.accepted, false);
  assert.equal(d.rejectReason, 'REJECT_REASON_RATE_LIMITED');
  assert.equal(d.deniedStatus, 429);
  assert.equal(sampler.calls, 1);
  assert.equal(rl.calls + rl2.calls, 2, 'all limiters of the group ran');
  assert.equal(sched.calls, 0, 'schedulers after the rejecting group do not run');
  assert.equal(sampler.reverted, 1, 'tokens of accepting limiters go back');
  assert.equal(rl2.reverted, 1);
  assert.equal(rl.reverted, 0);
  assert.equal(d.waitMs, 1500);
  const r = toCheckResponse(d);
  assert.equal(r.denied_response_status_code, 'TooManyRequests');
  assert.deepEqual(r.wait_time, { seconds: 1, nanos: 500_000_000 });
  assert.deepEqual(r.limiter_decisions.map((l) => [l.component_id, l.dropped]), [['sampler', false], ['rate_limiter', true], ['rl2', false]]);
  assert.equal(r.limiter_decisions[1].rate_limiter_info?.label, 'default');
  assert.equal(r.limiter_decisions[0].sampler_info?.label, 'default');
});

test('sampler rejection is REGULATED/403, scheduler NO_TOKENS/503', async () => {
  const e1 = new Engine();
  e1.register(new FixedLimiter('sampler', false), { control_point: 'cp' });
  const d1 = await e1.check(flow());
  assert.deepEqual([d1.rejectReason, d1.deniedStatus], ['REJECT_REASON_REGULATED', 403]);
  const e2 = new Engine();
  e2.register(new FixedLimiter('scheduler', false, 250), { control_point: 'cp' });
  const d2 = await e2.check(flow());
  assert.deepEqual([d2.rejectReason, d2.deniedStatus, d2.waitMs], ['REJECT_REASON_NO_TOKENS', 503, 250]);
  assert.equal(toCheckResponse(d2).limiter_decisions[0].load_scheduler_info?.workload_index, '');
});

test('token return: a real bucket gets its token back when a scheduler rejects', async () => {
  const e = new Engine();
  const { rl, store } = bucket(5);
  e.register(rl, { control_point: 'cp' });
  e.register(new FixedLimiter('scheduler', false), { control_point: 'cp' });
  for (let i = 0; i < 20; i++) assert.equal((await e.check(flow())).accepted, false);
  assert.ok((store.peek('default') ?? 0) > 4.99, 'no token lost to rejected flows');
});

test('components per service plus any; other services and control points untouched', async () => {
  const e = new Engine();
  const a = new FixedLimiter('rate_limiter', false, 0, 'a');
  const any = new FixedLimiter('rate_limiter', true, 0, 'any');
  const other = new FixedLimiter('rate_limiter', false, 0, 'other');
  e.register(a, { control_point: 'cp', service: 'svc-a' });
  e.register(any, { control_point: 'cp' });
  e.register(other, { control_point: 'other-cp' });
  assert.equal((await e.check(flow({}, ['svc-b']))).accepted, true);
  assert.equal((await e.check(flow({}, []))).accepted, true);
  assert.equal((await e.check(flow({}, ['svc-b', 'svc-a']))).accepted, false, 'every service of the flow is tried');
  assert.equal((await e.check(flow({}, ['svc-a']))).accepted, false);
  assert.equal(other.calls, 0);
  assert.equal(any.calls, 4);
});

test('label matchers select flows; a limiter registered twice runs once', async () => {
  const e = new Engine();
  const l = new FixedLimiter('rate_limiter', true);
  e.register(l, { control_point: 'cp', service: 's', label_matcher: { match_labels: { tier: 'gold' } } });
  e.register(l, { control_point: 'cp', label_matcher: { match_labels: { tier: 'gold' } } });
  await e.check(flow({ tier: 'silver' }, ['s']));
  assert.equal(l.calls, 0);
  await e.check(flow({ tier: 'gold' }, ['s']));
  assert.equal(l.calls, 1);
  assert.throws(() => e.register(l, { control_point: 'cp', label_matcher: { match_expressions: [{ key: 'a', operator: 'Near' }] } }), /operator/);
});

test('unregister and other agent groups', async () => {
  const e = new Engine({ agentGroup: 'g1' });
  const l = new FixedLimiter('rate_limiter', false);
  e.register(l, { control_point: 'cp', agent_group: 'g2' });
  assert.equal((await e.check(flow())).accepted, true, 'other group ignored');
  const off = e.register(l, { control_point: 'cp', agent_group: 'g1' });
  assert.equal((await e.check(flow())).accepted, false);
  off();
  off();
  assert.equal((await e.check(flow())).accepted, true);
});

test('classifiers add sanitised labels that limiters see; the request labels stay untouched', async () => {
  const e = new Engine();
  const classifier: Classifier = {
    kind: 'classifier',
    identity: { policy_name: 'p', policy_hash: 'h', classifier_index: 0 },
    classify: (labels) => ({ user: `${labels['http.request.header.x_user'] ?? 'none'} a/b;c` }),
  };
  const broken: Classifier = { kind: 'classifier', identity: { policy_name: 'p', policy_hash: 'h', classifier_index: 1 }, classify: () => { throw new Error('boom'); } };
  e.register(classifier, { control_point: 'cp' });
  e.register(broken, { control_point: 'cp' });
  const { rl } = bucket(1, 'user');
  e.register(rl, { control_point: 'cp' });
  const labels = { 'http.request.header.x_user': 'u1' };
  const d1 = await e.check(flow(labels));
  assert.equal(d1.labels.user, 'u1-a-b-c');
  assert.deepEqual(d1.addedLabels, { user: 'u1-a-b-c' });
  assert.equal('user' in labels, false);
  assert.equal((await e.check(flow(labels))).accepted, false, 'bucket per classified label value');
  assert.equal((await e.check(flow({ 'http.request.header.x_user': 'u2' }))).accepted, true);
  const r = toCheckResponse(d1);
  assert.deepEqual(r.classifier_infos.map((c) => c.error), ['ERROR_NONE', 'ERROR_EVAL_FAILED']);
  assert.ok(r.flow_label_keys.includes('user'));
});

test('flux meters are named in the response', async () => {
  const e = new Engine();
  e.register({ kind: 'flux_meter', name: 'fm' }, { control_point: 'cp' });
  assert.deepEqual(toCheckResponse(await e.check(flow())).flux_meter_infos, [{ flux_meter_name: 'fm' }]);
});

test('a flow without the limiter label is accepted with KEY_NOT_FOUND; the tokens label sets the cost', async () => {
  const e = new Engine();
  const { rl, store } = bucket(10, 'user');
  e.register(rl, { control_point: 'cp' });
  const d = await e.check(flow({}));
  assert.equal(d.accepted, true);
  assert.equal(toCheckResponse(d).limiter_decisions[0].reason, 'LIMITER_REASON_KEY_NOT_FOUND');
  assert.equal((await e.check(flow({ user: 'a', tokens: '7' }))).accepted, true);
  assert.equal(Math.round(store.peek('a') ?? -1), 3);
  const rej = await e.check(flow({ user: 'a', tokens: '4' }));
  assert.equal(rej.accepted, false);
  assert.ok(rej.waitMs > 900 && rej.waitMs <= 1000, `wait ${rej.waitMs}`);
  await e.check(flow({ user: 'b', tokens: 'lots' }));
  assert.equal(Math.round(store.peek('b') ?? -1), 9, 'an invalid tokens label costs 1');
});

test('asynchronous limiters are awaited; a slow one fails open within the deadline', async () => {
  const e = new Engine({ asyncDecisionTimeoutMs: 50 });
  e.register(new FixedLimiter('rate_limiter', false, 0, 'async', true), { control_point: 'cp' });
  const p = e.check(flow());
  assert.ok(p instanceof Promise);
  assert.equal((await p).accepted, false);
  const slow: Limiter = { kind: TEST_KINDS.scheduler, identity: { policy_name: 'p', policy_hash: 'h', component_id: 'slow' }, decide: () => new Promise(() => undefined) };
  e.register(slow, { control_point: 'cp2' });
  const t0 = Date.now();
  const d: CheckDecision = await e.check({ controlPoint: 'cp2', labels: {}, services: [], deadlineMs: Date.now() + 30 });
  assert.equal(d.accepted, true);
  assert.equal(d.limiters[0].result.failedOpen, true);
  assert.ok(Date.now() - t0 < 40, 'inside the caller deadline');
});

test('observers see watched control points only, with labels before and after classification', async () => {
  const e = new Engine();
  e.register({ kind: 'classifier', identity: { policy_name: 'p', policy_hash: '', classifier_index: 0 }, classify: () => ({ added: 'x' }) }, { control_point: 'cp' });
  const seen: [Record<string, string>, Record<string, string>][] = [];
  const sink = { observe: (_req: unknown, pre: Readonly<Record<string, string>>, post: Readonly<Record<string, string>>) => { seen.push([{ ...pre }, { ...post }]); } };
  const stop = e.addObserver({ sinkFor: (cp) => (cp === 'cp' ? sink : undefined) });
  await e.check(flow({ a: '1' }));
  await e.check({ controlPoint: 'other', labels: { a: '1' }, services: [] });
  stop();
  await e.check(flow({ a: '2' }));
  assert.deepEqual(seen, [[{ a: '1' }, { a: '1', added: 'x' }]]);
});

test('an observer that throws neither fails the check nor keeps the flow from the others', async () => {
  const e = new Engine();
  e.register(bucket(0).rl, { control_point: 'cp' });
  const seen: string[] = [];
  e.addObserver({ sinkFor: () => ({ observe: () => { throw new Error('broken sink'); } }) });
  e.addObserver({ sinkFor: () => { throw new Error('broken observer'); } });
  e.addObserver({ sinkFor: () => ({ observe: (req) => { seen.push(req.controlPoint); } }) });
  const d = await e.check(flow({ a: '1' }));
  assert.equal(d.accepted, false, 'the limiter still decides');
  assert.equal(d.deniedStatus, 429);
  assert.deepEqual(seen, ['cp']);
});

test('control points seen are recorded per service and type', async () => {
  const e = new Engine();
  await e.check(flow({}, ['s1', 's2']));
  await e.check({ controlPoint: 'ingress', labels: {}, services: [], type: 'http' });
  await e.check(flow({}, ['s1']));
  assert.deepEqual(e.controlPoints.list().map((c) => [c.controlPoint, c.service, c.type, c.flows]).sort(), [
    ['cp', 's1', 'feature', 2], ['cp', 's2', 'feature', 1], ['ingress', 'any', 'http', 1],
  ]);
});
