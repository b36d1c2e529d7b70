import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { type PolicyController } from './controller.js';
import { MemoryEtcd, until } from './test-support.js';
import { startTestController } from './test-controller.js';

/** A load ramp started and reset by bool variables read from the dynamic configuration (as Aperture's load-ramping policies wire it). */
const spec = (): Record<string, unknown> => ({
  circuit: {
    evaluation_interval: '100ms',
    components: [
      { bool_variable: { config_key: 'start', constant_output: false, out_ports: { output: { signal_name: 'START' } } } },
      { bool_variable: { config_key: 'reset', constant_output: false, out_ports: { output: { signal_name: 'RESET' } } } },
      { flow_control: { load_ramp: {
        in_ports: { forward: { signal_name: 'START' }, reset: { signal_name: 'RESET' } },
        out_ports: { accept_percentage: { signal_name: 'PCT' }, at_end: { signal_name: 'AT_END' } },
        parameters: { sampler: { selectors: [{ control_point: 'ingress' }] }, steps: [{ target_accept_percentage: 10, duration: '0s' }, { target_accept_percentage: 100, duration: '1s' }] },
        pass_through_label_values_config_key: 'pass_through_label_values',
      } } },
    ],
  },
});

function setup(t: TestContext): { etcd: MemoryEtcd; c: PolicyController } {
  return startTestController(t);
}

const accept = (etcd: MemoryEtcd) => (JSON.parse(etcd.data.get('sluice/decisions/default/p/root.2') ?? 'null') as { accept_percentage: number } | null)?.accept_percentage;

test('a load ramp starts, climbs through its steps and resets through boolean keys of the dynamic configuration, without publishing the policy again', async (t) => {
  const { etcd, c } = setup(t);
  await c.store.upsert('p', spec());
  await until(() => accept(etcd) === 10, 5000, 'the first step published');
  const config = etcd.data.get('sluice/config/default/p/root.2');
  // Not started: it stays at the first step.
  await new Promise((r) => setTimeout(r, 500));
  assert.equal(accept(etcd), 10);

  await c.dynamicConfigs.set('p', { start: true });
  const seen = new Set<number>();
  await until(() => {
    const a = accept(etcd);
    if (a !== undefined) seen.add(a);
    return a === 100;
  }, 20_000, 'the ramp at its end');
  const climbed = [...seen].sort((x, y) => x - y);
  assert.ok(climbed.some((v) => v > 10 && v < 100), `values between the steps: ${climbed.join(', ')}`);
  assert.equal(c.policies.view('p')?.signals.AT_END, 1);

  await c.dynamicConfigs.set('p', { start: true, reset: true, pass_through_label_values: ['beta'] });
  await until(() => accept(etcd) === 10, 5000, 'reset to the first step');
  assert.equal(c.policies.view('p')?.signals.AT_END, 0);
  await until(() => (JSON.parse(etcd.data.get('sluice/config/default/p/root.2') ?? '{}') as { pass_through_label_values?: string[] }).pass_through_label_values?.[0] === 'beta', 5000, 'the pass-through values published');
  const republished = JSON.parse(etcd.data.get('sluice/config/default/p/root.2')!) as { policy_hash: string };
  assert.equal(republished.policy_hash, (JSON.parse(config!) as { policy_hash: string }).policy_hash, 'the same policy version');
  // While reset holds, the ramp stays at the start; releasing it ramps again.
  await new Promise((r) => setTimeout(r, 500));
  assert.equal(accept(etcd), 10);
  await c.dynamicConfigs.set('p', { start: true, reset: false });
  await until(() => (accept(etcd) ?? 0) > 10, 5000, 'ramping again');
});
