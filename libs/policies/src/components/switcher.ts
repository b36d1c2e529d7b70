import { obj } from '../schema/fields.js';
import { InPort, OutputPorts } from '../schema/ports.js';
import { defineKind, type SignalValue } from './kind.js';

const schema = obj(
  {
    in_ports: obj({ on_signal: InPort, off_signal: InPort, switch: InPort }, 'Input ports.'),
    out_ports: OutputPorts,
  },
  '`on_signal` when `switch` is valid and non-zero, else `off_signal` (an invalid switch selects off, as in Aperture).',
);

export const switcherKind = defineKind({
  path: ['switcher'],
  schema,
  compile(spec, ctx) {
    ctx.input(spec.in_ports.on_signal, `${ctx.path}.in_ports.on_signal`);
    ctx.input(spec.in_ports.off_signal, `${ctx.path}.in_ports.off_signal`);
    ctx.input(spec.in_ports.switch, `${ctx.path}.in_ports.switch`);
    ctx.output(spec.out_ports.output, `${ctx.path}.out_ports.output`);
    return {
      createRuntime() {
        return {
          tick(inputs: readonly SignalValue[]) {
            const [on, off, sw] = inputs;
            return { outputs: [sw !== null && sw !== undefined && sw !== 0 ? (on ?? null) : (off ?? null)] };
          },
        };
      },
    };
  },
});
