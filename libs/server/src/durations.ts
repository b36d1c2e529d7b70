import { parseDuration } from '@sluice/config';
import { InvalidArgumentError } from '@sluice/errors';

/** Parse a configuration duration into milliseconds, naming the field on failure. */
export function durationMs(value: string, field: string): number {
  try {
    return parseDuration(value);
  } catch (err) {
    throw new InvalidArgumentError(`${field}: ${(err as Error).message}`, field);
  }
}
