import { Type } from '@sinclair/typebox';
import { duration, obj } from '../schema/fields.js';
import { InPort, OutputPorts } from '../schema/ports.js';
import { defineKind, type SignalValue } from './kind.js';
import { ticksIn } from './tick-helpers.js';

const schema = obj(
  {
    in_ports: Type.Optional(obj({ input: Type.Optional(InPort) }, 'Input ports.')),
    out_ports: Type.Optional(OutputPorts),
    window: Type.Optional(duration('The window, counted in ticks (rounded up): the readings of its last ticks are kept.', '5s', true)),
  },
  'The change of its input per tick over the window: (newest − oldest reading kept) ÷ the window in ticks, as in Aperture. An invalid oldest reading is replaced by the next valid one; an invalid newest one by a linear extrapolation of the valid ones. Invalid until two readings are kept, and when no two valid readings are found. (Deprecated in Aperture.)',
);

/** Go's modulo for a positive divisor, never negative. */
const mod = (a: number, n: number): number => ((a % n) + n) % n;

export const differentiatorKind = defineKind({
  path: ['differentiator'],
  schema,
  keepsState: true,
  compile(spec, ctx) {
    ctx.input(spec.in_ports?.input, `${ctx.path}.in_ports.input`);
    ctx.output(spec.out_ports?.output, `${ctx.path}.out_ports.output`);
    const capacity = Math.max(1, ticksIn(ctx.durationMs(spec.window, '5s'), ctx.evaluationIntervalMs));
    return {
      createRuntime() {
        // A ring of the last `capacity` readings, as Aperture keeps them.
        const readings: SignalValue[] = new Array<SignalValue>(capacity).fill(null);
        let oldestIdx = 0;
        let newestIdx = 0;
        /** The first valid reading from `from` (excluded) going forward or backward round the ring. */
        const firstValid = (from: number, step: 1 | -1): [SignalValue, number] => {
          let idx = mod(from + step, capacity);
          for (let i = 0; i < capacity; i++) {
            if (readings[idx] !== null) return [readings[idx], idx];
            idx = mod(idx + step, capacity);
          }
          return [null, idx];
        };
        return {
          tick([input]: readonly SignalValue[]) {
            readings[newestIdx] = input ?? null;
            let output: SignalValue = null;
            if (oldestIdx !== newestIdx) {
              let [oldest, oIdx] = [readings[oldestIdx], oldestIdx];
              let [newest, nIdx] = [readings[newestIdx], newestIdx];
              if (oldest === null) [oldest, oIdx] = firstValid(oldestIdx, 1);
              if (newest === null) {
                const [found, fIdx] = firstValid(newestIdx, -1);
                if (found !== null && oldest !== null && fIdx !== oIdx) {
                  const extIdx = mod(fIdx + 1, capacity);
                  newest = oldest + ((extIdx - oIdx) / (fIdx - oIdx)) * (found - oldest);
                  nIdx = fIdx;
                }
              }
              if (oldest !== null && newest !== null && nIdx !== oIdx) output = (newest - oldest) / capacity;
            }
            newestIdx = mod(newestIdx + 1, capacity);
            if (newestIdx === oldestIdx) oldestIdx = mod(oldestIdx + 1, capacity);
            return { outputs: [output] };
          },
        };
      },
    };
  },
});
