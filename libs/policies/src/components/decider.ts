import { Type } from '@sinclair/typebox';
import { duration, obj, strEnum } from '../schema/fields.js';
import { InPort, OutputPorts } from '../schema/ports.js';
import { defineKind, type SignalValue } from './kind.js';

const OPERATORS = ['gt', 'lt', 'gte', 'lte', 'eq', 'neq'] as const;
type Operator = (typeof OPERATORS)[number];

const schema = obj(
  {
    in_ports: obj({ lhs: InPort, rhs: InPort }, 'The two operands.'),
    out_ports: OutputPorts,
    operator: strEnum(OPERATORS, 'The comparison: gt, lt, gte, lte, eq, neq.'),
    true_for: Type.Optional(duration('How long the comparison must hold true before the output turns 1.', '0s', false)),
    false_for: Type.Optional(duration('How long the comparison must hold false before the output turns 0 (a change back cancels a pending one).', '0s', false)),
  },
  'Compares lhs with rhs: output 1 when true, 0 when false or when an input is invalid (as in Aperture).',
);

function compare(op: Operator, a: number, b: number): boolean {
  switch (op) {
    case 'gt':
      return a > b;
    case 'lt':
      return a < b;
    case 'gte':
      return a >= b;
    case 'lte':
      return a <= b;
    case 'eq':
      return a === b;
    case 'neq':
      return a !== b;
  }
}

export const deciderKind = defineKind({
  path: ['decider'],
  schema,
  compile(spec, ctx) {
    ctx.input(spec.in_ports.lhs, `${ctx.path}.in_ports.lhs`);
    ctx.input(spec.in_ports.rhs, `${ctx.path}.in_ports.rhs`);
    ctx.output(spec.out_ports.output, `${ctx.path}.out_ports.output`);
    const op = spec.operator;
    const trueForMs = ctx.durationMs(spec.true_for, '0s');
    const falseForMs = ctx.durationMs(spec.false_for, '0s');
    return {
      createRuntime() {
        // The output, and since when the comparison has disagreed with it (undefined: it agrees).
        let output: boolean | undefined;
        let pendingSince: number | undefined;
        return {
          tick(inputs: readonly SignalValue[], tick) {
            const [a, b] = inputs;
            const now = a !== null && a !== undefined && b !== null && b !== undefined && compare(op, a, b);
            if (output === undefined || now === output) {
              // The first comparison is settled at once; an agreeing one cancels what was pending.
              output = now;
              pendingSince = undefined;
            } else {
              pendingSince ??= tick.nowMs;
              if (tick.nowMs - pendingSince >= (now ? trueForMs : falseForMs)) {
                output = now;
                pendingSince = undefined;
              }
            }
            return { outputs: [output ? 1 : 0] };
          },
        };
      },
    };
  },
});
