import type { SignalValue } from './kind.js';

/** Aperture's three-valued logic of a signal: true when valid and non-zero, false when 0, unknown (undefined) when invalid. */
export function truth(value: SignalValue | undefined): boolean | undefined {
  return value === null || value === undefined ? undefined : value !== 0;
}

/** A truth value as a signal: 1, 0, or invalid when unknown. */
export function truthSignal(value: boolean | undefined): SignalValue {
  return value === undefined ? null : value ? 1 : 0;
}

/** Ticks in a duration, rounded up as Aperture counts them (`ceil(duration / evaluation interval)`). */
export function ticksIn(durationMs: number, evaluationIntervalMs: number): number {
  return Math.ceil(durationMs / evaluationIntervalMs);
}

/** A valid finite-or-infinite number, or undefined for an invalid signal. */
export function valid(value: SignalValue | undefined): number | undefined {
  return value === null || value === undefined || Number.isNaN(value) ? undefined : value;
}
