import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Engine, type CheckDecision } from '@sluice/flowcontrol';
import { configKey, decisionKey, type PublishedLoadScheduler } from '@sluice/policies';
import { Registry } from 'prom-client';
import { PolicyEnforcement } from './policy-enforcement.js';
import { FakeEtcd } from './test-support.js';
import { silentLogger } from '@sluice/telemetry/logger';

function scheduler(parameters: Record<string, unknown>): PublishedLoadScheduler {
  return {
    kind: 'load_scheduler',
    policy_name: 'adaptive',
    policy_hash: 'h1',
    component_id: 'root.3',
    agent_group: 'default',
    selectors: [{ control_point: 'ingress' }],
    parameters,
  };
}

const PARAMS = {
  workloads: [
    { name: 'gold', label_matcher: { match_labels: { tier: 'gold' } }, parameters: { priority: 200, queue_timeout_ms: 0 } },
  ],
  default_workload_parameters: { priority: 50, queue_timeout_ms: 0 },
  tokens_label_key: 'tokens',
  decision_deadline_margin_ms: 10,
  workload_latency_based_tokens: false,
  dry_run: false,
};

function setup() {
  const etcd = new FakeEtcd();
  const engine = new Engine();
  const registry = new Registry();
  const warnings: string[] = [];
  const logger = { ...silentLogger, warn(m: string) { warnings.push(m); }, error(m: string) { warnings.push(m); } };
  const enforcement = new PolicyEnforcement({ etcd, engine, agentGroup: 'default', registry, logger });
  return { etcd, engine, registry, enforcement, warnings };
}

const CFG = configKey('sluice', 'default', 'adaptive', 'root.3');
const DEC = decisionKey('sluice', 'default', 'adaptive', 'root.3');

function check(engine: Engine, labels: Record<string, string>): CheckDecision {
  const d = engine.check({ controlPoint: 'ingress', labels, services: [] });
  assert.ok(!(d instanceof Promise), 'flows that do not wait are decided synchronously');
  return d;
}

test('a published load scheduler is enforced: pass-through until its decision, then 503 NO_TOKENS naming workload and priority', async (t) => {
  const { etcd, engine, registry, enforcement } = setup();
  enforcement.start();
  t.after(() => enforcement.shutdown());
  etcd.put(CFG, JSON.stringify(scheduler(PARAMS)));
  for (let i = 0; i < 50; i++) assert.equal(check(engine, { tier: 'free' }).accepted, true, 'pass-through before a decision');
  assert.deepEqual(enforcement.enforced().map((c) => [c.kind, c.decision]), [['load_scheduler', null]]);
  etcd.put(DEC, JSON.stringify({ kind: 'load_scheduler', load_multiplier: 0, pass_through: false }));
  check(engine, { tier: 'gold' }); // spends the pacer's balance
  const denied = check(engine, { tier: 'gold' });
  assert.equal(denied.accepted, false);
  assert.equal(denied.deniedStatus, 503);
  assert.equal(denied.rejectReason, 'REJECT_REASON_NO_TOKENS');
  assert.ok(denied.waitMs > 0);
  const rec = denied.limiters[0];
  assert.equal(rec.kind.name, 'load_scheduler');
  assert.equal(rec.result.workloadIndex, '0');
  assert.equal(rec.result.priority, 200);
  assert.equal(check(engine, { tier: 'free' }).limiters[0].result.workloadIndex, 'default');
  etcd.put(DEC, JSON.stringify({ kind: 'load_scheduler', load_multiplier: 2, pass_through: true }));
  assert.equal(check(engine, { tier: 'free' }).accepted, true, 'pass-through decision applied in place');
  assert.match(await registry.metrics(), /sluice_scheduler_rejected_flows_total\{policy_name="adaptive",component_id="root.3",workload_index="0",reason="no_budget"\} 1/);
  etcd.delete(CFG);
  assert.equal(check(engine, { tier: 'free' }).limiters.length, 0, 'removed key unregisters');
  assert.doesNotMatch(await registry.metrics(), /sluice_scheduler_queue_length\{policy_name="adaptive"/, 'a removed scheduler stops reporting');
});

test('a load scheduler with bad parameters is refused and disturbs nothing', (t) => {
  const { etcd, engine, enforcement, warnings } = setup();
  enforcement.start();
  t.after(() => enforcement.shutdown());
  etcd.put(CFG, JSON.stringify(scheduler({ workloads: [{ parameters: { priority: -1 } }] })));
  assert.equal(enforcement.enforced().length, 0);
  assert.ok(warnings.some((w) => /refused|skipped|invalid|cannot/i.test(w)), warnings.join('\n'));
  assert.equal(check(engine, {}).accepted, true);
});
