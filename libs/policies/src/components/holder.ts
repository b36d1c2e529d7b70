import { Type } from '@sinclair/typebox';
import { duration, obj } from '../schema/fields.js';
import { InPort, OutputPorts } from '../schema/ports.js';
import { defineKind, type SignalValue } from './kind.js';
import { ticksIn, truth } from './tick-helpers.js';

const schema = obj(
  {
    in_ports: Type.Optional(obj({ input: Type.Optional(InPort), reset: Type.Optional(InPort) }, 'Input ports: `input`, and `reset` (true: drop the held value).')),
    out_ports: Type.Optional(OutputPorts),
    hold_for: Type.Optional(duration('How long a value is held (counted in ticks, rounded up).', '5s', true)),
  },
  'Holds the first valid input for `hold_for`, then takes the next valid one; invalid while it holds nothing and the input is invalid. A true `reset` (valid and non-zero) drops the held value at once, and the input of that tick is taken when valid.',
);

export const holderKind = defineKind({
  path: ['holder'],
  schema,
  keepsState: true,
  compile(spec, ctx) {
    ctx.input(spec.in_ports?.input, `${ctx.path}.in_ports.input`);
    ctx.input(spec.in_ports?.reset, `${ctx.path}.in_ports.reset`);
    ctx.output(spec.out_ports?.output, `${ctx.path}.out_ports.output`);
    const holdTicks = ticksIn(ctx.durationMs(spec.hold_for, '5s'), ctx.evaluationIntervalMs);
    return {
      createRuntime() {
        let held: number | undefined;
        let count = 0;
        return {
          tick([input, reset]: readonly SignalValue[]) {
            if (truth(reset) === true) held = undefined;
            let output: SignalValue = null;
            if (held !== undefined) {
              count++;
              if (count >= holdTicks) held = undefined;
              else output = held;
            }
            if (held === undefined && input !== null && input !== undefined) {
              held = input;
              count = 0;
              output = input;
            }
            return { outputs: [output] };
          },
        };
      },
    };
  },
});
