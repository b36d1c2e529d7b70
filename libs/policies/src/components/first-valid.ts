import { list, obj } from '../schema/fields.js';
import { InPort, OutputPorts } from '../schema/ports.js';
import { defineKind, type SignalValue } from './kind.js';

const schema = obj(
  {
    in_ports: obj({ inputs: list(InPort, 'The inputs, in order of preference (at least one).', { minItems: 1 }) }, 'Input ports.'),
    out_ports: OutputPorts,
  },
  'The first valid input; invalid when all are invalid.',
);

export const firstValidKind = defineKind({
  path: ['first_valid'],
  schema,
  compile(spec, ctx) {
    spec.in_ports.inputs.forEach((port, i) => ctx.input(port, `${ctx.path}.in_ports.inputs[${i}]`));
    ctx.output(spec.out_ports.output, `${ctx.path}.out_ports.output`);
    return {
      createRuntime() {
        return {
          tick(inputs: readonly SignalValue[]) {
            return { outputs: [inputs.find((v) => v !== null) ?? null] };
          },
        };
      },
    };
  },
});
