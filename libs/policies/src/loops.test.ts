// Loops of signals: run as Aperture runs them when they pass through a component that keeps state
// (the component of the loop earliest in the list reads the loop's signals one tick late), refused
// when they do not.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { validatePolicy } from './compile.js';
import { c, input, out, s, series, type Obj } from './test-circuit.js';

const mul = (lhs: string, rhs: Obj, to: string): Obj => ({ arithmetic_combinator: { operator: 'mul', in_ports: { lhs: s(lhs), rhs }, out_ports: out(to) } });
const add = (lhs: string, rhs: Obj, to: string): Obj => ({ arithmetic_combinator: { operator: 'add', in_ports: { lhs: s(lhs), rhs }, out_ports: out(to) } });
const integrator = (from: string, to: string, initial = 1): Obj => ({ integrator: { in_ports: { input: s(from) }, out_ports: out(to), initial_value: initial } });
const ticks = (n: number) => Array.from({ length: n }, () => ({}));

test('a loop through an integrator runs: the earliest component of the loop reads it one tick late (invalid at the first tick)', () => {
  // SUM doubles every tick: the integrator (earliest) adds last tick's DELTA = SUM.
  const first = series([integrator('DELTA', 'SUM'), mul('SUM', c(1), 'DELTA')], ticks(4), ['SUM', 'DELTA']);
  assert.deepEqual(first, { SUM: [1, 2, 4, 8], DELTA: [1, 2, 4, 8] });
  // The other way round the multiplier is earliest: it reads last tick's SUM.
  const second = series([mul('SUM', c(1), 'DELTA'), integrator('DELTA', 'SUM')], ticks(4), ['SUM', 'DELTA']);
  assert.deepEqual(second, { SUM: [1, 2, 4, 8], DELTA: [null, 1, 2, 4] });
  // An integrator reading its own output.
  assert.deepEqual(series([integrator('SELF', 'SELF')], ticks(4), ['SELF']).SELF, [1, 2, 4, 8]);
});

test('loops sharing components are broken one after the other, each at its earliest component', () => {
  // 0 → 1 → 0 and 1 → 2 → 1 through the integrator: 0 reads S1 late; then 1 (earliest of what is left) reads S2 late.
  const components = [add('S1', c(1), 'S0'), { integrator: { in_ports: { input: s('S0'), max: s('S2') }, out_ports: out('S1'), initial_value: 1 } }, mul('S1', c(10), 'S2')];
  assert.deepEqual(series(components, ticks(3), ['S0', 'S1', 'S2']), { S0: [null, 2, 4], S1: [1, 3, 7], S2: [10, 30, 70] });
  // The bound is last tick's S2: 10 × the sum caps nothing, 2 × the sum does (3 capped to 2, 5 to 4).
  const capped = [add('S1', c(1), 'S0'), { integrator: { in_ports: { input: s('S0'), max: s('S2') }, out_ports: out('S1'), initial_value: 1 } }, mul('S1', c(2), 'S2')];
  assert.deepEqual(series(capped, ticks(3), ['S1']).S1, [1, 2, 4]);
});

test('the scale-out cooldown loop of Aperture\'s auto-scaler (a holder reset by a decision on its own output) runs', () => {
  // HOLD holds INTENT for 3 ticks, unless INTENT exceeds 2 × HOLD (an override resets it).
  const components = [
    input('INTENT'),
    mul('HOLD', c(2), 'THRESHOLD'),
    { decider: { operator: 'gt', in_ports: { lhs: s('INTENT'), rhs: s('THRESHOLD') }, out_ports: out('OVERRIDE') } },
    { holder: { in_ports: { input: s('INTENT'), reset: s('OVERRIDE') }, out_ports: out('HOLD'), hold_for: '3s' } },
  ];
  const got = series(components, [{ INTENT: 2 }, { INTENT: 3 }, { INTENT: 5 }, { INTENT: 3 }, { INTENT: 3 }, { INTENT: 3 }], ['HOLD', 'OVERRIDE']);
  // Tick 2: 5 > 2 × 2 (last tick's HOLD, read late by the multiplier, the loop's earliest): reset, 5 is taken.
  assert.deepEqual(got.HOLD, [2, 2, 5, 5, 5, 3]);
  assert.deepEqual(got.OVERRIDE, [0, 0, 1, 0, 0, 0]);
});

test('a loop through stateless components only is refused, also when a stateful loop shares a component with it', () => {
  const [plain] = validatePolicy({ circuit: { components: [add('B', c(1), 'A'), add('A', c(1), 'B')] } });
  assert.equal(plain.path, 'spec.circuit.components[0].arithmetic_combinator');
  assert.match(plain.message, /cycle \(root\.0 → root\.1 → root\.0\) through no component that keeps state/);
  // A → B → A has no state, although A → I → A runs through an integrator.
  const mixed = validatePolicy({
    circuit: {
      components: [
        { arithmetic_combinator: { operator: 'add', in_ports: { lhs: s('B'), rhs: s('I') }, out_ports: out('A') } },
        add('A', c(1), 'B'),
        integrator('A', 'I'),
      ],
    },
  });
  assert.equal(mixed.length, 1);
  assert.match(mixed[0].message, /cycle \(root\.0 → root\.1 → root\.0\)/);
  // Through an sma, an ema, a holder, a differentiator, an extrapolator, a signal generator: runs.
  const through: Obj[] = [
    { sma: { in_ports: { input: s('A') }, out_ports: out('B'), parameters: { sma_window: '1s' } } },
    { ema: { in_ports: { input: s('A') }, out_ports: out('B'), parameters: { ema_window: '1s', warmup_window: '0s' } } },
    { holder: { in_ports: { input: s('A') }, out_ports: out('B') } },
    { differentiator: { in_ports: { input: s('A') }, out_ports: out('B') } },
    { extrapolator: { in_ports: { input: s('A') }, out_ports: out('B'), parameters: { max_extrapolation_interval: '1s' } } },
    { signal_generator: { in_ports: { forward: s('A') }, out_ports: out('B'), parameters: { steps: [{ target_output: { value: 1 }, duration: '1s' }] } } },
  ];
  for (const part of through) assert.deepEqual(validatePolicy({ circuit: { components: [part, add('B', c(1), 'A')] } }), [], JSON.stringify(part));
});
