import { tryParseDuration } from '@sluice/config';
import { InvalidArgumentError } from '@sluice/errors';

/** Milliseconds of a configured Go duration; an InvalidArgumentError names the field otherwise. */
export function durationMs(value: string, field: string): number {
  const ms = tryParseDuration(value);
  if (ms === undefined) throw new InvalidArgumentError(`invalid duration ${JSON.stringify(value)}: want Go syntax such as 10s`, field);
  return ms;
}
