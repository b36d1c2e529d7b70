// The auto scaler over a simulated Deployment: each tick the circuit runs at the next evaluation
// interval (the clock), reads the replicas the "agent" reports, and its decision becomes the
// configured replicas (running at once unless a step says otherwise).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compilePolicy, PolicyCompileError, validatePolicy, withDynamicValues } from '../index.js';

type Obj = Record<string, unknown>;
const sig = (name: string): Obj => ({ signal_name: name });
const variable = (name: string): Obj => ({ variable: { constant_output: { special_value: 'NaN' }, out_ports: { output: { signal_name: name } } } });
const alerter = (name: string): Obj => ({ alert_name: name });
const gradient = (signal: string, setpoint: number, parameters: Obj = {}): Obj => ({ gradient: { in_ports: { signal: sig(signal), setpoint: { constant_signal: { value: setpoint } } }, parameters } });
const SELECTOR = { agent_group: 'default', api_version: 'apps/v1', kind: 'Deployment', name: 'web', namespace: 'shop' };

function scaler(over: { out?: Obj[]; in?: Obj[]; params?: Obj; backend?: Obj; top?: Obj } = {}): Obj {
  return {
    auto_scale: {
      auto_scaler: {
        scaling_backend: { kubernetes_replicas: { kubernetes_object_selector: SELECTOR, min_replicas: '1', max_replicas: '10', ...over.backend } },
        scale_out_controllers: (over.out ?? []).map((controller, i) => ({ controller, alerter: alerter(`out ${i}`) })),
        scale_in_controllers: (over.in ?? []).map((controller, i) => ({ controller, alerter: alerter(`in ${i}`) })),
        scaling_parameters: {
          scale_out_alerter: alerter('scaling out'),
          scale_in_alerter: alerter('scaling in'),
          max_scale_out_percentage: 100,
          max_scale_in_percentage: 50,
          scale_out_cooldown: '3s',
          scale_in_cooldown: '2s',
          ...over.params,
        },
        ...over.top,
      },
    },
  };
}

interface Step { vars?: Record<string, number>; actual?: number; noReport?: boolean }

/**
 * Runs the auto scaler (component root.2 after the variables OUT and IN) for `steps`, starting
 * with `replicas` configured and running; answers the decision at each tick (undefined: none yet).
 */
function simulate(component: Obj, replicas: number, steps: readonly Step[]) {
  const compiled = compilePolicy('as', { circuit: { evaluation_interval: '1s', components: [variable('OUT'), variable('IN'), component] } });
  const circuit = compiled.createCircuit();
  let configured = replicas;
  const decided: (number | undefined)[] = [];
  const alerts: string[][] = [];
  steps.forEach((st, i) => {
    const actual = st.actual ?? configured;
    const reports = st.noReport ? new Map() : new Map([['root.2', { actual_replicas: actual, configured_replicas: configured, desired_replicas: null }]]);
    const out = circuit.tick(i * 1000, { promql: new Map(), variables: new Map(Object.entries(st.vars ?? {})), reports });
    const d = out.decisions.get('root.2') as { replicas: number } | undefined;
    decided.push(d?.replicas);
    alerts.push((out.alerts ?? []).map((a) => a.name));
    if (d !== undefined) configured = d.replicas;
  });
  return { decided, alerts, compiled };
}
const repeat = (n: number, st: Step): Step[] => Array.from({ length: n }, () => st);

test('gradient scale-out: actual × signal / setpoint, bounded by max_scale_out_percentage of the actual replicas', () => {
  const c = scaler({ out: [gradient('OUT', 1)], params: { cooldown_override_percentage: 1000 } });
  // 2 replicas, signal 3x the setpoint: wants 6 (held for the cooldown); one step adds at most 100 % of 2.
  assert.deepEqual(simulate(c, 2, repeat(3, { vars: { OUT: 3 } })).decided, [4, 6, 6]);
  // The pods not running yet: the step is counted from the running ones.
  assert.deepEqual(simulate(c, 2, [{ vars: { OUT: 3 } }, { vars: { OUT: 3 }, actual: 2 }, { vars: { OUT: 3 }, actual: 4 }]).decided, [4, 4, 6]);
  // A signal at or under the setpoint never scales out (the gradient is at least 1).
  assert.deepEqual(simulate(c, 2, repeat(3, { vars: { OUT: 0.5 } })).decided, [undefined, undefined, undefined]);
  // max_gradient bounds the proposal: 2 × 1.5.
  assert.deepEqual(simulate(scaler({ out: [gradient('OUT', 1, { max_gradient: 1.5 })] }), 2, repeat(1, { vars: { OUT: 3 } })).decided, [3]);
});

test('the scale-out cooldown holds the proposal; a much larger one overrides it', () => {
  // OUT doubles each tick; override only above +1000 %: the proposal of tick 0 (4) holds for 3 ticks.
  const held = scaler({ out: [gradient('OUT', 1)], params: { cooldown_override_percentage: 1000 } });
  const steps = repeat(5, { vars: { OUT: 2 } });
  assert.deepEqual(simulate(held, 2, steps).decided, [4, 4, 4, 8, 8]);
  // With the default 50 %: 8 is more than 4 × 1.5, so the cooldown ends at once.
  const overridden = scaler({ out: [gradient('OUT', 1)], params: { cooldown_override_percentage: undefined } });
  assert.deepEqual(simulate(overridden, 2, steps).decided, [4, 8, 10, 10, 10], 'bounded by max_replicas 10');
});

test('gradient scale-in, bounded by max_scale_in_percentage, held for the scale-in cooldown', () => {
  const c = scaler({ in: [gradient('IN', 1)] });
  // 8 replicas at half the setpoint: wants 4; one step removes at most 50 % of 8 → 4 at once, then
  // the held 4 is reached; the next scale-in (to 2) waits for the 2-tick cooldown.
  assert.deepEqual(simulate(c, 8, repeat(4, { vars: { IN: 0.5 } })).decided, [4, 4, 2, 2]);
  // max_scale_in_percentage 10: at least one replica a step.
  const slow = scaler({ in: [gradient('IN', 1)], params: { max_scale_in_percentage: 10, scale_in_cooldown: '1s' } });
  assert.deepEqual(simulate(slow, 8, repeat(3, { vars: { IN: 0.5 } })).decided, [7, 6, 5]);
  // min_gradient bounds it: 8 × 0.75.
  assert.deepEqual(simulate(scaler({ in: [gradient('IN', 1, { min_gradient: 0.75 })] }), 8, repeat(1, { vars: { IN: 0.1 } })).decided, [6]);
});

test('periodic decrease: once a period, scale_in_percentage of the actual replicas (at least one)', () => {
  const c = scaler({ in: [{ periodic: { period: '3s', scale_in_percentage: 25 } }], params: { scale_in_cooldown: '0s' } });
  // At tick 0, then every 1 + 3 ticks: 8 → 6 → 5 (25 % of 6 rounded up is 2, bounded by 50 %: 3).
  const { decided } = simulate(c, 8, repeat(9, {}));
  assert.deepEqual(decided, [6, 6, 6, 6, 4, 4, 4, 4, 3]);
  // 1 % of 3 replicas still removes one.
  const tiny = scaler({ in: [{ periodic: { period: '10s', scale_in_percentage: 1 } }] });
  assert.deepEqual(simulate(tiny, 3, repeat(1, {})).decided, [2]);
});

test('min and max replicas bound every decision', () => {
  const out = scaler({ out: [gradient('OUT', 1)], backend: { min_replicas: 3, max_replicas: '5' }, params: { scale_out_cooldown: '0s' } });
  assert.deepEqual(simulate(out, 4, repeat(3, { vars: { OUT: 10 } })).decided, [5, 5, 5]);
  const inn = scaler({ in: [gradient('IN', 1)], backend: { min_replicas: 3, max_replicas: '5' }, params: { scale_in_cooldown: '0s' } });
  assert.deepEqual(simulate(inn, 5, repeat(3, { vars: { IN: 0.01 } })).decided, [3, 3, 3]);
  // Below min_replicas: any decision, even a scale-in, is lifted to the minimum.
  assert.deepEqual(simulate(inn, 2, [{ vars: { IN: 0.01 } }]).decided, [3]);
});

test('scale-out wins over scale-in; several scale-in controllers: the largest proposal applies', () => {
  const both = scaler({ out: [gradient('OUT', 1)], in: [gradient('IN', 1)], params: { scale_in_cooldown: '0s', scale_out_cooldown: '0s' } });
  assert.deepEqual(simulate(both, 4, [{ vars: { OUT: 1.5, IN: 0.5 } }]).decided, [6]);
  const two = scaler({ in: [gradient('IN', 1), gradient('OUT', 1)], params: { scale_in_cooldown: '0s' } });
  assert.deepEqual(simulate(two, 8, [{ vars: { IN: 0.5, OUT: 0.75 } }]).decided, [6], 'max(4, 6)');
  // One controller idle (signal above the setpoint proposes 8 = actual): no scale-in.
  assert.deepEqual(simulate(two, 8, [{ vars: { IN: 0.5, OUT: 2 } }]).decided, [undefined]);
  // Several scale-out controllers: the largest.
  const outs = scaler({ out: [gradient('OUT', 1), gradient('IN', 1)] });
  assert.deepEqual(simulate(outs, 4, [{ vars: { OUT: 1.25, IN: 1.5 } }]).decided, [6]);
});

test('invalid signals: no report or no signal decides nothing; the last decision stays', () => {
  const c = scaler({ out: [gradient('OUT', 1)], params: { scale_out_cooldown: '0s' } });
  assert.deepEqual(simulate(c, 2, [{ vars: { OUT: 2 }, noReport: true }, { vars: {} }, { vars: { OUT: 2 } }, { vars: {} }, { noReport: true }]).decided, [undefined, undefined, 4, 4, 4]);
  // A setpoint of 0 or a negative ratio under a fractional slope: no gradient, the actual scale.
  assert.deepEqual(simulate(scaler({ out: [gradient('OUT', 0)] }), 2, [{ vars: { OUT: 2 } }]).decided, [undefined]);
  assert.deepEqual(simulate(scaler({ out: [gradient('OUT', 1, { slope: 0.5 })] }), 2, [{ vars: { OUT: -4 } }]).decided, [undefined]);
});

test('alerts: a controller\'s while it proposes a change, the scaler\'s while the decision differs from the configured replicas', () => {
  const c = scaler({ out: [gradient('OUT', 1)], in: [gradient('IN', 1)], params: { scale_out_cooldown: '0s', scale_in_cooldown: '0s' } });
  const { alerts } = simulate(c, 4, [{ vars: { OUT: 2, IN: 1 } }, { vars: { OUT: 1, IN: 1 } }, { vars: { OUT: 1, IN: 0.5 } }]);
  assert.deepEqual(alerts, [['out 0', 'scaling out'], [], ['in 0', 'scaling in']]);
});

test('published as a pod scaler without agent cooldowns; dry run and its dynamic-config key', () => {
  const { compiled, decided } = simulate(scaler({ out: [gradient('OUT', 1)], top: { dry_run: true, dry_run_config_key: 'scaler.dry_run' } }), 2, [{ vars: { OUT: 2 } }]);
  assert.deepEqual(decided, [4], 'a dry run still decides (the agent does not write it)');
  const [p] = compiled.components;
  assert.deepEqual(p, {
    kind: 'pod_scaler', policy_name: 'as', policy_hash: compiled.hash, component_id: 'root.2', agent_group: 'default', selectors: [],
    kubernetes_object: { namespace: 'shop', api_version: 'apps/v1', kind: 'Deployment', name: 'web' },
    min_replicas: 1, max_replicas: 10, scale_out_cooldown_ms: 0, scale_in_cooldown_ms: 0, dry_run: true,
  });
  assert.deepEqual(compiled.configKeys.map((k) => [k.key, k.type, k.target]), [['scaler.dry_run', 'boolean', { component_id: 'root.2', field: ['dry_run'] }]]);
  assert.equal((withDynamicValues(p, compiled.configKeys, new Map([['scaler.dry_run', false]])) as { dry_run: boolean }).dry_run, false);
  // Aperture's defaults: min 0, max int64 (Kubernetes' int32 here).
  const open = compilePolicy('as', { circuit: { components: [scaler({ backend: { min_replicas: undefined, max_replicas: '9223372036854775807' } })] } });
  assert.deepEqual([open.components[0]].map((x) => [(x as { min_replicas: number }).min_replicas, (x as { max_replicas: number }).max_replicas]), [[0, 2_147_483_647]]);
});

test('the out-ports: replicas the agent reports, and the previous decision', () => {
  const c = scaler({ out: [gradient('OUT', 1)], backend: { out_ports: { actual_replicas: sig('RUNNING'), configured_replicas: sig('SET'), desired_replicas: sig('WANT') } } });
  const circuit = compilePolicy('as', { circuit: { components: [variable('OUT'), variable('IN'), c] } }).createCircuit();
  const base = { promql: new Map(), variables: new Map([['OUT', 2]]) };
  assert.deepEqual(circuit.tick(0, base).signals.RUNNING, null);
  const t1 = circuit.tick(1000, { ...base, reports: new Map([['root.2', { actual_replicas: 2, configured_replicas: 3, desired_replicas: null }]]) }).signals;
  assert.deepEqual([t1.RUNNING, t1.SET, t1.WANT], [2, 3, null]);
  const t2 = circuit.tick(2000, { ...base, reports: new Map([['root.2', { actual_replicas: 2, configured_replicas: 4, desired_replicas: 4 }]]) }).signals;
  assert.deepEqual([t2.RUNNING, t2.SET, t2.WANT], [2, 4, 4]);
});

test('bad auto scalers are refused with their field', () => {
  const problems = (component: Obj) => {
    try {
      compilePolicy('as', { circuit: { components: [variable('OUT'), variable('IN'), component] } });
      return [];
    } catch (err) {
      assert.ok(err instanceof PolicyCompileError);
      return err.problems.map((p) => p.path);
    }
  };
  const at = 'spec.circuit.components[2].auto_scale.auto_scaler';
  const b = `${at}.scaling_backend.kubernetes_replicas`;
  assert.deepEqual(problems(scaler({ backend: { min_replicas: '5', max_replicas: 2 } })), [`${b}.min_replicas`]);
  assert.deepEqual(problems(scaler({ backend: { max_replicas: 'ten' } })), [`${b}.max_replicas`]);
  assert.deepEqual(problems(scaler({ backend: { max_replicas: 0 } })), [`${b}.max_replicas`]);
  assert.deepEqual(problems(scaler({ backend: { kubernetes_object_selector: { ...SELECTOR, kind: 'Pod' } } })), [`${b}.kubernetes_object_selector.kind`]);
  assert.deepEqual(problems(scaler({ in: [{ periodic: { period: '10s', scale_in_percentage: 150 } }] })), [`${at}.scale_in_controllers[0].controller.periodic.scale_in_percentage`]);
  assert.deepEqual(problems(scaler({ in: [{ periodic: { period: '0s', scale_in_percentage: 10 } }] })).length, 1);
  assert.deepEqual(problems(scaler({ in: [{}] })), [`${at}.scale_in_controllers[0].controller`]);
  assert.deepEqual(problems(scaler({ out: [gradient('OUT', 1, { max_gradient: 0.5 })] })), [`${at}.scale_out_controllers[0].controller.gradient.parameters.max_gradient`]);
  assert.deepEqual(problems(scaler({ out: [gradient('NOPE', 1)] })), [`${at}.scale_out_controllers[0].controller.gradient.in_ports.signal.signal_name`]);
  const noAlerter = scaler();
  delete ((noAlerter.auto_scale as Obj).auto_scaler as { scaling_parameters: Obj }).scaling_parameters.scale_in_alerter;
  assert.deepEqual(validatePolicy({ circuit: { components: [noAlerter] } }).map((p) => p.path), ['spec.circuit.components[0].auto_scale.auto_scaler.scaling_parameters.scale_in_alerter']);
});
