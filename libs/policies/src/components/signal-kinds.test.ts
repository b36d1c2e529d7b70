// The stateful signal kinds taken from Aperture 2.8 (sma, integrator, holder, differentiator,
// extrapolator, pulse_generator, signal_generator), tick by tick as Aperture computes them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { c, input, out, outputs, s, series } from '../test-circuit.js';

const near = (actual: (number | null)[], expected: (number | null)[], what = '') => {
  assert.equal(actual.length, expected.length);
  actual.forEach((a, i) => {
    const e = expected[i];
    if (e === null || a === null) assert.equal(a, e, `${what} tick ${i}`);
    else assert.ok(Math.abs(a - e) < 1e-9, `${what} tick ${i}: ${a} ≠ ${e}`);
  });
};

test('sma: the average of the last window of valid inputs; invalid while it fills; an invalid input repeats the last output until the window empties', () => {
  const sma = (extra: Record<string, unknown> = {}) => ({ sma: { in_ports: { input: s('IN') }, out_ports: out('OUT'), parameters: { sma_window: '3s', ...extra } } });
  const ins = [1, 2, 3, 4, null, null, null, 5, 6];
  assert.deepEqual(outputs(sma(), ins), [null, null, 2, 3, 3, 3, null, null, null]);
  assert.deepEqual(outputs(sma({ valid_during_warmup: true }), ins), [1, 1.5, 2, 3, 3, 3, null, 5, 5.5]);
  // The window is counted in ticks, rounded down: 2.5 s at 1 s ticks is 2.
  assert.deepEqual(outputs({ sma: { in_ports: { input: s('IN') }, out_ports: out('OUT'), parameters: { sma_window: '2500ms' } } }, [2, 4, 8]), [null, 3, 6]);
  // Shorter than one tick: a window of one (the input itself).
  assert.deepEqual(outputs({ sma: { in_ports: { input: s('IN') }, out_ports: out('OUT'), parameters: { sma_window: '100ms' } } }, [2, 4, null, 8]), [2, 4, null, 8]);
});

test('integrator: sums valid inputs from initial_value, bounded by max and min when valid; a true reset sets 0; never invalid', () => {
  const integrator = { integrator: { in_ports: { input: s('IN'), max: c(10), min: c(0) }, out_ports: out('OUT'), initial_value: 1 } };
  assert.deepEqual(outputs(integrator, [2, null, 3, 100, -50]), [3, 3, 6, 10, 0]);
  const withReset = [input('IN'), input('R'), { integrator: { in_ports: { input: s('IN'), reset: s('R'), max: s('NOMAX') }, out_ports: out('OUT') } }, input('NOMAX')];
  const got = series(withReset, [{ IN: 1 }, { IN: 1, R: 0 }, { IN: 1, R: 1 }, { IN: 1, R: null }, { IN: null }], ['OUT']).OUT;
  assert.deepEqual(got, [1, 2, 0, 1, 1], 'reset 0 and an invalid reset add; a true reset zeroes; an invalid max bounds nothing');
  assert.deepEqual(outputs({ integrator: { in_ports: { input: s('IN') }, out_ports: out('OUT') } }, [null, null]), [0, 0], 'no valid input yet: initial_value (0), valid');
});

test('holder: holds the first valid input for hold_for ticks, then takes the next; a true reset drops it at once', () => {
  const holder = { holder: { in_ports: { input: s('IN') }, out_ports: out('OUT'), hold_for: '3s' } };
  assert.deepEqual(outputs(holder, [5, 6, null, 7, 8, null, null, null, 9]), [5, 5, 5, 7, 7, 7, null, null, 9]);
  const withReset = [input('IN'), input('R'), { holder: { in_ports: { input: s('IN'), reset: s('R') }, out_ports: out('OUT'), hold_for: '3s' } }];
  const got = series(withReset, [{ IN: 5 }, { IN: 6, R: 1 }, { IN: null, R: 1 }, { IN: 7, R: 0 }, { IN: 8, R: null }], ['OUT']).OUT;
  assert.deepEqual(got, [5, 6, null, 7, 7]);
  // hold_for rounds up to ticks: 1.5 s at 1 s ticks holds for 2.
  assert.deepEqual(outputs({ holder: { in_ports: { input: s('IN') }, out_ports: out('OUT'), hold_for: '1500ms' } }, [1, 2, 3, 4]), [1, 1, 3, 3]);
});

test('differentiator: (newest − oldest reading of the window) ÷ window ticks; an invalid newest is extrapolated; invalid with fewer than two readings', () => {
  const diff = { differentiator: { in_ports: { input: s('IN') }, out_ports: out('OUT'), window: '3s' } };
  near(outputs(diff, [1, 3, 6, 10, 15]), [null, 2 / 3, 5 / 3, 7 / 3, 3]);
  near(outputs(diff, [1, 3, null]), [null, 2 / 3, 4 / 3]);
  near(outputs(diff, [null, 3, 6]), [null, null, 1], 'an invalid oldest is replaced by the next valid reading');
  near(outputs(diff, [null, null, null, null]), [null, null, null, null]);
});

test('extrapolator: the input when valid, the last valid one for up to max_extrapolation_interval, then invalid', () => {
  const ex = { extrapolator: { in_ports: { input: s('IN') }, out_ports: out('OUT'), parameters: { max_extrapolation_interval: '2s' } } };
  assert.deepEqual(outputs(ex, [null, 4, null, null, null, 5, null]), [null, 4, 4, 4, null, 5, 5]);
});

test('pulse_generator: 1 for true_for, 0 for false_for, counted in ticks rounded up, starting with 1', () => {
  const pulse = (trueFor: string, falseFor: string) => [{ pulse_generator: { out_ports: out('OUT'), true_for: trueFor, false_for: falseFor } }];
  const run = (trueFor: string, falseFor: string, n: number, interval = '1s') => series(pulse(trueFor, falseFor), Array.from({ length: n }, () => ({})), ['OUT'], interval).OUT;
  assert.deepEqual(run('2s', '3s', 8), [1, 1, 0, 0, 0, 1, 1, 0]);
  assert.deepEqual(run('1500ms', '500ms', 6), [1, 1, 0, 1, 1, 0]);
  assert.deepEqual(run('1s', '1s', 6, '500ms'), [1, 1, 0, 0, 1, 1]);
  // The defaults are 5 s each.
  assert.deepEqual(series([{ pulse_generator: { out_ports: out('OUT') } }], Array.from({ length: 11 }, () => ({})), ['OUT']).OUT, [1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 1]);
});

test('signal_generator: steps forward while forward is true, back while backward is true; interpolates towards each target; reset goes back to the start', () => {
  const components = [
    input('F'),
    input('B'),
    input('R'),
    {
      signal_generator: {
        in_ports: { forward: s('F'), backward: s('B'), reset: s('R') },
        out_ports: { output: { signal_name: 'OUT' }, at_start: { signal_name: 'START' }, at_end: { signal_name: 'END' } },
        parameters: { steps: [{ target_output: { value: 10 }, duration: '0s' }, { target_output: { value: 20 }, duration: '4s' }] },
      },
    },
  ];
  const ticks: Record<string, number | null>[] = [{}, { F: 1 }, { F: 1 }, { F: 1 }, { F: 1 }, { F: 1 }, { F: 1 }, { F: 1, B: 1 }, { B: 1 }, { B: 1 }, { F: 0, B: null }, { F: 1, R: 1 }];
  const got = series(components, ticks, ['OUT', 'START', 'END']);
  assert.deepEqual(got.OUT, [10, 10, 12.5, 15, 17.5, 17.5, 17.5, 17.5, 15, 12.5, 12.5, 10]);
  assert.deepEqual(got.START, [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]);
  assert.deepEqual(got.END, [0, 0, 0, 0, 0, 1, 1, 1, 0, 0, 0, 0]);
  // A special target is not interpolated: NaN makes the output invalid for its whole step (the first
  // step, of one tick, is left at the first tick).
  const special = [{ signal_generator: { in_ports: { forward: c(1) }, out_ports: out('OUT'), parameters: { steps: [{ target_output: { value: 1 }, duration: '1s' }, { target_output: { special_value: 'NaN' }, duration: '2s' }, { target_output: { value: 3 }, duration: '2s' }] } } }];
  assert.deepEqual(series(special, Array.from({ length: 6 }, () => ({})), ['OUT']).OUT, [null, null, 3, 3, 3, 3]);
});
