import v8 from 'node:v8';
import vm from 'node:vm';

export type GcSource = 'global' | 'v8-flag';

let resolved: { gc: () => void; source: GcSource } | undefined;

/**
 * A function that runs a full garbage collection: `globalThis.gc` when the
 * process runs with --expose-gc, else V8's `gc` obtained by turning the
 * --expose-gc flag on at run time and reading it from a fresh context.
 */
export function garbageCollector(): { gc: () => void; source: GcSource } {
  if (resolved !== undefined) return resolved;
  const global = (globalThis as { gc?: unknown }).gc;
  if (typeof global === 'function') {
    resolved = { gc: global as () => void, source: 'global' };
    return resolved;
  }
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as unknown;
  if (typeof gc !== 'function') throw new Error('V8 did not expose gc');
  resolved = { gc: gc as () => void, source: 'v8-flag' };
  return resolved;
}
