// sluicectl blueprints against a real controller (and its etcd): every blueprint's example values
// file, written by `blueprints values`, generates a Policy resource that `apply policy` gets accepted
// and running; a bad values file fails (exit 1) naming the field, without a stack.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parse } from 'yaml';
import { endpointsJson, startEtcd } from './support/etcd.js';
import { sluicectl } from './support/sluicectl.js';
import { startController, tempDir, until } from './support/processes.js';

test('every blueprint\'s example generates a policy the controller accepts and runs', { timeout: 600_000 }, async (t) => {
  const etcd = await startEtcd(t);
  const c = await startController(t, {
    ready: 'live',
    env: { SLUICE_CONTROLLER_ETCD_ENDPOINTS: endpointsJson(etcd), SLUICE_CONTROLLER_PROMETHEUS_ADDRESS: '127.0.0.1:9' },
  });
  const env = { SLUICE_CONTROLLER: c.base };
  const dir = tempDir(t);
  const out = join(dir, 'policies');

  const listed = await sluicectl(['-o', 'json', 'blueprints', 'list']);
  assert.equal(listed.code, 0, listed.err);
  const names = (JSON.parse(listed.out) as Array<{ name: string }>).map((b) => b.name);
  assert.deepEqual(names, ['rate-limiting', 'service-protection-average-latency', 'service-protection-promql', 'workload-prioritization', 'load-ramping', 'load-based-auto-scaling', 'quota-scheduling']);

  const applied: string[] = [];
  for (const name of names) {
    const values = join(dir, `${name}.values.yaml`);
    const v = await sluicectl(['blueprints', 'values', name, '--output-file', values]);
    assert.equal(v.code, 0, v.err);
    const policyName = (parse(readFileSync(values, 'utf8')) as { policy_name: string }).policy_name;
    const g = await sluicectl(['blueprints', 'generate', name, '--values-file', values, '--output-dir', out]);
    assert.equal(g.code, 0, `${name}: ${g.err}`);
    const file = join(out, `${policyName}.yaml`);
    assert.equal(g.out.split('\n')[0], file);
    assert.match(readFileSync(join(out, `${policyName}.mmd`), 'utf8'), /^flowchart LR\n/);
    const a = await sluicectl(['apply', 'policy', '-f', file], env);
    assert.equal(a.code, 0, `${name}: ${a.err}`);
    assert.equal(a.err, '');
    assert.match(a.out, new RegExp(`^policy ${policyName} applied`));
    // The controller holds the spec generated, running.
    const shown = await sluicectl(['-o', 'json', 'policy', policyName], env);
    assert.equal(shown.code, 0, shown.err);
    const body = JSON.parse(shown.out) as { status: string; spec: unknown };
    assert.equal(body.status, 'running', `${name}: ${shown.out}`);
    assert.deepEqual(body.spec, (parse(readFileSync(file, 'utf8')) as { spec: unknown }).spec);
    applied.push(policyName);
  }
  const list = JSON.parse((await sluicectl(['-o', 'json', 'policies'], env)).out) as { policies: Array<{ name: string; status: string }> };
  assert.deepEqual(list.policies.map((p) => p.name).sort(), [...applied].sort());

  // What three of them enforce reaches the agents' decisions: the constant bucket of the rate limit,
  // the variable share of the workload prioritisation and the load ramp's first step (the others wait
  // for Prometheus).
  await until(async () => {
    const rl = JSON.parse((await sluicectl(['-o', 'json', 'decisions', 'rate_limiter'], env)).out) as { decisions: Array<{ policy_name: string; decision: { bucket_capacity?: number } }> };
    const ls = JSON.parse((await sluicectl(['-o', 'json', 'decisions', 'load_scheduler'], env)).out) as { decisions: Array<{ policy_name: string; decision: { load_multiplier?: number } }> };
    const sm = JSON.parse((await sluicectl(['-o', 'json', 'decisions', 'sampler'], env)).out) as { decisions: Array<{ policy_name: string; decision: { accept_percentage?: number } }> };
    return rl.decisions.some((d) => d.policy_name === 'rate-limit-per-user' && d.decision.bucket_capacity === 20)
      && ls.decisions.some((d) => d.policy_name === 'api-priorities' && d.decision.load_multiplier === 0.9)
      && sm.decisions.some((d) => d.policy_name === 'new-checkout-rollout' && d.decision.accept_percentage === 1);
  }, 30_000, 'decisions of the generated policies', 500); // each poll starts three sluicectl processes

  // A bad values file: exit 1, the field's path, no stack; nothing applied.
  const bad = join(dir, 'bad.yaml');
  writeFileSync(bad, 'blueprint: rate-limiting\npolicy_name: bad\nrate_limiter: {bucket_capacity: 5, fill_amount: -1, interval: soon}\n');
  const refused = await sluicectl(['blueprints', 'generate', 'rate-limiting', '--values-file', bad, '--output-dir', out]);
  assert.equal(refused.code, 1);
  assert.match(refused.err, /^sluicectl: .*bad\.yaml: bad values for blueprint rate-limiting: .*rate_limiter\.fill_amount: must be >= 0/);
  assert.match(refused.err, /rate_limiter\.interval: "soon" is not a duration such as 500ms/);
  assert.doesNotMatch(refused.err, /\n\s+at /);
  const exists = await sluicectl(['blueprints', 'generate', 'rate-limiting', '--values-file', join(dir, 'rate-limiting.values.yaml'), '--output-dir', out]);
  assert.equal(exists.code, 1);
  assert.match(exists.err, /already exist \(--overwrite replaces\)/);
  const unknown = await sluicectl(['blueprints', 'describe', 'nope']);
  assert.equal(unknown.code, 2);
});
