import { InvalidArgumentError } from '@sluice/errors';

/** Longest control point name accepted. */
export const MAX_CONTROL_POINT_LENGTH = 512;

/** A control point must be a non-empty string of at most MAX_CONTROL_POINT_LENGTH characters. */
export function checkControlPoint(value: unknown, field = 'control_point'): string {
  if (typeof value !== 'string' || value === '') throw new InvalidArgumentError(`${field} is required`, field);
  if (value.length > MAX_CONTROL_POINT_LENGTH) {
    throw new InvalidArgumentError(`${field} must be at most ${MAX_CONTROL_POINT_LENGTH} characters, got ${value.length}`, field);
  }
  return value;
}

/** The epoch-millisecond deadline of a grpc-js call (undefined when it has none). */
export function deadlineMsOf(deadline: Date | number): number | undefined {
  const ms = deadline instanceof Date ? deadline.getTime() : deadline;
  return Number.isFinite(ms) ? ms : undefined;
}
