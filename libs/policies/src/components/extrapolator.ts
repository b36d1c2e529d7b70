import { Type } from '@sinclair/typebox';
import { duration, obj } from '../schema/fields.js';
import { InPort, OutputPorts } from '../schema/ports.js';
import { defineKind, type SignalValue } from './kind.js';

const schema = obj(
  {
    in_ports: Type.Optional(obj({ input: Type.Optional(InPort) }, 'Input ports.')),
    out_ports: Type.Optional(OutputPorts),
    parameters: obj(
      { max_extrapolation_interval: duration('How long the last valid input is repeated while the input is invalid.', undefined, true) },
      'Parameters of the extrapolator.',
    ),
  },
  'Its input when valid; while it is invalid, the last valid input for up to `max_extrapolation_interval` after it was read, then invalid.',
);

export const extrapolatorKind = defineKind({
  path: ['extrapolator'],
  schema,
  keepsState: true,
  compile(spec, ctx) {
    ctx.input(spec.in_ports?.input, `${ctx.path}.in_ports.input`);
    ctx.output(spec.out_ports?.output, `${ctx.path}.out_ports.output`);
    const maxMs = ctx.durationMs(spec.parameters.max_extrapolation_interval, '1s');
    return {
      createRuntime() {
        let last: SignalValue = null;
        let lastValidMs = Number.NEGATIVE_INFINITY;
        return {
          tick([input]: readonly SignalValue[], tick) {
            if (input !== null && input !== undefined) {
              last = input;
              lastValidMs = tick.nowMs;
              return { outputs: [input] };
            }
            if (tick.nowMs - lastValidMs <= maxMs) return { outputs: [last] };
            last = null;
            return { outputs: [null] };
          },
        };
      },
    };
  },
});
