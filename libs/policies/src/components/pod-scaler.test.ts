import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compilePolicy, PolicyCompileError, validatePolicy } from '../index.js';

function spec(scaler: Record<string, unknown>): unknown {
  return {
    circuit: {
      evaluation_interval: '1s',
      components: [
        { variable: { constant_output: { value: 2 }, out_ports: { output: { signal_name: 'want' } } } },
        {
          auto_scale: {
            pod_scaler: {
              kubernetes_object_selector: { namespace: 'shop', api_version: 'apps/v1', kind: 'Deployment', name: 'web' },
              in_ports: { replicas: { signal_name: 'want' } },
              ...scaler,
            },
          },
        },
      ],
    },
  };
}

test('a pod scaler is published to its object\'s agent group with its bounds and cooldowns', () => {
  const c = compilePolicy('scale', spec({ kubernetes_object_selector: { agent_group: 'edge', namespace: 'shop', api_version: 'apps/v1', kind: 'StatefulSet', name: 'db' }, min_replicas: 2, max_replicas: 6, scale_in_cooldown: '1m', dry_run: true }));
  assert.deepEqual(c.components, [{
    kind: 'pod_scaler', policy_name: 'scale', policy_hash: c.hash, component_id: 'root.1', agent_group: 'edge', selectors: [],
    kubernetes_object: { namespace: 'shop', api_version: 'apps/v1', kind: 'StatefulSet', name: 'db' },
    min_replicas: 2, max_replicas: 6, scale_out_cooldown_ms: 30_000, scale_in_cooldown_ms: 60_000, dry_run: true,
  }]);
});

test('the desired replicas are rounded and bounded; an invalid signal keeps the last', () => {
  const circuit = compilePolicy('scale', spec({ min_replicas: 2, max_replicas: 6 })).createCircuit();
  const tick = (want: number) => circuit.tick(0, { promql: new Map(), variables: new Map([['want', want]]) }).decisions.get('root.1');
  assert.deepEqual(circuit.tick(0, { promql: new Map(), variables: new Map() }).decisions.get('root.1'), { kind: 'pod_scaler', replicas: 2 });
  assert.deepEqual(tick(4.4), { kind: 'pod_scaler', replicas: 4 });
  assert.deepEqual(tick(40), { kind: 'pod_scaler', replicas: 6 });
  assert.deepEqual(tick(0), { kind: 'pod_scaler', replicas: 2 });
  assert.deepEqual(tick(Number.NaN), { kind: 'pod_scaler', replicas: 2 }, 'NaN: the last value');
});

test('bad pod scalers are refused with their field', () => {
  const problems = (s: Record<string, unknown>) => {
    try {
      compilePolicy('scale', spec(s));
      return [];
    } catch (err) {
      assert.ok(err instanceof PolicyCompileError);
      return err.problems.map((p) => p.path);
    }
  };
  const at = 'spec.circuit.components[1].auto_scale.pod_scaler';
  assert.deepEqual(problems({ kubernetes_object_selector: { namespace: 'shop', api_version: 'v1', kind: 'Pod', name: 'web' } }),
    [`${at}.kubernetes_object_selector.api_version`, `${at}.kubernetes_object_selector.kind`]);
  assert.deepEqual(problems({ min_replicas: 5, max_replicas: 2 }), [`${at}.min_replicas`]);
  assert.deepEqual(problems({ min_replicas: -1 }), [`${at}.min_replicas`]);
  assert.deepEqual(problems({ kubernetes_object_selector: { namespace: 'shop', api_version: 'apps/v1', kind: 'Deployment' } }), [`${at}.kubernetes_object_selector.name`]);
  assert.deepEqual(problems({ in_ports: { replicas: { constant_signal: { value: -3 } } } }), [`${at}.in_ports.replicas.constant_signal.value`]);
  assert.ok(problems({ scale_in_cooldown: 'soon' }).some((p) => p.startsWith(`${at}.scale_in_cooldown`)));
  assert.deepEqual(validatePolicy(spec({ replicas: 3 })).map((p) => p.path), [`${at}.replicas`]);
});

test('the out-ports carry the replicas the agents report for the component; absent or another component\'s: invalid', () => {
  const s = spec({ out_ports: { actual_replicas: { signal_name: 'running' }, configured_replicas: { signal_name: 'configured' }, desired_replicas: { signal_name: 'steering' } } }) as { circuit: { components: unknown[] } };
  // A consumer of `running`: scale out by one while fewer than 3 run (the guide's wiring).
  s.circuit.components.push({ decider: { operator: 'lt', in_ports: { lhs: { signal_name: 'running' }, rhs: { constant_signal: { value: 3 } } }, out_ports: { output: { signal_name: 'short' } } } });
  const circuit = compilePolicy('scale', s).createCircuit();
  const base = { promql: new Map<string, number | undefined>(), variables: new Map<string, number>() };
  const none = circuit.tick(0, base).signals;
  assert.deepEqual([none.running, none.configured, none.steering, none.short], [null, null, null, 0], 'no report: invalid (the decider says 0 for an invalid input)');
  const reported = circuit.tick(0, { ...base, reports: new Map([['root.1', { actual_replicas: 2, configured_replicas: 4, desired_replicas: 4 }]]) }).signals;
  assert.deepEqual([reported.running, reported.configured, reported.steering, reported.short], [2, 4, 4, 1]);
  const partial = circuit.tick(0, { ...base, reports: new Map([['root.1', { actual_replicas: 3, configured_replicas: 3, desired_replicas: null }]]) }).signals;
  assert.deepEqual([partial.running, partial.configured, partial.steering, partial.short], [3, 3, null, 0]);
  const other = circuit.tick(0, { ...base, reports: new Map([['root.0', { actual_replicas: 2, configured_replicas: 4, desired_replicas: 4 }]]) }).signals;
  assert.deepEqual([other.running, other.configured, other.steering], [null, null, null], 'another component\'s report is not this one\'s');
  assert.deepEqual(circuit.tick(0, base).signals.running, null, 'the report gone: invalid again');
});

test('a second writer of an out-port signal is refused at the port', () => {
  const s = spec({ out_ports: { desired_replicas: { signal_name: 'want' } } });
  assert.throws(() => compilePolicy('scale', s), (err: unknown) => err instanceof PolicyCompileError && err.problems.some((p) => p.path.endsWith('pod_scaler.out_ports.desired_replicas.signal_name')));
});

test('a loop through the pod scaler is no cycle: one more than configured while overloaded and the last step runs', () => {
  const loop = {
    circuit: {
      evaluation_interval: '1s',
      components: [
        { variable: { constant_output: { value: 1 }, out_ports: { output: { signal_name: 'OVERLOADED' } } } },
        { decider: { operator: 'gte', in_ports: { lhs: { signal_name: 'RUNNING' }, rhs: { signal_name: 'CONFIGURED' } }, out_ports: { output: { signal_name: 'SETTLED' } } } },
        { arithmetic_combinator: { operator: 'mul', in_ports: { lhs: { signal_name: 'OVERLOADED' }, rhs: { signal_name: 'SETTLED' } }, out_ports: { output: { signal_name: 'STEP' } } } },
        { arithmetic_combinator: { operator: 'add', in_ports: { lhs: { signal_name: 'CONFIGURED' }, rhs: { signal_name: 'STEP' } }, out_ports: { output: { signal_name: 'WANT' } } } },
        {
          auto_scale: {
            pod_scaler: {
              kubernetes_object_selector: { namespace: 'shop', api_version: 'apps/v1', kind: 'Deployment', name: 'web' },
              in_ports: { replicas: { signal_name: 'WANT' } },
              out_ports: { actual_replicas: { signal_name: 'RUNNING' }, configured_replicas: { signal_name: 'CONFIGURED' } },
              min_replicas: 2, max_replicas: 5,
            },
          },
        },
      ],
    },
  };
  const circuit = compilePolicy('scale', loop).createCircuit();
  const tick = (overloaded: number, report?: { actual_replicas: number; configured_replicas: number }) => {
    const out = circuit.tick(0, { promql: new Map(), variables: new Map([['OVERLOADED', overloaded]]), ...(report ? { reports: new Map([['root.4', report]]) } : {}) });
    return [out.signals.WANT, out.decisions.get('root.4')];
  };
  assert.deepEqual(tick(1), [null, undefined], 'no report yet: nothing wanted, no decision');
  assert.deepEqual(tick(1, { actual_replicas: 3, configured_replicas: 3 }), [4, { kind: 'pod_scaler', replicas: 4 }], 'overloaded and settled: one more, at the same tick');
  assert.deepEqual(tick(1, { actual_replicas: 3, configured_replicas: 4 }), [4, { kind: 'pod_scaler', replicas: 4 }], 'the step still starting: hold');
  assert.deepEqual(tick(0, { actual_replicas: 4, configured_replicas: 4 }), [4, { kind: 'pod_scaler', replicas: 4 }], 'not overloaded: as configured');
  assert.deepEqual(tick(1, { actual_replicas: 5, configured_replicas: 5 }), [6, { kind: 'pod_scaler', replicas: 5 }], 'bounded by max_replicas');
  assert.deepEqual(tick(1), [null, { kind: 'pod_scaler', replicas: 5 }], 'the report gone: invalid, the last decision stays');
  // Without the pod scaler in it, the same loop is still a cycle.
  const plain = structuredClone(loop) as { circuit: { components: unknown[] } };
  plain.circuit.components[4] = { arithmetic_combinator: { operator: 'add', in_ports: { lhs: { signal_name: 'WANT' }, rhs: { constant_signal: { value: 0 } } }, out_ports: { output: { signal_name: 'CONFIGURED' } } } };
  plain.circuit.components.push({ variable: { constant_output: { value: 1 }, out_ports: { output: { signal_name: 'RUNNING' } } } });
  assert.throws(() => compilePolicy('scale', plain), (err: unknown) => err instanceof PolicyCompileError && err.problems.some((p) => /form a cycle/.test(p.message)));
});
