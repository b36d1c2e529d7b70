import { pprof } from './pprof-module.js';

/** Who holds the process's one CPU (wall-time) profiler. */
export type ProfilerHolder = 'http' | 'cpu_profiler';

let holder: ProfilerHolder | undefined;

/** Takes the profiler for `who`; false when it is already taken (by us or anyone else in the process). */
export function acquireProfiler(who: ProfilerHolder): boolean {
  if (holder !== undefined || pprof().time.isStarted()) return false;
  holder = who;
  return true;
}

export function releaseProfiler(who: ProfilerHolder): void {
  if (holder === who) holder = undefined;
}

export function profilerHolder(): ProfilerHolder | undefined {
  return holder;
}

/** Sampling options shared by the HTTP endpoint and the start-up profiler. */
export const TIME_PROFILER_OPTIONS = { intervalMicros: 1000 } as const;

/** Heap sampling as Go's default MemProfileRate: one sample every 512 KiB allocated. */
const HEAP_INTERVAL_BYTES = 512 * 1024;
const HEAP_STACK_DEPTH = 64;
let heapStarted = false;

/** Starts heap sampling once per process, so the heap endpoint has something to show. */
export function ensureHeapSampling(): void {
  if (heapStarted) return;
  pprof().heap.start(HEAP_INTERVAL_BYTES, HEAP_STACK_DEPTH);
  heapStarted = true;
}
