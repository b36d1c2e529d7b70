import { setImmediate as yieldToLoop } from 'node:timers/promises';

/** Longest stretch of conversion work between two yields to the event loop. */
export const SLICE_MS = 4;

/**
 * `fn` over `items` in slices of at most about SLICE_MS, yielding to the event loop between
 * slices, so that turning a large preview into its answer never stalls the decisions
 * being made meanwhile.
 */
export async function mapInSlices<T, R>(items: readonly T[], fn: (item: T) => R, sliceMs = SLICE_MS): Promise<R[]> {
  const out: R[] = new Array<R>(items.length);
  let sliceEnd = performance.now() + sliceMs;
  for (let i = 0; i < items.length; i++) {
    out[i] = fn(items[i]);
    if (i + 1 < items.length && performance.now() >= sliceEnd) {
      await yieldToLoop();
      sliceEnd = performance.now() + sliceMs;
    }
  }
  return out;
}
