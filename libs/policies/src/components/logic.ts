import { Type } from '@sinclair/typebox';
import { list, obj } from '../schema/fields.js';
import { InPort, OutputPorts } from '../schema/ports.js';
import { defineKind, type ComponentKind, type SignalValue } from './kind.js';
import { truth, truthSignal } from './tick-helpers.js';

// Aperture's logic is three-valued (Kleene): a signal is true when valid and non-zero, false when 0,
// unknown when invalid; an unknown result is an invalid signal.

function combinator(name: 'and' | 'or', description: string): ComponentKind {
  // `and`: false wins over unknown, which wins over true; `or` the other way round.
  const dominant = name === 'or';
  const schema = obj(
    {
      in_ports: Type.Optional(obj({ inputs: Type.Optional(list(InPort, 'The inputs (none: the neutral element).')) }, 'Input ports.')),
      out_ports: Type.Optional(OutputPorts),
    },
    description,
  );
  return defineKind({
    path: [name],
    schema,
    compile(spec, ctx) {
      const inputs = spec.in_ports?.inputs ?? [];
      inputs.forEach((port, i) => ctx.input(port, `${ctx.path}.in_ports.inputs[${i}]`));
      ctx.output(spec.out_ports?.output, `${ctx.path}.out_ports.output`);
      return {
        createRuntime() {
          return {
            tick(values: readonly SignalValue[]) {
              let unknown = false;
              for (const v of values) {
                const t = truth(v);
                if (t === dominant) return { outputs: [dominant ? 1 : 0] };
                if (t === undefined) unknown = true;
              }
              return { outputs: [unknown ? null : truthSignal(!dominant)] };
            },
          };
        },
      };
    },
  });
}

export const andKind = combinator(
  'and',
  'Logical AND of its inputs (a signal is true when valid and non-zero): 0 when any input is 0; else invalid when any input is invalid; else 1 (also with no inputs).',
);

export const orKind = combinator(
  'or',
  'Logical OR of its inputs (a signal is true when valid and non-zero): 1 when any input is true; else invalid when any input is invalid; else 0 (also with no inputs).',
);

export const inverterKind = defineKind({
  path: ['inverter'],
  schema: obj(
    {
      in_ports: Type.Optional(obj({ input: Type.Optional(InPort) }, 'Input ports.')),
      out_ports: Type.Optional(OutputPorts),
    },
    'Logical NOT: 1 when the input is 0, 0 when it is valid and non-zero, invalid when it is invalid.',
  ),
  compile(spec, ctx) {
    ctx.input(spec.in_ports?.input, `${ctx.path}.in_ports.input`);
    ctx.output(spec.out_ports?.output, `${ctx.path}.out_ports.output`);
    return {
      createRuntime() {
        return {
          tick([input]: readonly SignalValue[]) {
            const t = truth(input);
            return { outputs: [truthSignal(t === undefined ? undefined : !t)] };
          },
        };
      },
    };
  },
});
