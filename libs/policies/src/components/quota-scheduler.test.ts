import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compilePolicy } from '../compile.js';
import { PolicyCompileError } from '../problems.js';
import { checkPublishedComponent, checkPublishedDecision } from '../published/validate.js';

const spec = (over: Record<string, unknown> = {}) => ({
  circuit: {
    evaluation_interval: '1s',
    components: [{ flow_control: { quota_scheduler: {
      in_ports: { bucket_capacity: { constant_signal: { value: 10 } }, fill_amount: { constant_signal: { value: 10 } } },
      selectors: [{ control_point: 'api', agent_group: 'edge' }],
      rate_limiter: { limit_by_label_key: 'tenant', interval: '2s', continuous_fill: false },
      scheduler: {
        workloads: [{ name: 'paid', label_matcher: { match_labels: { plan: 'paid' } }, parameters: { priority: 200, queue_timeout: '0.5s', fairness_key: 'user' } }],
        priority_label_key: 'prio',
      },
      ...over,
    } } }],
  },
});

test('flow_control.quota_scheduler compiles to a published quota scheduler (its kind\'s schema accepts it) and decides from its ports', () => {
  const compiled = compilePolicy('quota', spec());
  assert.equal(compiled.components.length, 1);
  const c = compiled.components[0];
  assert.ok(checkPublishedComponent(c).ok);
  assert.ok(c.kind === 'quota_scheduler');
  assert.equal(c.agent_group, 'edge');
  assert.deepEqual(c.rate_limiter, { label_key: 'tenant', tokens_label_key: 'tokens', interval_ms: 2000, continuous_fill: false, max_idle_time_ms: 7_200_000, lazy_sync: { enabled: false, num_sync: 4 } });
  assert.deepEqual(c.scheduler.workloads?.[0], { name: 'paid', label_matcher: { match_labels: { plan: 'paid' } }, parameters: { priority: 200, queue_timeout_ms: 500, fairness_key: 'user' } });
  assert.equal(c.scheduler.priority_label_key, 'prio');
  const d = compiled.createCircuit().tick(0, { promql: new Map(), variables: new Map() }).decisions.get('root.0');
  assert.deepEqual(d, { kind: 'quota_scheduler', bucket_capacity: 10, fill_amount: 10, pass_through: false });
  assert.ok(checkPublishedDecision(d).ok);
});

test('a quota scheduler without an interval, or with a bad workload filter, is refused naming the path', () => {
  const problems = (s: unknown): string[] => {
    try {
      compilePolicy('quota', s);
    } catch (err) {
      assert.ok(err instanceof PolicyCompileError);
      return err.problems.map((p) => p.path);
    }
    assert.fail('expected a compile error');
  };
  assert.ok(problems(spec({ rate_limiter: {} })).includes('spec.circuit.components[0].flow_control.quota_scheduler.rate_limiter.interval'));
  const bad = spec({ scheduler: { workloads: [{ label_matcher: { match_expressions: [{ key: 'a', operator: 'Nope' }] } }] } });
  assert.ok(problems(bad).some((p) => p.startsWith('spec.circuit.components[0].flow_control.quota_scheduler.scheduler.workloads[0].label_matcher')));
});
