import { Type } from '@sinclair/typebox';
import { obj, str } from '../schema/fields.js';
import { ConstantSignal, OutputPorts, constantValue } from '../schema/ports.js';
import { defineKind, signal } from './kind.js';

const schema = obj(
  {
    constant_output: ConstantSignal,
    config_key: Type.Optional(str('The dynamic-configuration key whose number sets the variable (`POST /v1/dynamic-configs/{policy}`, or the Policy\'s `dynamicConfig`); the policy API also sets it by its output signal name.')),
    out_ports: Type.Optional(OutputPorts),
  },
  'A signal holding `constant_output` until a value is set through the dynamic configuration (`config_key`) or the policy API (`POST /v1/policies/{name}/variables/{signal}`); the last one set holds.',
);

export const variableKind = defineKind({
  path: ['variable'],
  schema,
  compile(spec, ctx) {
    const out = spec.out_ports?.output;
    ctx.output(out, `${ctx.path}.out_ports.output`);
    if (out === undefined) ctx.problem(`${ctx.path}.out_ports.output`, 'a variable needs an output signal: it is set through the API by that name');
    else {
      ctx.variable(out.signal_name);
      ctx.configKey(spec.config_key, `${ctx.path}.config_key`, 'number', { variable: out.signal_name });
    }
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
