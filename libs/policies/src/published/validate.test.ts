import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkPublishedComponent, checkPublishedDecision, contractProblems, parsePublishedComponent, parsePublishedDecision } from './validate.js';
import { PUBLISHED_DECISION_KINDS, PUBLISHED_KIND_NAMES } from './kinds.js';
import { PublishedSchedulerParameters } from './load-scheduler.js';

const limiter = {
  kind: 'rate_limiter', policy_name: 'p', policy_hash: 'h', component_id: 'root.0', agent_group: 'default',
  selectors: [{ control_point: 'ingress', label_matcher: { match_labels: { user: 'a' } } }],
  parameters: { label_key: 'user', interval_ms: 1000, continuous_fill: true, max_idle_time_ms: 0, lazy_sync: { enabled: false, num_sync: 4 } },
  policy_components: 2,
};

function errorOf(r: { ok: boolean; error?: string }): string {
  assert.equal(r.ok, false);
  return r.error ?? '';
}

test('the kinds: every published kind by name, and those that take decisions', () => {
  assert.deepEqual([...PUBLISHED_KIND_NAMES], ['rate_limiter', 'sampler', 'load_scheduler', 'pod_scaler', 'quota_scheduler', 'classifier', 'flux_meter']);
  assert.deepEqual([...PUBLISHED_DECISION_KINDS], ['rate_limiter', 'sampler', 'load_scheduler', 'pod_scaler', 'quota_scheduler']);
});

test('a good component passes as it is; a member the agent does not know is ignored (a newer controller\'s)', () => {
  assert.deepEqual(checkPublishedComponent(limiter), { ok: true, value: limiter });
  assert.equal(checkPublishedComponent({ ...limiter, added_later: 1 }).ok, true);
  assert.equal(parsePublishedComponent(JSON.stringify(limiter)).ok, true);
});

test('a bad component is refused with the JSON path of each problem', () => {
  const cases: [unknown, RegExp][] = [
    [[], /^must be a JSON object, got list/],
    [{ ...limiter, kind: 'nope' }, /^kind: must be one of rate_limiter, sampler, load_scheduler, pod_scaler, quota_scheduler, classifier, flux_meter, got "nope"/],
    [{ ...limiter, kind: undefined }, /^kind: must be one of/],
    [{ ...limiter, policy_hash: 3 }, /^policy_hash: must be a string, got number/],
    [{ ...limiter, selectors: [] }, /^selectors: must NOT have fewer than 1 items/],
    [{ ...limiter, selectors: [{}] }, /^selectors\[0\]\.control_point: is required/],
    [{ ...limiter, selectors: [{ control_point: 'a', label_matcher: 'x' }] }, /^selectors\[0\]\.label_matcher: must be an object, got string/],
    [{ ...limiter, parameters: { ...limiter.parameters, interval_ms: 0 } }, /^parameters\.interval_ms: must be > 0, got 0/],
    [{ ...limiter, parameters: { ...limiter.parameters, continuous_fill: 'yes' } }, /^parameters\.continuous_fill: must be a boolean, got string/],
    [{ ...limiter, parameters: { ...limiter.parameters, lazy_sync: { enabled: true, num_sync: 0 } } }, /^parameters\.lazy_sync\.num_sync: must be >= 1, got 0/],
    [{ ...limiter, policy_components: 0.5 }, /^policy_components: must be an integer, got number/],
  ];
  for (const [value, error] of cases) assert.match(errorOf(checkPublishedComponent(value)), error, JSON.stringify(value));
  // Every problem at once, each with its path.
  const many = checkPublishedComponent({ ...limiter, component_id: 1, parameters: { interval_ms: -1 } });
  assert.equal(many.ok, false);
  if (!many.ok) {
    assert.deepEqual(many.problems.map((p) => p.path).sort(), ['component_id', 'parameters.continuous_fill', 'parameters.interval_ms', 'parameters.max_idle_time_ms']);
  }
  assert.match(errorOf(parsePublishedComponent('{')), /^not JSON/);
});

test('checks a schema cannot say run after it: a pod scaler\'s max_replicas below its min_replicas', () => {
  const scaler = {
    kind: 'pod_scaler', policy_name: 'p', policy_hash: 'h', component_id: 'root.1', agent_group: 'default', selectors: [],
    kubernetes_object: { namespace: 'shop', api_version: 'apps/v1', kind: 'Deployment', name: 'web' },
    min_replicas: 4, max_replicas: 3, scale_out_cooldown_ms: 0, scale_in_cooldown_ms: 0, dry_run: false,
  };
  assert.match(errorOf(checkPublishedComponent(scaler)), /^max_replicas: must be >= min_replicas \(4\), got 3/);
  assert.equal(checkPublishedComponent({ ...scaler, max_replicas: 4 }).ok, true);
  assert.match(errorOf(checkPublishedComponent({ ...scaler, kubernetes_object: { ...scaler.kubernetes_object, kind: 'Pod' } })), /^kubernetes_object\.kind: must be equal to one of the allowed values/);
  assert.match(errorOf(checkPublishedComponent({ ...scaler, selectors: [{ control_point: 'a' }] })), /^selectors: must NOT have more than 0 items/);
});

test('decisions: each kind\'s numbers within their bounds; a kind without decisions is refused', () => {
  assert.equal(checkPublishedDecision({ kind: 'rate_limiter', bucket_capacity: 0, fill_amount: 1, pass_through: false }).ok, true);
  assert.equal(checkPublishedDecision({ kind: 'sampler', accept_percentage: 100, pass_through: true }).ok, true);
  assert.equal(checkPublishedDecision({ kind: 'load_scheduler', load_multiplier: 0.5, pass_through: false }).ok, true);
  assert.equal(checkPublishedDecision({ kind: 'pod_scaler', replicas: 3 }).ok, true);
  assert.match(errorOf(checkPublishedDecision({ kind: 'sampler', accept_percentage: 101, pass_through: false })), /^accept_percentage: must be <= 100, got 101/);
  assert.match(errorOf(checkPublishedDecision({ kind: 'load_scheduler', load_multiplier: 1 })), /^pass_through: is required/);
  assert.match(errorOf(checkPublishedDecision({ kind: 'pod_scaler', replicas: 1.5 })), /^replicas: must be an integer/);
  assert.match(errorOf(checkPublishedDecision({ kind: 'classifier' })), /^kind: must be one of rate_limiter, sampler, load_scheduler, pod_scaler, quota_scheduler/);
  assert.match(errorOf(parsePublishedDecision('[1]')), /^must be a JSON object/);
});

test('contractProblems roots paths where the caller says (a scheduler\'s parameters under `parameters`)', () => {
  assert.deepEqual(contractProblems(PublishedSchedulerParameters, { workloads: [{ parameters: { priority: 0 } }] }, 'parameters'), [
    { path: 'parameters.workloads[0].parameters.priority', message: 'must be > 0, got 0' },
  ]);
  assert.deepEqual(contractProblems(PublishedSchedulerParameters, null, 'parameters'), [{ path: 'parameters', message: 'must be an object, got null' }]);
});
