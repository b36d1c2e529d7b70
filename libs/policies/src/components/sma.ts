import { Type } from '@sinclair/typebox';
import { bool, duration, obj } from '../schema/fields.js';
import { InPort, OutputPorts } from '../schema/ports.js';
import { defineKind, type SignalValue } from './kind.js';

const schema = obj(
  {
    in_ports: Type.Optional(obj({ input: Type.Optional(InPort) }, 'Input ports.')),
    out_ports: Type.Optional(OutputPorts),
    parameters: obj(
      {
        sma_window: duration('The window: the average is over its last `sma_window ÷ evaluation_interval` valid inputs (rounded down, at least 1).', undefined, true),
        valid_during_warmup: Type.Optional(bool('Answer the average of the inputs so far while the window fills (else invalid).', false)),
      },
      'Parameters of the moving average.',
    ),
  },
  'The simple moving average of its last valid inputs. An invalid input repeats the last valid output, until invalid inputs as many as the window in a row empty it (then invalid, and it fills again).',
);

export const smaKind = defineKind({
  path: ['sma'],
  schema,
  keepsState: true,
  compile(spec, ctx) {
    ctx.input(spec.in_ports?.input, `${ctx.path}.in_ports.input`);
    ctx.output(spec.out_ports?.output, `${ctx.path}.out_ports.output`);
    const window = Math.max(1, Math.floor(ctx.durationMs(spec.parameters.sma_window, '1s') / ctx.evaluationIntervalMs));
    const validDuringWarmup = spec.parameters.valid_during_warmup ?? false;
    return {
      createRuntime() {
        let buffer: number[] = [];
        let lastGood: SignalValue = null;
        let invalidInARow = 0;
        return {
          tick([input]: readonly SignalValue[]) {
            let output: SignalValue;
            if (input !== null && input !== undefined) {
              buffer.push(input);
              if (buffer.length > window) buffer.shift();
              if (buffer.length === window || validDuringWarmup) {
                output = buffer.reduce((a, b) => a + b, 0) / buffer.length;
                invalidInARow = 0;
              } else output = null;
            } else {
              invalidInARow++;
              if (invalidInARow >= window) {
                buffer = [];
                invalidInARow = 0;
                output = null;
              } else output = lastGood;
            }
            if (output !== null && !Number.isNaN(output)) lastGood = output;
            return { outputs: [output] };
          },
        };
      },
    };
  },
});
