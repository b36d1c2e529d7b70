import { list, obj } from '../schema/fields.js';
import { InPort, OutputPorts } from '../schema/ports.js';
import { defineKind, type ComponentKind, type SignalValue } from './kind.js';

function schemaOf(what: string) {
  return obj(
    {
      in_ports: obj({ inputs: list(InPort, 'The inputs (at least one).', { minItems: 1 }) }, 'Input ports.'),
      out_ports: OutputPorts,
    },
    `The ${what} of its inputs; invalid when any input is invalid (as in Aperture).`,
  );
}

function kindOf(name: 'min' | 'max', pick: (a: number, b: number) => number): ComponentKind {
  return defineKind({
    path: [name],
    schema: schemaOf(name === 'min' ? 'smallest' : 'largest'),
    compile(spec, ctx) {
      spec.in_ports.inputs.forEach((port, i) => ctx.input(port, `${ctx.path}.in_ports.inputs[${i}]`));
      ctx.output(spec.out_ports.output, `${ctx.path}.out_ports.output`);
      return {
        createRuntime() {
          return {
            tick(inputs: readonly SignalValue[]) {
              let out: SignalValue = null;
              for (const v of inputs) {
                if (v === null) return { outputs: [null] };
                out = out === null ? v : pick(out, v);
              }
              return { outputs: [out] };
            },
          };
        },
      };
    },
  });
}

export const minKind = kindOf('min', Math.min);
export const maxKind = kindOf('max', Math.max);
