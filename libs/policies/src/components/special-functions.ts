import j0 from '@stdlib/math-base-special-besselj0';
import j1 from '@stdlib/math-base-special-besselj1';
import y0 from '@stdlib/math-base-special-bessely0';
import y1 from '@stdlib/math-base-special-bessely1';
import erf from '@stdlib/math-base-special-erf';
import erfc from '@stdlib/math-base-special-erfc';
import erfcinv from '@stdlib/math-base-special-erfcinv';
import erfinv from '@stdlib/math-base-special-erfinv';
import gamma from '@stdlib/math-base-special-gamma';
import gammaln from '@stdlib/math-base-special-gammaln';

/** The special functions of Go's math package that JavaScript's Math lacks. */
export const special = {
  erf,
  erfc,
  erfinv,
  erfcinv,
  gamma,
  /** ln|Γ(x)|. */
  lgamma: gammaln,
  j0,
  j1,
  y0,
  y1,
} satisfies Record<string, (x: number) => number>;
