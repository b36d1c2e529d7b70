import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parse } from 'yaml';
import { compilePolicy, validatePolicy } from '../compile.js';
import type { CircuitInputs } from '../circuit.js';
import { EXAMPLES_DIR } from '../generate/paths.js';
import { PolicyCompileError } from '../problems.js';
import type { PublishedDecision, PublishedLoadScheduler } from '../published.js';

type Obj = Record<string, unknown>;
const NONE: CircuitInputs = { promql: new Map(), variables: new Map() };
const c = (value: number) => ({ constant_signal: { value } });
const s = (name: string) => ({ signal_name: name });
const out = (name: string) => ({ output: { signal_name: name } });
const vars = (m: Record<string, number>): CircuitInputs => ({ promql: new Map(), variables: new Map(Object.entries(m)) });
const variable = (name: string) => ({ variable: { constant_output: { special_value: 'NaN' }, out_ports: out(name) } });

function adaptive(extra: Obj = {}): Obj {
  return {
    flow_control: {
      adaptive_load_scheduler: {
        in_ports: { signal: s('LAT'), setpoint: s('SET') },
        out_ports: { desired_load_multiplier: s('DESIRED'), observed_load_multiplier: s('OBSERVED'), is_overload: s('OVER') },
        parameters: {
          gradient: { slope: -1, min_gradient: 0.1, max_gradient: 1 },
          load_multiplier_linear_increment: 0.25,
          max_load_multiplier: 2,
          load_scheduler: {
            selectors: [{ control_point: 'ingress' }],
            scheduler: {
              workloads: [{ name: 'gold', label_matcher: { match_labels: { tier: 'gold' } }, parameters: { priority: 200, queue_timeout: '0.2s' } }],
            },
          },
        },
        ...extra,
      },
    },
  };
}

function policy(components: Obj[]): Obj {
  return { circuit: { evaluation_interval: '1s', components } };
}

test('a policy with an adaptive load scheduler is valid', () => {
  const problems = validatePolicy(policy([variable('LAT'), variable('SET'), adaptive()]));
  assert.deepEqual(problems, []);
});

test('adaptive load scheduler: published config, overload lowers by the gradient, recovery is linear, max returns to pass-through', () => {
  const compiled = compilePolicy('p', policy([variable('LAT'), variable('SET'), adaptive()]));
  const published = compiled.components.find((x) => x.kind === 'load_scheduler') as PublishedLoadScheduler;
  assert.ok(published !== undefined);
  assert.equal(published.component_id, 'root.2');
  assert.deepEqual(published.parameters, {
    workloads: [{ name: 'gold', label_matcher: { match_labels: { tier: 'gold' } }, parameters: { priority: 200, queue_timeout_ms: 200 } }],
    default_workload_parameters: { priority: 1 },
    tokens_label_key: 'tokens',
    decision_deadline_margin_ms: 10,
    workload_latency_based_tokens: true,
    dry_run: false,
  });
  const circuit = compiled.createCircuit();
  const tick = (t: number, lat: number, set: number) => circuit.tick(t, vars({ LAT: lat, SET: set }));
  const d = (r: ReturnType<typeof tick>) => r.decisions.get('root.2') as Extract<PublishedDecision, { kind: 'load_scheduler' }>;
  assert.equal(circuit.tick(0, NONE).decisions.size, 0, 'no decision before a valid signal');
  let r = tick(1, 50, 100);
  assert.deepEqual(d(r), { kind: 'load_scheduler', load_multiplier: 2, pass_through: true });
  assert.equal(r.signals.OVER, 0);
  r = tick(2, 200, 100); // gradient (200/100)^-1 = 0.5 of the 1 in force in pass-through
  assert.deepEqual(d(r), { kind: 'load_scheduler', load_multiplier: 0.5, pass_through: false });
  assert.equal(r.signals.OVER, 1);
  assert.equal(r.signals.OBSERVED, 1);
  r = tick(3, 1000, 100); // gradient 0.1 (clamped at min_gradient)
  assert.ok(Math.abs(d(r).load_multiplier - 0.05) < 1e-12);
  r = tick(4, 90, 100);
  assert.ok(Math.abs(d(r).load_multiplier - 0.3) < 1e-12, 'recovery adds the increment');
  assert.equal(r.signals.OVER, 0);
  for (let t = 5; t < 12; t++) r = tick(t, 90, 100);
  assert.deepEqual(d(r), { kind: 'load_scheduler', load_multiplier: 2, pass_through: true }, 'max_load_multiplier caps it and ends recovery');
  r = circuit.tick(13, NONE);
  assert.deepEqual(d(r), { kind: 'load_scheduler', load_multiplier: 2, pass_through: true }, 'an invalid signal in pass-through stays there');
  r = tick(14, 10_000, 100);
  assert.ok(Math.abs(d(r).load_multiplier - 0.1) < 1e-12);
  r = circuit.tick(15, NONE);
  assert.ok(Math.abs(d(r).load_multiplier - 0.35) < 1e-12, 'an invalid signal is no overload: a starved service recovers');
  assert.equal(r.signals.OVER, 0);
});

test('proportional_cut: during an overload the multiplier is the one at its start × the current gradient, lowered only, never compounded', () => {
  const comp = adaptive();
  const params = ((comp.flow_control as Obj).adaptive_load_scheduler as Obj).parameters as Obj;
  params.proportional_cut = true;
  params.gradient = { slope: -1, min_gradient: 0.1, max_gradient: 1 };
  const circuit = compilePolicy('p', policy([variable('LAT'), variable('SET'), comp])).createCircuit();
  const m = (t: number, lat: number) => (circuit.tick(t, vars({ LAT: lat, SET: 100 })).decisions.get('root.2') as Extract<PublishedDecision, { kind: 'load_scheduler' }>).load_multiplier;
  assert.equal(m(1, 200), 0.5, 'from pass-through: 1 × (200/100)^-1');
  assert.equal(m(2, 400), 0.25, 'a worse reading: 1 × 1/4, not 0.5 × 1/4');
  assert.equal(m(3, 400), 0.25, 'the same reading again (a lagging signal): no further cut');
  assert.equal(m(4, 200), 0.25, 'a better reading still over the setpoint: not raised during the overload');
  assert.equal(m(5, 90), 0.5, 'under the setpoint: recovery adds the increment');
  assert.equal(m(6, 200), 0.25, 'a new overload starts from the multiplier then in force (0.5 × 1/2)');
  assert.equal(m(7, 2000), 0.05, 'the gradient is clamped at min_gradient: 0.5 × 0.1');
  const plain = compilePolicy('p', policy([variable('LAT'), variable('SET'), adaptive({ parameters: { ...params, proportional_cut: false } })])).createCircuit();
  const pm = (t: number, lat: number) => (plain.tick(t, vars({ LAT: lat, SET: 100 })).decisions.get('root.2') as Extract<PublishedDecision, { kind: 'load_scheduler' }>).load_multiplier;
  pm(1, 200);
  pm(2, 400);
  assert.equal(pm(3, 400), 0.03125, 'without it (as in Aperture) every overloaded tick cuts again: 0.5 × 1/4 × 1/4');
});

test('overload_confirmation, when connected, must be valid and non-zero', () => {
  const comp = adaptive();
  ((comp.flow_control as Obj).adaptive_load_scheduler as Obj).in_ports = { signal: s('LAT'), setpoint: s('SET'), overload_confirmation: s('CONF') };
  const circuit = compilePolicy('p', policy([variable('LAT'), variable('SET'), variable('CONF'), comp])).createCircuit();
  const d = (m: Record<string, number>) => circuit.tick(0, vars(m)).decisions.get('root.3') as Extract<PublishedDecision, { kind: 'load_scheduler' }>;
  assert.equal(d({ LAT: 200, SET: 100, CONF: 0 }).pass_through, true);
  assert.equal(d({ LAT: 200, SET: 100 }).pass_through, true, 'an invalid confirmation confirms nothing');
  assert.equal(d({ LAT: 200, SET: 100, CONF: 1 }).load_multiplier, 0.5);
});

test('load_scheduler publishes its in-port as the multiplier', () => {
  const compiled = compilePolicy('p', policy([
    variable('LM'),
    { flow_control: { load_scheduler: { in_ports: { load_multiplier: s('LM') }, out_ports: { observed_load_multiplier: s('OBS') }, dry_run: true, parameters: { selectors: [{ control_point: 'ingress', agent_group: 'g2' }], workload_latency_based_tokens: false } } } },
  ]));
  const published = compiled.components[0] as PublishedLoadScheduler;
  assert.equal(published.kind, 'load_scheduler');
  assert.equal(published.agent_group, 'g2');
  assert.equal(published.parameters.dry_run, true);
  assert.equal(published.parameters.workload_latency_based_tokens, false);
  const circuit = compiled.createCircuit();
  assert.deepEqual(circuit.tick(0, vars({ LM: 0.7 })).decisions.get('root.1'), { kind: 'load_scheduler', load_multiplier: 0.7, pass_through: false });
  assert.deepEqual(circuit.tick(1, vars({ LM: -1 })).decisions.get('root.1'), { kind: 'load_scheduler', load_multiplier: 0.7, pass_through: false }, 'a negative one keeps the last');
  assert.equal(circuit.tick(2, vars({ LM: 0.4 })).signals.OBS, 0.4);
});

test('gradient controller: control variable × clamped gradient, bounded by min and max', () => {
  const gc = (extra: Obj = {}) => ({
    gradient_controller: {
      in_ports: { signal: s('SIG'), setpoint: c(100), control_variable: s('CV'), max: c(10), min: c(0.5) },
      out_ports: out('OUT'),
      parameters: { slope: -1, min_gradient: 0.5, max_gradient: 2 },
      ...extra,
    },
  });
  const run = (m: Record<string, number>, extra: Obj = {}) => compilePolicy('p', policy([variable('SIG'), variable('CV'), gc(extra)])).createCircuit().tick(0, vars(m)).signals.OUT;
  assert.equal(run({ SIG: 200, CV: 4 }), 2);
  assert.equal(run({ SIG: 1000, CV: 4 }), 2, 'gradient clamped at 0.5');
  assert.equal(run({ SIG: 10, CV: 4 }), 8, 'gradient clamped at 2');
  assert.equal(run({ SIG: 10, CV: 8 }), 10, 'max bounds the output');
  assert.equal(run({ SIG: 1000, CV: 0.1 }), 0.5, 'min bounds the output');
  assert.equal(run({ CV: 4 }), null, 'invalid without a signal');
  assert.equal(run({ SIG: 1000, CV: 4 }, { manual_mode: true }), 4, 'manual mode passes the control variable');
});

test('ema: plain average over the warm-up, then exponential over time; envelopes correct it', () => {
  const ema = (params: Obj, ports: Obj = {}) => ({ ema: { in_ports: { input: s('X'), ...ports }, out_ports: out('E'), parameters: params } });
  const circuit = compilePolicy('p', policy([variable('X'), ema({ ema_window: '3s', warmup_window: '2s' })])).createCircuit();
  const e = (t: number, x: number) => circuit.tick(t, vars({ X: x })).signals.E;
  assert.equal(e(0, 10), null, 'invalid during the warm-up');
  assert.equal(e(1000, 20), null);
  assert.equal(e(2000, 30), 20, 'the plain mean once warm');
  assert.equal(e(3000, 40), 30, 'alpha = 2·1s/(3s+1s) = 0.5');
  assert.equal(circuit.tick(4000, NONE).signals.E, 30, 'an invalid input is skipped');
  const valid = compilePolicy('p', policy([variable('X'), ema({ ema_window: '3s', warmup_window: '2s', valid_during_warmup: true })])).createCircuit();
  assert.equal(valid.tick(0, vars({ X: 10 })).signals.E, 10);
  const env = compilePolicy('p', policy([variable('X'), ema({ ema_window: '1s', warmup_window: '0s', correction_factor_on_max_envelope_violation: 0.5 }, { max_envelope: c(15) })])).createCircuit();
  assert.equal(env.tick(0, vars({ X: 20 })).signals.E, 10, 'above max_envelope: corrected by its factor');
});

test('bad scheduling specs are refused with their path', () => {
  const cases: [Obj, string][] = [
    [adaptive({ parameters: { gradient: { slope: -1 } } }), 'spec.circuit.components[2].flow_control.adaptive_load_scheduler.parameters'],
    [adaptive({ in_ports: { signal: s('LAT') } }), 'spec.circuit.components[2].flow_control.adaptive_load_scheduler.in_ports'],
  ];
  const badWorkload = adaptive();
  const ls = (((badWorkload.flow_control as Obj).adaptive_load_scheduler as Obj).parameters as Obj).load_scheduler as Obj;
  ls.scheduler = { workloads: [{ label_matcher: { match_expressions: [{ key: 'a', operator: 'Nope' }] } }] };
  cases.push([badWorkload, 'spec.circuit.components[2].flow_control.adaptive_load_scheduler.parameters.load_scheduler.scheduler.workloads[0].label_matcher']);
  const badPriority = adaptive();
  (((badPriority.flow_control as Obj).adaptive_load_scheduler as Obj).parameters as Obj).load_scheduler = { selectors: [{ control_point: 'x' }], scheduler: { default_workload_parameters: { priority: 0 } } };
  cases.push([badPriority, 'spec.circuit.components[2].flow_control.adaptive_load_scheduler.parameters.load_scheduler.scheduler.default_workload_parameters.priority']);
  const badGradient = adaptive();
  (((badGradient.flow_control as Obj).adaptive_load_scheduler as Obj).parameters as Obj).gradient = { slope: -1, min_gradient: 2, max_gradient: 1 };
  cases.push([badGradient, 'spec.circuit.components[2].flow_control.adaptive_load_scheduler.parameters.gradient.min_gradient']);
  cases.push([{ ema: { in_ports: { input: s('LAT') }, parameters: { ema_window: '0s', warmup_window: '1s' } } }, 'spec.circuit.components[2].ema.parameters.ema_window']);
  for (const [comp, path] of cases) {
    const spec = policy([variable('LAT'), variable('SET'), comp]);
    assert.throws(() => compilePolicy('p', spec), (err: unknown) => {
      assert.ok(err instanceof PolicyCompileError, String(err));
      assert.ok(err.problems.some((p) => p.path.startsWith(path)), `${path}: ${JSON.stringify(err.problems)}`);
      return true;
    });
  }
});

test('deploy/examples/adaptive-load.yaml compiles and sheds on latency', () => {
  const doc = parse(readFileSync(join(EXAMPLES_DIR, 'adaptive-load.yaml'), 'utf8')) as { metadata: { name: string }; spec: unknown };
  const compiled = compilePolicy(doc.metadata.name, doc.spec);
  assert.deepEqual(compiled.ignored, []);
  assert.equal(compiled.promql.length, 2, 'the latency query and keep_admitted_rate\'s incoming token rate');
  const published = compiled.components.find((x) => x.kind === 'load_scheduler') as PublishedLoadScheduler;
  assert.equal((published.parameters.workloads as unknown[]).length, 2);
  const circuit = compiled.createCircuit();
  const id = compiled.promql[0].id;
  let last: PublishedDecision | undefined;
  for (let t = 0; t <= 12_000; t += 1000) last = circuit.tick(t, { promql: new Map([[id, 50]]), variables: new Map() }).decisions.get(published.component_id);
  assert.deepEqual(last, { kind: 'load_scheduler', load_multiplier: 2, pass_through: true });
  last = circuit.tick(13_000, { promql: new Map([[id, 110]]), variables: new Map() }).decisions.get(published.component_id);
  assert.ok(last?.kind === 'load_scheduler' && !last.pass_through && last.load_multiplier < 1, JSON.stringify(last));
});

test('recovery_near_last_overload: recovery slows in the band below the multiplier that last overloaded, then forgets it', () => {
  const comp = adaptive();
  const params = ((comp.flow_control as Obj).adaptive_load_scheduler as Obj).parameters as Obj;
  params.proportional_cut = true;
  params.gradient = { slope: -1, min_gradient: 0.1, max_gradient: 1 };
  params.load_multiplier_linear_increment = 0.1;
  params.recovery_near_last_overload = { band: 0.5, min_increment_fraction: 0.25, increment_factor_past: 3 };
  const circuit = compilePolicy('p', policy([variable('LAT'), variable('SET'), comp])).createCircuit();
  const m = (t: number, lat: number) => (circuit.tick(t, vars({ LAT: lat, SET: 100 })).decisions.get('root.2') as Extract<PublishedDecision, { kind: 'load_scheduler' }>).load_multiplier;
  const near = (a: number, b: number, what: string) => assert.ok(Math.abs(a - b) < 1e-9, `${what}: ${a} vs ${b}`);
  near(m(1, 500), 0.2, 'the first overload from pass-through: 1 × 0.2; remembers 1');
  near(m(2, 90), 0.3, 'below the band (0.5..1): the whole increment');
  near(m(3, 90), 0.4, 'still below');
  near(m(4, 90), 0.5, 'still below');
  near(m(5, 90), 0.6, 'at the band\'s edge: (1 - 0.5) / 0.5 of the increment = the whole of it');
  near(m(6, 200), 0.3, 'overloaded at 0.6: 0.6 × 0.5; remembers 0.6');
  near(m(7, 90), 0.4, 'below the band (0.3..0.6): whole step');
  near(m(8, 90), 0.4 + 0.1 * (0.2 / 0.3), 'inside the band: the step shrinks with the distance left');
  let x = 0.4 + 0.1 * (0.2 / 0.3);
  x += 0.1 * Math.max(0.25, (0.6 - x) / 0.3);
  near(m(9, 90), x, 'closer, smaller');
  for (let t = 10; x < 0.6; t++) {
    const step = 0.1 * Math.max(0.25, (0.6 - x) / 0.3);
    assert.ok(step >= 0.025 - 1e-12, 'never below min_increment_fraction of the increment');
    x += step;
    near(m(t, 90), x, `tick ${t}`);
  }
  near(m(100, 90), x + 0.3, 'past the remembered multiplier without an overload: forgotten, increment_factor_past × the increment');
  near(m(101, 90), x + 0.6, 'and so on until the next overload');
  const before = x + 0.6;
  near(m(102, 200), before * 0.5, 'a new overload remembers the multiplier in force');
  near(m(103, 90), before * 0.5 + 0.1, 'below its band: the whole increment, no longer × increment_factor_past');
  const plain = compilePolicy('p', policy([variable('LAT'), variable('SET'), adaptive({ parameters: { ...params, recovery_near_last_overload: undefined } })])).createCircuit();
  const pm = (t: number, lat: number) => (plain.tick(t, vars({ LAT: lat, SET: 100 })).decisions.get('root.2') as Extract<PublishedDecision, { kind: 'load_scheduler' }>).load_multiplier;
  pm(1, 500);
  pm(2, 90);
  pm(3, 200);
  near(pm(4, 90), 0.25, 'without it every step is the whole increment: 0.3 × 0.5 + 0.1');
});

test('recovery_near_last_overload: a band or fraction outside (0, 1] is a problem', () => {
  for (const bad of [{ band: 0 }, { band: 1.5 }, { min_increment_fraction: 0 }, { min_increment_fraction: 2 }, { increment_factor_past: 0.5 }, { band: 'x' }, { other: 1 }]) {
    const comp = adaptive();
    (((comp.flow_control as Obj).adaptive_load_scheduler as Obj).parameters as Obj).recovery_near_last_overload = bad;
    const problems = validatePolicy(policy([variable('LAT'), variable('SET'), comp]));
    assert.ok(problems.some((p) => p.path.includes('recovery_near_last_overload')), `${JSON.stringify(bad)}: ${JSON.stringify(problems)}`);
  }
});

test('recovery_headroom: the recovery step shrinks as the signal comes close to the setpoint', () => {
  const comp = adaptive();
  const params = ((comp.flow_control as Obj).adaptive_load_scheduler as Obj).parameters as Obj;
  params.proportional_cut = true;
  params.gradient = { slope: -1, min_gradient: 0.1, max_gradient: 1 };
  params.load_multiplier_linear_increment = 0.1;
  params.recovery_headroom = 0.25;
  const circuit = compilePolicy('p', policy([variable('LAT'), variable('SET'), comp])).createCircuit();
  const d = (t: number, lat: number) => circuit.tick(t, vars({ LAT: lat, SET: 100 })).decisions.get('root.2') as Extract<PublishedDecision, { kind: 'load_scheduler' }>;
  const near = (a: number, b: number, what: string) => assert.ok(Math.abs(a - b) < 1e-9, `${what}: ${a} vs ${b}`);
  near(d(1, 500).load_multiplier, 0.2, 'cut');
  near(d(2, 60).load_multiplier, 0.3, 'signal at 0.6 of the setpoint: (1 - 0.6) / 0.25 > 1, the whole step');
  near(d(3, 90).load_multiplier, 0.34, 'at 0.9: 0.4 of the step');
  near(d(4, 100).load_multiplier, 0.34, 'at the setpoint (no overload): held');
  const invalid = (t: number) => (circuit.tick(t, NONE).decisions.get('root.2') as Extract<PublishedDecision, { kind: 'load_scheduler' }>).load_multiplier;
  near(invalid(5), 0.44, 'an invalid signal: the whole step (a starved service recovers)');
  near(invalid(6), 0.54, 'and again');
  for (const bad of [0, 1.5, -1, 'x']) {
    const c2 = adaptive();
    (((c2.flow_control as Obj).adaptive_load_scheduler as Obj).parameters as Obj).recovery_headroom = bad;
    const problems = validatePolicy(policy([variable('LAT'), variable('SET'), c2]));
    assert.ok(problems.some((p) => p.path.includes('recovery_headroom')), `${String(bad)}: ${JSON.stringify(problems)}`);
  }
});
