import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import type { Job, JobOutcome } from '@sluice/jobs';
import { onceShutdown, type Lifecycle } from '@sluice/lifecycle';

/** The job, and its lifecycle: shutdown stops the delay histogram. */
export interface EventLoopJob extends Job, Lifecycle {}

/**
 * The delay monitor's timer period: a tenth of the limit, 10 to 100 ms. A block is measured short by
 * at most one period (under a tenth of the limit), and an idle process wakes 10 times a second for
 * the default 5 s limit rather than 50.
 */
export function monitorResolutionMs(maxDelayMs: number): number {
  return Math.max(10, Math.min(100, Math.floor(maxDelayMs / 10)));
}

/**
 * Liveness check of the process itself: the event loop's largest delay since the
 * previous run (perf_hooks.monitorEventLoopDelay). Unhealthy when it exceeds `maxDelayMs`.
 */
export function eventLoopJob(options: { name?: string; maxDelayMs?: number } = {}): EventLoopJob {
  const maxDelayMs = options.maxDelayMs ?? 5000;
  let histogram: IntervalHistogram | undefined = monitorEventLoopDelay({ resolution: monitorResolutionMs(maxDelayMs) });
  histogram.enable();
  return {
    name: options.name ?? 'event_loop',
    run(): JobOutcome {
      if (histogram === undefined) return { healthy: true, message: 'event loop monitor closed' };
      const maxMs = histogram.count === 0 ? 0 : histogram.max / 1e6;
      const p99Ms = histogram.count === 0 ? 0 : histogram.percentile(99) / 1e6;
      histogram.reset();
      const details = { max_delay_ms: Number(maxMs.toFixed(3)), p99_delay_ms: Number(p99Ms.toFixed(3)), limit_ms: maxDelayMs };
      if (maxMs > maxDelayMs) return { healthy: false, message: `event loop blocked for ${maxMs.toFixed(0)}ms (limit ${maxDelayMs}ms)`, details };
      return { healthy: true, message: `event loop delay max ${maxMs.toFixed(1)}ms`, details };
    },
    shutdown: onceShutdown('event loop monitor', () => {
      histogram?.disable();
      histogram = undefined;
    }),
  };
}
