import { obj, strEnum } from '../schema/fields.js';
import { InPort, OutputPorts } from '../schema/ports.js';
import { defineKind, signal, type SignalValue } from './kind.js';
import { special } from './special-functions.js';

/** Go's math.Round: halves away from zero (a zero result keeps the sign of x, as in Go). */
function round(x: number): number {
  const r = Math.sign(x) * Math.round(Math.abs(x));
  return r === 0 ? x * 0 : r;
}

/** Go's math.RoundToEven: halves to the even neighbour. */
function roundToEven(x: number): number {
  if (!Number.isFinite(x) || Math.abs(x % 1) !== 0.5) return round(x);
  return 2 * round(x / 2);
}

/** Each operator of Aperture's unary_operator, as Go's math package computes it. */
const OPERATORS = {
  abs: Math.abs,
  acos: Math.acos,
  acosh: Math.acosh,
  asin: Math.asin,
  asinh: Math.asinh,
  atan: Math.atan,
  atanh: Math.atanh,
  cbrt: Math.cbrt,
  ceil: Math.ceil,
  cos: Math.cos,
  cosh: Math.cosh,
  erf: special.erf,
  erfc: special.erfc,
  erfcinv: special.erfcinv,
  erfinv: special.erfinv,
  exp: Math.exp,
  exp2: (x: number) => 2 ** x,
  expm1: Math.expm1,
  floor: Math.floor,
  gamma: special.gamma,
  j0: special.j0,
  j1: special.j1,
  lgamma: special.lgamma,
  log: Math.log,
  log10: Math.log10,
  log1p: Math.log1p,
  log2: Math.log2,
  round,
  roundtoeven: roundToEven,
  sin: Math.sin,
  sinh: Math.sinh,
  sqrt: Math.sqrt,
  tan: Math.tan,
  tanh: Math.tanh,
  trunc: Math.trunc,
  y0: special.y0,
  y1: special.y1,
} satisfies Record<string, (x: number) => number>;

type Operator = keyof typeof OPERATORS;
const NAMES = Object.keys(OPERATORS) as Operator[];

const schema = obj(
  {
    in_ports: obj({ input: InPort }, 'Input ports.'),
    out_ports: OutputPorts,
    operator: strEnum(NAMES, `The function: ${NAMES.join(', ')} (as Go's math package: lgamma is ln|Γ(x)|, round rounds halves away from zero, roundtoeven to the even neighbour).`),
  },
  'A function of its input. Invalid when the input is, or when the function has no value there (NaN: sqrt or log of a negative number, acos outside -1..1); ±Inf is a valid result (log 0).',
);

export const unaryOperatorKind = defineKind({
  path: ['unary_operator'],
  schema,
  compile(spec, ctx) {
    ctx.input(spec.in_ports.input, `${ctx.path}.in_ports.input`);
    ctx.output(spec.out_ports.output, `${ctx.path}.out_ports.output`);
    const f = OPERATORS[spec.operator];
    return {
      createRuntime() {
        return {
          tick([input]: readonly SignalValue[]) {
            return { outputs: [input === null || input === undefined ? null : signal(f(input))] };
          },
        };
      },
    };
  },
});
