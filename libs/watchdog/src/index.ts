export type { WatchdogConfig, HeapConfig, WatchdogPolicyType, AdaptivePolicy, WatermarksPolicy } from './config.js';
export type { MemoryUsage, UsageReader, PolicyName } from './usage.js';
export { createWatchdog, type Watchdog, type WatchdogDeps } from './watchdog.js';
export { nextThreshold, pastLastMark, policyMode, type PolicyMode } from './threshold.js';
export { readHeapUsage } from './heap-usage.js';
export { readCgroupUsage } from './cgroup-usage.js';
export { readSystemUsage } from './system-usage.js';
export { garbageCollector, type GcSource } from './force-gc.js';
export { watchdogMetrics, type WatchdogMetrics } from './metrics.js';
