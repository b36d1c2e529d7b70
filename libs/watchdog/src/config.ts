import type { JobConfig } from '@sluice/jobs';

/** SPEC AdaptivePolicy: next threshold = used + (limit − used) × factor. */
export interface AdaptivePolicy {
  enabled: boolean;
  /** 0.5; 0..1 */
  factor: number;
}

/** SPEC WatermarksPolicy: fixed fractions of the limit; disarms after the last is passed. */
export interface WatermarksPolicy {
  enabled: boolean;
  /** Increasing fractions, default [0.5,0.75,0.8,0.85,0.9,0.95,0.99]. */
  watermarks: number[];
}

/** SPEC WatchdogPolicyType. When both are enabled only watermarks is used. */
export interface WatchdogPolicyType {
  adaptive_policy: AdaptivePolicy;
  watermarks_policy: WatermarksPolicy;
}

/** SPEC HeapConfig. */
export interface HeapConfig extends WatchdogPolicyType {
  /** Bytes; 0 means the V8 heap size limit. */
  limit: number;
  /** 25; 0..100; the lowest collection target percentage (see nextThreshold). */
  min_gogc: number;
}

/** SPEC WatchdogConfig (`watchdog.memory`). */
export interface WatchdogConfig {
  cgroup: WatchdogPolicyType;
  heap: HeapConfig;
  job: JobConfig;
  system: WatchdogPolicyType;
}
