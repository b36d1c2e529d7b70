import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/**
 * A function of @stdlib loaded on its first call: each package pulls in a large tree of modules, so a
 * process (the CLI above all) that never evaluates a special function does not pay for loading them.
 */
function lazy(pkg: string): (x: number) => number {
  let f: ((x: number) => number) | undefined;
  return (x) => {
    f ??= require(pkg) as (x: number) => number;
    return f(x);
  };
}

/** The special functions of Go's math package that JavaScript's Math lacks. */
export const special = {
  erf: lazy('@stdlib/math-base-special-erf'),
  erfc: lazy('@stdlib/math-base-special-erfc'),
  erfinv: lazy('@stdlib/math-base-special-erfinv'),
  erfcinv: lazy('@stdlib/math-base-special-erfcinv'),
  gamma: lazy('@stdlib/math-base-special-gamma'),
  /** ln|Γ(x)|. */
  lgamma: lazy('@stdlib/math-base-special-gammaln'),
  j0: lazy('@stdlib/math-base-special-besselj0'),
  j1: lazy('@stdlib/math-base-special-besselj1'),
  y0: lazy('@stdlib/math-base-special-bessely0'),
  y1: lazy('@stdlib/math-base-special-bessely1'),
} satisfies Record<string, (x: number) => number>;
