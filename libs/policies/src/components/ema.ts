import { Type } from '@sinclair/typebox';
import { bool, duration, num, obj } from '../schema/fields.js';
import { InPort, OutputPorts } from '../schema/ports.js';
import { defineKind, type SignalValue } from './kind.js';

const schema = obj(
  {
    in_ports: obj(
      { input: Type.Optional(InPort), max_envelope: Type.Optional(InPort), min_envelope: Type.Optional(InPort) },
      'Input ports: `input`, and optional envelopes the average is corrected towards.',
    ),
    out_ports: Type.Optional(OutputPorts),
    parameters: obj(
      {
        ema_window: duration('The averaging window: each tick weighs 2·Δt / (window + Δt).', undefined, true),
        warmup_window: duration('The first values are averaged plainly over this window before the exponential average starts.', undefined, false),
        correction_factor_on_min_envelope_violation: Type.Optional(num('Multiplies the average while it is below min_envelope (≥ 1).', { default: 1, minimum: 1 })),
        correction_factor_on_max_envelope_violation: Type.Optional(num('Multiplies the average while it is above max_envelope (0..1).', { default: 1, minimum: 0, maximum: 1 })),
        valid_during_warmup: Type.Optional(bool('Output the plain average during the warm-up (else invalid).', false)),
      },
      'Parameters of the moving average.',
    ),
  },
  'An exponential moving average of its input, over time (ticks weigh by the time since the previous one); invalid inputs are skipped.',
);

export const emaKind = defineKind({
  path: ['ema'],
  keepsState: true,
  schema,
  compile(spec, ctx) {
    const at = `${ctx.path}.in_ports`;
    ctx.input(spec.in_ports.input, `${at}.input`);
    ctx.input(spec.in_ports.max_envelope, `${at}.max_envelope`);
    ctx.input(spec.in_ports.min_envelope, `${at}.min_envelope`);
    ctx.output(spec.out_ports?.output, `${ctx.path}.out_ports.output`);
    const p = spec.parameters;
    const windowMs = ctx.durationMs(p.ema_window, '1s');
    const warmupMs = ctx.durationMs(p.warmup_window, '0s');
    const onMin = p.correction_factor_on_min_envelope_violation ?? 1;
    const onMax = p.correction_factor_on_max_envelope_violation ?? 1;
    const validDuringWarmup = p.valid_during_warmup ?? false;
    return {
      createRuntime() {
        let startMs: number | undefined;
        let lastMs: number | undefined;
        let sum = 0;
        let count = 0;
        let average: number | undefined;
        let warm = false;
        return {
          tick(inputs: readonly SignalValue[], tick) {
            const [x, maxEnv, minEnv] = inputs;
            if (x !== null && x !== undefined && Number.isFinite(x)) {
              startMs ??= tick.nowMs;
              if (!warm) {
                sum += x;
                count++;
                average = sum / count;
                if (tick.nowMs - startMs >= warmupMs) warm = true;
              } else {
                const dt = Math.max(0, tick.nowMs - (lastMs ?? tick.nowMs));
                const alpha = dt === 0 ? 0 : Math.min(1, (2 * dt) / (windowMs + dt));
                average = (average as number) + alpha * (x - (average as number));
              }
              lastMs = tick.nowMs;
              if (minEnv !== null && minEnv !== undefined && (average as number) < minEnv) average = (average as number) * onMin;
              if (maxEnv !== null && maxEnv !== undefined && (average as number) > maxEnv) average = (average as number) * onMax;
            }
            if (average === undefined || (!warm && !validDuringWarmup)) return { outputs: [null] };
            return { outputs: [average] };
          },
        };
      },
    };
  },
});
