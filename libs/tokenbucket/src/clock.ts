/**
 * The clock of flow decisions and token buckets: epoch milliseconds, fractional, monotonic
 * within the process (the time origin plus the monotonic clock). The flow-control engine reads
 * it once per check and hands the reading to its limiters; the schedulers and the distributed
 * counter cache run on it by default, so a take can use the check's reading instead of its own.
 */
export function epochNowMs(): number {
  return performance.timeOrigin + performance.now();
}
