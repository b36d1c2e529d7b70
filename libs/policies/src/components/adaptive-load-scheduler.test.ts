import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compilePolicy, validatePolicy } from '../compile.js';
import type { PublishedDecision } from '../published.js';
import { incomingTokenRateQuery, keptRateMultiplier } from './adaptive-load-scheduler.js';

type Obj = Record<string, unknown>;
type LoadDecision = Extract<PublishedDecision, { kind: 'load_scheduler' }>;
const s = (name: string) => ({ signal_name: name });
const variable = (name: string) => ({ variable: { constant_output: { special_value: 'NaN' }, out_ports: { output: s(name) } } });

function policy(parameters: Obj = {}, outPorts: Obj = {}): Obj {
  return {
    circuit: {
      evaluation_interval: '1s',
      components: [variable('LAT'), variable('SET'), {
        flow_control: {
          adaptive_load_scheduler: {
            in_ports: { signal: s('LAT'), setpoint: s('SET') },
            out_ports: { desired_load_multiplier: s('DESIRED'), observed_load_multiplier: s('OBSERVED'), ...outPorts },
            parameters: {
              gradient: { slope: -1, min_gradient: 0.1, max_gradient: 1 },
              proportional_cut: true,
              load_multiplier_linear_increment: 0.01,
              max_load_multiplier: 1.2,
              keep_admitted_rate: { window: '3s', evaluation_interval: '0.5s' },
              load_scheduler: { selectors: [{ control_point: 'ingress' }] },
              ...parameters,
            },
          },
        },
      }],
    },
  };
}

/** A circuit ticked with a latency, a setpoint of 100 and an incoming token rate (undefined: the query failed). */
function loop(spec: Obj) {
  const circuit = compilePolicy('p', spec).createCircuit();
  let t = 0;
  return (lat: number, rate: number | undefined) => {
    const r = circuit.tick(t++ * 1000, {
      promql: new Map(rate === undefined ? [] : [['root.2', rate]]),
      variables: new Map([['LAT', lat], ['SET', 100]]),
    });
    return { d: r.decisions.get('root.2') as LoadDecision, signals: r.signals };
  };
}

const near = (a: number, b: number, what: string) => assert.ok(Math.abs(a - b) < 1e-9, `${what}: ${a} vs ${b}`);

test('keep_admitted_rate: the controller reads the agents\' incoming token rate of this component through PromQL', () => {
  const compiled = compilePolicy('adaptive-load', policy());
  assert.deepEqual(compiled.promql, [{
    id: 'root.2',
    query: 'sum(max_over_time(sluice_scheduler_incoming_token_rate{policy_name="adaptive-load",component_id="root.2"}[3000ms]))',
    evaluationIntervalMs: 500,
  }]);
  assert.equal(compilePolicy('p', policy({ keep_admitted_rate: {} })).promql[0].query,
    'sum(max_over_time(sluice_scheduler_incoming_token_rate{policy_name="p",component_id="root.2"}[10000ms]))', 'default window 10 s');
  assert.equal(compilePolicy('p', policy({ keep_admitted_rate: {} })).promql[0].evaluationIntervalMs, 1000, 'default interval 1 s');
  assert.deepEqual(compilePolicy('p', policy({ keep_admitted_rate: undefined })).promql, [], 'without it (as in Aperture) nothing is queried');
  assert.equal(compilePolicy('p', policy({ keep_admitted_rate: undefined }, { incoming_token_rate: s('IN') })).promql.length, 1, 'the out port alone reads it too');
  assert.equal(incomingTokenRateQuery('a"b', 'root.0', 1500), 'sum(max_over_time(sluice_scheduler_incoming_token_rate{policy_name="a\\"b",component_id="root.0"}[1500ms]))', 'label values are quoted');
});

test('keep_admitted_rate: when the demand falls the multiplier rises to admit the same rate, recovery steps count in the overload\'s rate', () => {
  const tick = loop(policy());
  assert.deepEqual(tick(50, 60).d, { kind: 'load_scheduler', load_multiplier: 1.2, pass_through: true });
  near(tick(1000, 60).d.load_multiplier, 0.1, 'overload at 60 tokens/s from pass-through: cut to min_gradient; admits 6 tokens/s');
  near(tick(90, 60).d.load_multiplier, 0.11, 'recovery at the same demand: the plain step');
  near(tick(90, 30).d.load_multiplier, 0.12 * 2, 'half the demand: twice the share, the same 7.2 tokens/s');
  near(tick(90, undefined).d.load_multiplier, 0.13 * 2, 'a failed reading keeps the last one');
  near(tick(90, 120).d.load_multiplier, 0.14, 'a demand above the overload\'s: the multiplier itself, as in Aperture');
  const r = tick(90, 10);
  near(r.d.load_multiplier, 0.15 * 6, 'a sixth of the demand: 0.9 of it admitted (9 tokens/s)');
  assert.equal(r.d.pass_through, false);
  near(r.signals.OBSERVED as number, 0.14, 'observed: the multiplier in force before this tick');
  near(tick(90, 10).d.load_multiplier, 0.16 * 6, 'each step adds 0.01 of 60 tokens/s: 0.06 of the new demand');
  near(tick(90, 10).d.load_multiplier, 0.17 * 6, 'and again');
  near(tick(90, 10).d.load_multiplier, 0.18 * 6, 'and again');
  near(tick(90, 10).d.load_multiplier, 0.19 * 6, 'and again');
  assert.deepEqual(tick(90, 10).d, { kind: 'load_scheduler', load_multiplier: 1.2, pass_through: false }, '0.2 × 6 reaches max_load_multiplier: everything admitted');
  near(tick(90, 60).d.load_multiplier, 0.21, 'not pass-through: when the demand comes back, so does the limit');
  for (let i = 0; i < 98; i++) assert.equal(tick(90, 10).d.pass_through, false);
  assert.deepEqual(tick(90, 10).d, { kind: 'load_scheduler', load_multiplier: 1.2, pass_through: true }, 'pass-through once the multiplier itself reaches max_load_multiplier');
});

test('keep_admitted_rate: a new overload carries the rate in force over; the reference is the highest demand at an overload\'s start', () => {
  const tick = loop(policy({ max_load_multiplier: 2 }));
  tick(50, 60);
  near(tick(200, 60).d.load_multiplier, 0.5, 'overload at 60: 1 × (200/100)^-1');
  near(tick(90, 20).d.load_multiplier, 0.51 * 3, 'a third of the demand: 1.53 of it (30.6 tokens/s)');
  near(tick(400, 20).d.load_multiplier, 1.53 * 0.25, 'overloaded again at 20 tokens/s: the 1.53 in force × (400/100)^-1');
  near(tick(90, 20).d.load_multiplier, 1.53 * 0.25 + 0.01 * 3, 'the step still counts in 60 tokens/s: 0.03 of 20');
  for (let i = 0; i < 200; i++) tick(90, 20);
  assert.equal(tick(90, 20).d.pass_through, true, 'recovered');
  near(tick(200, 20).d.load_multiplier, 0.5, 'an overload from pass-through at a lower demand: half of it');
  near(tick(90, 20).d.load_multiplier, 0.5 + 0.03, 'recovers at the steps of 60 tokens/s, not of 20 (a blip costs seconds, not minutes)');
  for (let i = 0; i < 200; i++) tick(90, 20);
  near(tick(200, 120).d.load_multiplier, 0.5, 'an overload at twice the reference: half of it');
  near(tick(90, 120).d.load_multiplier, 0.51, 'the reference rose to 120: steps of 0.01 of it');
  near(tick(90, 60).d.load_multiplier, 0.52 * 2, 'half the demand: twice the share');
});

test('keep_admitted_rate: no demand at all returns to pass-through; a zero multiplier stays zero until recovery steps', () => {
  const tick = loop(policy({ gradient: { slope: -1, min_gradient: 0, max_gradient: 1 } }));
  tick(50, 60);
  near(tick(1e9, 60).d.load_multiplier, 1e-7, 'a huge reading cuts close to zero');
  assert.deepEqual(tick(90, 0).d, { kind: 'load_scheduler', load_multiplier: 1.2, pass_through: false }, 'no demand (a pause): the maximum, not pass-through');
  near(tick(90, 60).d.load_multiplier, 1e-7 + 0.02, 'the demand is back: so is the limit, without a new overload');
  assert.equal(keptRateMultiplier(0, 60, 0, 2), 0, 'a zero multiplier is not made infinite by a zero demand');
  assert.equal(keptRateMultiplier(0.5, 60, 0, 2), 2, 'nothing arriving: the maximum');
  assert.equal(keptRateMultiplier(0.5, undefined, 10, 2), 0.5, 'no reference yet: the multiplier itself');
  assert.equal(keptRateMultiplier(0.5, 60, undefined, 2), 0.5, 'no reading yet: the multiplier itself');
  assert.equal(keptRateMultiplier(0.5, 60, 20, 2), 1.5);
  assert.equal(keptRateMultiplier(0.5, 60, 120, 2), 0.5, 'more demand than the reference: not lowered');
});

test('keep_admitted_rate: without a reading at the overload\'s start it behaves as without it until one arrives', () => {
  const tick = loop(policy());
  tick(50, undefined);
  near(tick(1000, undefined).d.load_multiplier, 0.1, 'cut');
  near(tick(1000, 60).d.load_multiplier, 0.1, 'the first reading during the overload becomes the reference');
  near(tick(90, 30).d.load_multiplier, 0.11 * 2, 'then a falling demand raises the share');
});

test('keep_admitted_rate: after the load drops, everything is admitted within (max × new ÷ old − multiplier) ÷ increment ticks', () => {
  for (const [cut, from, to] of [[0.1, 60, 10], [0.04, 60, 20], [0.3, 100, 50], [0.2, 45, 44]] as const) {
    const tick = loop(policy({ gradient: { slope: -1, min_gradient: cut, max_gradient: 1 } }));
    tick(50, from);
    tick(1e6, from);
    const bound = Math.ceil((1.2 * to / from - cut) / 0.01 + 1e-9);
    let ticks = 0;
    while (tick(50, to).d.load_multiplier < 1.2) {
      ticks++;
      assert.ok(ticks <= bound, `${cut} ${from}->${to}: still limited after ${ticks} ticks (bound ${bound})`);
    }
  }
});

test('keep_admitted_rate and incoming_token_rate: bad values are refused with their path; the out port shows the reading', () => {
  for (const bad of [{ window: '0s' }, { window: 'soon' }, { evaluation_interval: '-1s' }, { evaluation_interval: '10ms' }, { evaluation_interval: 5 }, { other: true }]) {
    const problems = validatePolicy(policy({ keep_admitted_rate: bad }));
    assert.ok(problems.some((p) => p.path.startsWith('spec.circuit.components[2].flow_control.adaptive_load_scheduler.parameters.keep_admitted_rate')), `${JSON.stringify(bad)}: ${JSON.stringify(problems)}`);
  }
  const tick = loop(policy({}, { incoming_token_rate: s('IN') }));
  assert.equal(tick(50, 42).signals.IN, 42);
  assert.equal(tick(50, undefined).signals.IN, null, 'a failed query is invalid on the port (the loop keeps the last value)');
  assert.equal(tick(50, -3).signals.IN, null, 'a negative rate is no reading');
});
