/** Seconds and nanoseconds of a google.protobuf.Timestamp or Duration. */
export interface SecondsNanos { seconds: number; nanos: number }

const RFC3339 = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d{1,9}))?(Z|[+-]\d\d:\d\d)$/i;
const DURATION = /^(-)?(\d+)(?:\.(\d{1,9}))?s$/;
/** 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z, the Timestamp range. */
const MIN_SECONDS = -62_135_596_800;
const MAX_SECONDS = 253_402_300_799;
/** ±10000 years, the Duration range. */
const MAX_DURATION_SECONDS = 315_576_000_000;

function nanosOf(fraction: string | undefined): number {
  return fraction === undefined ? 0 : Number(fraction.padEnd(9, '0'));
}

/** The proto3 JSON form of a Timestamp (RFC 3339, `2026-01-02T03:04:05.5Z`), or undefined when it is not one. */
export function parseTimestampJson(s: string): SecondsNanos | undefined {
  const m = RFC3339.exec(s);
  if (m === null) return undefined;
  const ms = Date.parse(`${m[1]}${m[3].toUpperCase()}`);
  if (Number.isNaN(ms)) return undefined;
  const seconds = ms / 1000;
  if (seconds < MIN_SECONDS || seconds > MAX_SECONDS) return undefined;
  return { seconds, nanos: nanosOf(m[2]) };
}

/** The proto3 JSON form of a Duration (`1.5s`, `-0.25s`), or undefined when it is not one. */
export function parseDurationJson(s: string): SecondsNanos | undefined {
  const m = DURATION.exec(s);
  if (m === null) return undefined;
  const sign = m[1] === '-' ? -1 : 1;
  const seconds = Number(m[2]);
  if (seconds > MAX_DURATION_SECONDS) return undefined;
  const nanos = nanosOf(m[3]);
  return { seconds: seconds === 0 ? 0 : sign * seconds, nanos: nanos === 0 ? 0 : sign * nanos };
}
