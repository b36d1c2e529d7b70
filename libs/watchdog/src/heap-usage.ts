import v8 from 'node:v8';
import type { MemoryUsage } from './usage.js';

/** V8 heap in use against `limit` bytes (0: V8's own heap size limit). */
export function readHeapUsage(limit: number): MemoryUsage {
  const stats = v8.getHeapStatistics();
  return { used: stats.used_heap_size, limit: limit > 0 ? limit : stats.heap_size_limit, source: 'v8 heap' };
}
