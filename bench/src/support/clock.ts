/**
 * Milliseconds on the process-wide monotonic clock. Unlike performance.now(), whose origin
 * is per thread, this reads the same in the main thread and in workers, so a schedule
 * computed in one can be used in the other.
 */
export function nowMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}
