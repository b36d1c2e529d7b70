import { Type } from '@sinclair/typebox';
import { bool, num, obj, str } from '../schema/fields.js';
import { InPort, OutputPorts } from '../schema/ports.js';
import { gradientOf } from './gradient.js';
import { defineKind, type SignalValue } from './kind.js';

export const GradientParameters = obj(
  {
    slope: num('How the control variable follows the signal: negative when a higher signal needs a lower control variable (e.g. -1 for latency and load).'),
    min_gradient: Type.Optional(num('The smallest gradient applied.', { default: -Number.MAX_VALUE })),
    max_gradient: Type.Optional(num('The largest gradient applied.', { default: Number.MAX_VALUE })),
  },
  'Parameters of the gradient: `(signal / setpoint) ^ slope`, clamped to [min_gradient, max_gradient].',
  { title: 'GradientParameters' },
);

const schema = obj(
  {
    in_ports: obj(
      {
        signal: Type.Optional(InPort),
        setpoint: Type.Optional(InPort),
        max: Type.Optional(InPort),
        min: Type.Optional(InPort),
        control_variable: Type.Optional(InPort),
      },
      'Input ports: `signal`, `setpoint` and `control_variable` (required for an output); optional `min` and `max` bound the output.',
    ),
    out_ports: Type.Optional(OutputPorts),
    parameters: GradientParameters,
    manual_mode: Type.Optional(bool('Output the control variable unchanged.', false)),
    manual_mode_config_key: Type.Optional(str('The dynamic-configuration key whose boolean sets manual_mode while the policy runs.')),
  },
  'A gradient controller: output = control_variable × (signal / setpoint) ^ slope (the gradient clamped), bounded by min and max; invalid when an input it needs is.',
);

export const gradientControllerKind = defineKind({
  path: ['gradient_controller'],
  schema,
  compile(spec, ctx) {
    const at = `${ctx.path}.in_ports`;
    for (const port of ['signal', 'setpoint', 'max', 'min', 'control_variable'] as const) ctx.input(spec.in_ports[port], `${at}.${port}`);
    ctx.output(spec.out_ports?.output, `${ctx.path}.out_ports.output`);
    const p = spec.parameters;
    const minG = p.min_gradient ?? -Number.MAX_VALUE;
    const maxG = p.max_gradient ?? Number.MAX_VALUE;
    if (minG > maxG) ctx.problem(`${ctx.path}.parameters.min_gradient`, 'must not be above max_gradient');
    const manualKey = spec.manual_mode_config_key;
    ctx.configKey(manualKey, `${ctx.path}.manual_mode_config_key`, 'boolean', { circuit: true });
    return {
      createRuntime() {
        return {
          tick(inputs: readonly SignalValue[], tick) {
            const [signal, setpoint, max, min, cv] = inputs;
            const dynamic = manualKey === undefined ? undefined : tick.dynamic?.get(manualKey);
            const manual = typeof dynamic === 'boolean' ? dynamic : spec.manual_mode ?? false;
            if (cv === null || cv === undefined) return { outputs: [null] };
            let out = cv;
            if (!manual) {
              if (signal === null || signal === undefined || setpoint === null || setpoint === undefined) return { outputs: [null] };
              const g = gradientOf(signal, setpoint, p.slope, minG, maxG);
              if (g === undefined) return { outputs: [null] };
              out = cv * g;
            }
            if (max !== null && max !== undefined) out = Math.min(out, max);
            if (min !== null && min !== undefined) out = Math.max(out, min);
            return { outputs: [Number.isNaN(out) ? null : out] };
          },
        };
      },
    };
  },
});
