import { Type } from '@sinclair/typebox';
import { num, obj } from '../schema/fields.js';
import { InPort, OutputPorts } from '../schema/ports.js';
import { defineKind, type SignalValue } from './kind.js';
import { truth } from './tick-helpers.js';

const schema = obj(
  {
    in_ports: Type.Optional(
      obj(
        { input: Type.Optional(InPort), reset: Type.Optional(InPort), max: Type.Optional(InPort), min: Type.Optional(InPort) },
        'Input ports: `input` (added), `reset` (true: back to 0), `max` and `min` (bounds of the sum, when valid).',
      ),
    ),
    out_ports: Type.Optional(OutputPorts),
    initial_value: Type.Optional(num('The sum before the first step.', { default: 0 })),
  },
  'Sums its input over ticks: a step adds the input when valid, then bounds the sum by `max` and `min` when valid; a true `reset` (valid and non-zero) sets it to 0 instead. One step per tick, starting from `initial_value`. Never invalid.',
);

export const integratorKind = defineKind({
  path: ['integrator'],
  schema,
  keepsState: true,
  compile(spec, ctx) {
    const at = `${ctx.path}.in_ports`;
    ctx.input(spec.in_ports?.input, `${at}.input`);
    ctx.input(spec.in_ports?.reset, `${at}.reset`);
    ctx.input(spec.in_ports?.max, `${at}.max`);
    ctx.input(spec.in_ports?.min, `${at}.min`);
    ctx.output(spec.out_ports?.output, `${ctx.path}.out_ports.output`);
    const initial = spec.initial_value ?? 0;
    return {
      createRuntime() {
        let sum = initial;
        return {
          tick([input, reset, max, min]: readonly SignalValue[]) {
            if (truth(reset) === true) sum = 0;
            else if (input !== null && input !== undefined) {
              sum += input;
              if (max !== null && max !== undefined) sum = Math.min(sum, max);
              if (min !== null && min !== undefined) sum = Math.max(sum, min);
            }
            return { outputs: [Number.isNaN(sum) ? null : sum] };
          },
        };
      },
    };
  },
});
