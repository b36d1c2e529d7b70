import { InvalidArgumentError } from '@sluice/errors';

export const DEFAULT_PROFILE_SECONDS = 30;
export const MAX_PROFILE_SECONDS = 300;

/** The `seconds` query parameter of /debug/pprof/profile: absent → 30, else a whole number in 1..300. */
export function parseProfileSeconds(raw: unknown): number {
  if (raw === undefined) return DEFAULT_PROFILE_SECONDS;
  if (typeof raw !== 'string' || !/^\d{1,4}$/.test(raw)) {
    throw new InvalidArgumentError(`seconds must be a whole number from 1 to ${MAX_PROFILE_SECONDS}, got ${JSON.stringify(raw)}`, 'seconds');
  }
  const seconds = Number(raw);
  if (seconds < 1 || seconds > MAX_PROFILE_SECONDS) {
    throw new InvalidArgumentError(`seconds must be from 1 to ${MAX_PROFILE_SECONDS}, got ${seconds}`, 'seconds');
  }
  return seconds;
}
