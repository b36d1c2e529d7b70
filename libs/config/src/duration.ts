/**
 * Go `time.ParseDuration` syntax: an optionally signed sequence of decimal
 * numbers, each with an optional fraction and a unit (ns, us, µs, ms, s, m, h),
 * such as `300ms`, `-1.5h`, `2h45m`. A bare `0` is allowed. Like Go, a
 * duration longer than 2^63-1 nanoseconds (about 292 years) is refused.
 */
const UNIT_MS: Readonly<Record<string, number>> = {
  ns: 1e-6,
  us: 1e-3,
  'µs': 1e-3,
  'μs': 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

/** Go's largest duration, 2^63-1 nanoseconds (about 292 years), in milliseconds; longer ones do not parse. */
const MAX_MS = 9_223_372_036_854.775;

const PART = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)/y;

/** Go's largest duration as Go prints it. */
export const MAX_DURATION_TEXT = '2562047h47m16.854775807s';

/** Why a text is not a usable duration: `syntax` (not Go duration syntax) or `too-large` (past Go's maximum). */
export type DurationProblem = 'syntax' | 'too-large';

/**
 * What is wrong with a duration text, or undefined when it parses: tells a well-formed
 * duration longer than Go allows (`100000000h`) from one that is not a duration at all.
 */
export function durationProblem(text: string): DurationProblem | undefined {
  if (tryParseDuration(text) !== undefined) return undefined;
  return tryParseDuration(text, Infinity) !== undefined ? 'too-large' : 'syntax';
}

/** A message for a duration text that does not parse, naming the maximum when it is too large. */
export function durationProblemMessage(text: string): string | undefined {
  const p = durationProblem(text);
  if (p === undefined) return undefined;
  return p === 'too-large'
    ? `duration ${JSON.stringify(text)} is too large: at most ${MAX_DURATION_TEXT} (about 292 years)`
    : `invalid duration ${JSON.stringify(text)}: want Go syntax such as 10s, 1m30s, 250ms`;
}

/** Milliseconds of a Go duration string, or undefined when it is not one (or longer than `maxMs`, Go's maximum by default). */
export function tryParseDuration(text: string, maxMs = MAX_MS): number | undefined {
  if (typeof text !== 'string' || text.length === 0) return undefined;
  let i = 0;
  let sign = 1;
  if (text[0] === '-' || text[0] === '+') {
    sign = text[0] === '-' ? -1 : 1;
    i = 1;
  }
  const rest = text.slice(i);
  if (rest === '0') return 0;
  if (rest.length === 0) return undefined;
  let total = 0;
  PART.lastIndex = 0;
  let pos = 0;
  while (pos < rest.length) {
    PART.lastIndex = pos;
    const m = PART.exec(rest);
    if (m === null) return undefined;
    total += Number(m[1]) * (UNIT_MS[m[2] as string] as number);
    if (!(total <= maxMs)) return undefined; // overflows Go's int64 nanoseconds (or Infinity)
    pos = PART.lastIndex;
  }
  return sign * total;
}

/** Milliseconds of a Go duration string; throws a TypeError naming the text otherwise. */
export function parseDuration(text: string): number {
  const ms = tryParseDuration(text);
  if (ms === undefined) throw new TypeError(durationProblemMessage(text) ?? `invalid duration ${JSON.stringify(text)}`);
  return ms;
}

/** A Go-style duration string for milliseconds (`1m30s`, `250ms`, `0s`). */
export function formatDuration(ms: number): string {
  if (ms === 0) return '0s';
  const sign = ms < 0 ? '-' : '';
  let rest = Math.abs(ms);
  if (rest < 1000) return `${sign}${+rest.toFixed(6)}ms`;
  const h = Math.floor(rest / 3_600_000);
  rest -= h * 3_600_000;
  const m = Math.floor(rest / 60_000);
  rest -= m * 60_000;
  const s = +(rest / 1000).toFixed(9);
  return `${sign}${h > 0 ? `${h}h` : ''}${h > 0 || m > 0 ? `${m}m` : ''}${s}s`;
}
