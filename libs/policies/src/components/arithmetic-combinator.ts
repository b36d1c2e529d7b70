import { obj, strEnum } from '../schema/fields.js';
import { InPort, OutputPorts } from '../schema/ports.js';
import { defineKind, signal, type SignalValue } from './kind.js';

const OPERATORS = ['add', 'sub', 'mul', 'div', 'xor', 'lshift', 'rshift'] as const;
type Operator = (typeof OPERATORS)[number];

const schema = obj(
  {
    in_ports: obj({ lhs: InPort, rhs: InPort }, 'The two operands.'),
    out_ports: OutputPorts,
    operator: strEnum(OPERATORS, 'add, sub, mul, div (invalid when rhs is 0), xor, lshift, rshift (on the integer parts).'),
  },
  'lhs (operator) rhs; invalid when either input is invalid.',
);

/** Go's int conversion truncates toward zero; bit operations work on 32-bit integers here. */
function apply(op: Operator, a: number, b: number): SignalValue {
  switch (op) {
    case 'add':
      return signal(a + b);
    case 'sub':
      return signal(a - b);
    case 'mul':
      return signal(a * b);
    case 'div':
      return b === 0 ? null : signal(a / b);
    case 'xor':
      return Math.trunc(a) ^ Math.trunc(b);
    case 'lshift':
      return Math.trunc(a) << Math.trunc(b);
    case 'rshift':
      return Math.trunc(a) >> Math.trunc(b);
  }
}

export const arithmeticCombinatorKind = defineKind({
  path: ['arithmetic_combinator'],
  schema,
  compile(spec, ctx) {
    ctx.input(spec.in_ports.lhs, `${ctx.path}.in_ports.lhs`);
    ctx.input(spec.in_ports.rhs, `${ctx.path}.in_ports.rhs`);
    ctx.output(spec.out_ports.output, `${ctx.path}.out_ports.output`);
    const op = spec.operator;
    return {
      createRuntime() {
        return {
          tick(inputs: readonly SignalValue[]) {
            const [a, b] = inputs;
            return { outputs: [a === null || a === undefined || b === null || b === undefined ? null : apply(op, a, b)] };
          },
        };
      },
    };
  },
});
