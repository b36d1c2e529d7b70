import { Type } from '@sinclair/typebox';
import { obj, str } from '../schema/fields.js';
import { ConstantSignal, OutputPorts, constantValue } from '../schema/ports.js';
import { defineKind, signal } from './kind.js';

const schema = obj(
  {
    constant_output: ConstantSignal,
    config_key: Type.Optional(str('Accepted for Aperture compatibility; Sluice sets variables by their output signal name through the policy API.')),
    out_ports: Type.Optional(OutputPorts),
  },
  'A signal holding `constant_output` until a value is set through the policy API (`POST /v1/policies/{name}/variables/{signal}`).',
);

export const variableKind = defineKind({
  path: ['variable'],
  schema,
  compile(spec, ctx) {
    const out = spec.out_ports?.output;
    ctx.output(out, `${ctx.path}.out_ports.output`);
    if (out === undefined) ctx.problem(`${ctx.path}.out_ports.output`, 'a variable needs an output signal: it is set through the API by that name');
    else ctx.variable(out.signal_name);
    const name = out?.signal_name ?? '';
    const initial = signal(constantValue(spec.constant_output));
    return {
      createRuntime() {
        return {
          tick(_inputs, tick) {
            const set = tick.variables.get(name);
            return { outputs: [set === undefined ? initial : signal(set)] };
          },
        };
      },
    };
  },
});
