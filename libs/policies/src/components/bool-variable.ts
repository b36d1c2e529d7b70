import { Type } from '@sinclair/typebox';
import { bool, obj, str } from '../schema/fields.js';
import { OutputPorts } from '../schema/ports.js';
import { defineKind } from './kind.js';

const schema = obj(
  {
    constant_output: Type.Optional(bool('The value until one is set through the policy API.', false)),
    config_key: Type.Optional(str('The dynamic-configuration key whose boolean sets the variable (`POST /v1/dynamic-configs/{policy}`, or the Policy\'s `dynamicConfig`); the policy API also sets it by its output signal name.')),
    out_ports: Type.Optional(OutputPorts),
  },
  'A boolean signal (1 or 0) holding `constant_output` until a value is set through the dynamic configuration (`config_key`) or the policy API (`POST /v1/policies/{name}/variables/{signal}`, by its output signal name; any non-zero value is true); the last one set holds.',
);

export const boolVariableKind = defineKind({
  path: ['bool_variable'],
  schema,
  compile(spec, ctx) {
    const out = spec.out_ports?.output;
    ctx.output(out, `${ctx.path}.out_ports.output`);
    if (out === undefined) ctx.problem(`${ctx.path}.out_ports.output`, 'a bool_variable needs an output signal: it is set through the API by that name');
    else {
      ctx.variable(out.signal_name);
      ctx.configKey(spec.config_key, `${ctx.path}.config_key`, 'boolean', { variable: out.signal_name });
    }
    const name = out?.signal_name ?? '';
    const initial = spec.constant_output ?? false;
    return {
      createRuntime() {
        return {
          tick(_inputs, tick) {
            const set = tick.variables.get(name);
            const value = set === undefined ? initial : set !== 0;
            return { outputs: [value ? 1 : 0] };
          },
        };
      },
    };
  },
});
