import type { Duration__Output, Timestamp__Output } from '@sluice/proto';

/** A google.protobuf.Timestamp of epoch milliseconds (fractions kept to the microsecond). */
export function timestampOf(ms: number): Timestamp__Output {
  const seconds = Math.floor(ms / 1000);
  return { seconds, nanos: Math.round((ms - seconds * 1000) * 1000) * 1000 };
}

/** A google.protobuf.Duration of milliseconds (>= 0). */
export function durationOf(ms: number): Duration__Output {
  const v = ms > 0 ? ms : 0;
  const seconds = Math.floor(v / 1000);
  return { seconds, nanos: Math.min(999_999_999, Math.round((v - seconds * 1000) * 1e6)) };
}

/** Milliseconds of a google.protobuf.Timestamp or Duration. */
export function millisOf(t: { seconds?: number | string | null; nanos?: number | null } | null | undefined): number {
  if (t === null || t === undefined) return 0;
  return Number(t.seconds ?? 0) * 1000 + (t.nanos ?? 0) / 1e6;
}
