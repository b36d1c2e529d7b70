/** One memory sample: bytes in use against a limit (Infinity when there is none). */
export interface MemoryUsage {
  used: number;
  limit: number;
  /** Where the numbers came from, for messages (`cgroup v2`, `/proc/meminfo`, …). */
  source: string;
}

/** Reads current usage; undefined when the source does not exist on this machine. */
export type UsageReader = () => Promise<MemoryUsage | undefined> | MemoryUsage | undefined;

export type PolicyName = 'heap' | 'cgroup' | 'system';
