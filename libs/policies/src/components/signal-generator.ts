import { Type } from '@sinclair/typebox';
import { duration, list, obj } from '../schema/fields.js';
import { ConstantSignal, constantValue } from '../schema/ports.js';
import { defineKind, signal, type SignalValue } from './kind.js';
import { StepWalk, declareStepWalkPorts, stepWalkInPorts, stepWalkOutPorts, walkSteps } from './step-walk.js';

const Step = obj(
  {
    target_output: Type.Optional(ConstantSignal),
    duration: duration('How long the step lasts (counted in ticks, rounded up; 0s: one tick).', undefined, false),
  },
  'One step: the output moves linearly from the previous step\'s target to `target_output` over `duration` (a special value, NaN or ±Inf, is not interpolated: it holds for the whole step).',
);

const schema = obj(
  {
    in_ports: stepWalkInPorts('Input ports, each true when valid and non-zero: `forward` steps ahead, `backward` steps back (neither or both: it stays), `reset` goes back to the start.'),
    out_ports: stepWalkOutPorts('output', 'Output ports: `output`, and `at_start` / `at_end` (1 at the first / last tick of the steps, else 0).'),
    parameters: obj({ steps: list(Step, 'The steps (at least one).', { minItems: 1 }) }, 'Parameters of the signal generator.'),
  },
  'Generates a signal from steps, moved through one tick at a time while `forward` is true (or back while `backward` is true); it starts at the first step\'s target and stays at the end.',
);

export const signalGeneratorKind = defineKind({
  path: ['signal_generator'],
  schema,
  keepsState: true,
  compile(spec, ctx) {
    declareStepWalkPorts(ctx, spec.in_ports, 'output', spec.out_ports);
    const steps = walkSteps(
      spec.parameters.steps.map((s) => ({ target: s.target_output === undefined ? 0 : constantValue(s.target_output), durationMs: ctx.durationMs(s.duration, '0s') })),
      ctx.evaluationIntervalMs,
    );
    return {
      createRuntime() {
        const walk = new StepWalk(steps);
        return {
          tick([forward, backward, reset]: readonly SignalValue[]) {
            const { value, atStart, atEnd } = walk.tick(forward, backward, reset);
            return { outputs: [signal(value), atStart ? 1 : 0, atEnd ? 1 : 0] };
          },
        };
      },
    };
  },
});
