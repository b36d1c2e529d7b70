import { Type } from '@sinclair/typebox';
import { duration, list, obj } from '../schema/fields.js';
import { ConstantSignal, InPort, OutPort, constantValue } from '../schema/ports.js';
import { defineKind, signal, type SignalValue } from './kind.js';
import { ticksIn, truth } from './tick-helpers.js';

const Step = obj(
  {
    target_output: Type.Optional(ConstantSignal),
    duration: duration('How long the step lasts (counted in ticks, rounded up; 0s: one tick).', undefined, false),
  },
  'One step: the output moves linearly from the previous step\'s target to `target_output` over `duration` (a special value, NaN or ±Inf, is not interpolated: it holds for the whole step).',
);

const schema = obj(
  {
    in_ports: Type.Optional(
      obj(
        { forward: Type.Optional(InPort), backward: Type.Optional(InPort), reset: Type.Optional(InPort) },
        'Input ports, each true when valid and non-zero: `forward` steps ahead, `backward` steps back (neither or both: it stays), `reset` goes back to the start.',
      ),
    ),
    out_ports: Type.Optional(
      obj(
        {
          output: Type.Optional(OutPort),
          at_start: Type.Optional(OutPort),
          at_end: Type.Optional(OutPort),
        },
        'Output ports: `output`, and `at_start` / `at_end` (1 at the first / last tick of the steps, else 0).',
      ),
    ),
    parameters: obj({ steps: list(Step, 'The steps (at least one).', { minItems: 1 }) }, 'Parameters of the signal generator.'),
  },
  'Generates a signal from steps, moved through one tick at a time while `forward` is true (or back while `backward` is true); it starts at the first step\'s target and stays at the end.',
);

export const signalGeneratorKind = defineKind({
  path: ['signal_generator'],
  schema,
  keepsState: true,
  compile(spec, ctx) {
    const at = `${ctx.path}.in_ports`;
    ctx.input(spec.in_ports?.forward, `${at}.forward`);
    ctx.input(spec.in_ports?.backward, `${at}.backward`);
    ctx.input(spec.in_ports?.reset, `${at}.reset`);
    const outAt = `${ctx.path}.out_ports`;
    ctx.output(spec.out_ports?.output, `${outAt}.output`);
    ctx.output(spec.out_ports?.at_start, `${outAt}.at_start`);
    ctx.output(spec.out_ports?.at_end, `${outAt}.at_end`);
    const steps = spec.parameters.steps.map((s) => {
      const target = s.target_output === undefined ? 0 : constantValue(s.target_output);
      const ms = ctx.durationMs(s.duration, '0s');
      return { target, interpolable: Number.isFinite(target), ticks: ms === 0 ? 1 : ticksIn(ms, ctx.evaluationIntervalMs) };
    });
    return {
      createRuntime() {
        let step = 0;
        let count = 0;
        let atStart = true;
        let atEnd = false;
        return {
          tick([forwardIn, backwardIn, resetIn]: readonly SignalValue[]) {
            const forward = truth(forwardIn) === true;
            const backward = truth(backwardIn) === true;
            if (truth(resetIn) === true) {
              step = 0;
              count = 0;
              atStart = true;
              atEnd = false;
            } else if (forward && !backward) {
              atStart = false;
              if (!atEnd) {
                count++;
                if (count === steps[step].ticks) {
                  step++;
                  if (step >= steps.length) {
                    step = steps.length - 1;
                    atEnd = true;
                    count = steps[step].ticks - 1;
                  } else count = 0;
                }
              }
            } else if (backward && !forward) {
              atEnd = false;
              if (!atStart) {
                count--;
                if (count === -1) {
                  step--;
                  if (step < 0) {
                    step = 0;
                    atStart = true;
                    count = 0;
                  } else count = steps[step].ticks - 1;
                }
              }
            }
            const current = steps[step];
            let value = current.target;
            const previous = steps[step - 1];
            if (current.interpolable && previous !== undefined && previous.interpolable && previous.target !== value) {
              value = previous.target + (value - previous.target) * (count / current.ticks);
            }
            return { outputs: [signal(value), atStart ? 1 : 0, atEnd ? 1 : 0] };
          },
        };
      },
    };
  },
});
