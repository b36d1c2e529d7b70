import { Type } from '@sinclair/typebox';
import { duration, obj } from '../schema/fields.js';
import { OutputPorts } from '../schema/ports.js';
import { defineKind } from './kind.js';
import { ticksIn } from './tick-helpers.js';

const schema = obj(
  {
    out_ports: Type.Optional(OutputPorts),
    true_for: Type.Optional(duration('How long the output stays 1 (counted in ticks, rounded up).', '5s', true)),
    false_for: Type.Optional(duration('How long the output stays 0 (counted in ticks, rounded up).', '5s', true)),
  },
  'A square wave: 1 for `true_for`, then 0 for `false_for`, and again; it starts with 1 at the first tick. Never invalid.',
);

export const pulseGeneratorKind = defineKind({
  path: ['pulse_generator'],
  schema,
  compile(spec, ctx) {
    ctx.output(spec.out_ports?.output, `${ctx.path}.out_ports.output`);
    const trueTicks = ticksIn(ctx.durationMs(spec.true_for, '5s'), ctx.evaluationIntervalMs);
    const falseTicks = ticksIn(ctx.durationMs(spec.false_for, '5s'), ctx.evaluationIntervalMs);
    return {
      createRuntime() {
        let high = true;
        let count = 0;
        return {
          tick() {
            // The tick that completes a phase still answers that phase's value.
            const output = high ? 1 : 0;
            count++;
            if (count >= (high ? trueTicks : falseTicks)) {
              high = !high;
              count = 0;
            }
            return { outputs: [output] };
          },
        };
      },
    };
  },
});
