import { Type } from '@sinclair/typebox';
import { duration, list, num, obj } from '../schema/fields.js';
import { defineKind, type Publishing, type SignalValue } from './kind.js';
import { samplerContract } from '../published/sampler.js';
import { SamplerParameters, passThroughMembers, publishSampler, samplerDecision } from './sampler.js';
import { StepWalk, declareStepWalkPorts, stepWalkInPorts, stepWalkOutPorts, walkSteps } from './step-walk.js';

const Step = obj(
  {
    target_accept_percentage: Type.Optional(num('The accept percentage (0..100) the step reaches at its end.', { default: 0, minimum: 0, maximum: 100 })),
    duration: duration('How long the move from the previous step\'s target takes (counted in ticks, rounded up; 0s: one tick).', undefined, false),
  },
  'One step: the accept percentage moves linearly from the previous step\'s target to `target_accept_percentage` over `duration`.',
);

const schema = obj(
  {
    in_ports: stepWalkInPorts('Input ports, each true when valid and non-zero (an invalid or absent signal is false): `forward` moves the ramp one tick ahead, `backward` one tick back (both or neither: it stays), `reset` sends it back to the start (before anything else).'),
    out_ports: stepWalkOutPorts('accept_percentage', 'Output ports: the `accept_percentage` the sampler enforces; `at_start` is 1 at the start (until the ramp first moves forward, and again once it walks back to it or is reset), else 0; `at_end` is 1 once the last step is done (until it moves back or is reset), else 0.'),
    parameters: obj(
      {
        sampler: SamplerParameters,
        steps: list(Step, 'The steps (at least one); the ramp starts at the first one\'s target.', { minItems: 1 }),
      },
      'Parameters of the load ramp.',
    ),
    ...passThroughMembers,
  },
  'Ramps the share of flows a sampler accepts through steps, one tick at a time while `forward` is true: from the first step\'s `target_accept_percentage`, linearly to each next step\'s target over its `duration`, holding the last target at the end; `backward` walks it back, `reset` returns it to the start. The agents enforce it as a `sampler` (flows not accepted are turned away, 403; `pass_through_label_values` always pass). Its progress is the `accept_percentage`, `at_start` and `at_end` signals. Aperture\'s load-ramping policies drive `forward` and `reset` from `bool_variable`s whose `config_key` (`start`, `reset`) is set through the dynamic configuration.',
);

export const loadRampKind: Publishing<typeof samplerContract> = defineKind({
  path: ['flow_control', 'load_ramp'],
  publishes: [samplerContract],
  schema,
  keepsState: true,
  compile(spec, ctx) {
    declareStepWalkPorts(ctx, spec.in_ports, 'accept_percentage', spec.out_ports);
    publishSampler(ctx, spec.parameters.sampler, spec, `${ctx.path}.parameters.sampler`);
    const steps = walkSteps(
      spec.parameters.steps.map((s) => ({ target: s.target_accept_percentage ?? 0, durationMs: ctx.durationMs(s.duration, '0s') })),
      ctx.evaluationIntervalMs,
    );
    return {
      createRuntime() {
        const walk = new StepWalk(steps, true);
        return {
          tick([forward, backward, reset]: readonly SignalValue[]) {
            const { value, atStart, atEnd } = walk.tick(forward, backward, reset);
            return { outputs: [value, atStart ? 1 : 0, atEnd ? 1 : 0], decision: samplerDecision(value) };
          },
        };
      },
    };
  },
});
