import { InvalidArgumentError } from '@sluice/errors';
import { tryParseDuration } from './duration.js';

/**
 * The longest delay a Node timer honours (2^31 − 1 ms, about 24.8 days);
 * past it, Node fires the timer after 1 ms instead.
 */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Milliseconds of a configured Go duration that becomes a timer or a socket
 * timeout. Go accepts far longer durations than Node's timers do; those mean
 * "practically never" and are capped at MAX_TIMER_MS rather than firing at
 * once. Zero and negative values are returned as they are (their meaning is
 * the field's). An unparsable value throws an InvalidArgumentError naming
 * the field.
 */
export function timerDurationMs(value: string, field: string): number {
  const ms = tryParseDuration(value);
  if (ms === undefined) throw new InvalidArgumentError(`${field}: invalid duration ${JSON.stringify(value)}: want Go syntax such as 10s`, field);
  return Math.min(ms, MAX_TIMER_MS);
}
