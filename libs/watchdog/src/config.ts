// The `watchdog.memory` objects, as @sluice/config validates them: AdaptivePolicy (next threshold =
// used + (limit − used) × factor), WatermarksPolicy (fixed fractions of the limit; disarms after the
// last), WatchdogPolicyType (watermarks wins when both are enabled), HeapConfig (limit 0 = the V8 heap
// limit) and WatchdogConfig.
export type { AdaptivePolicy, WatermarksPolicy, WatchdogPolicyType, HeapConfig, WatchdogConfig } from '@sluice/config';
