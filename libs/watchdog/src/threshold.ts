import type { WatchdogPolicyType } from './config.js';

export type PolicyMode = 'watermarks' | 'adaptive';

/** Which algorithm a policy uses: watermarks wins when both are enabled; undefined when neither. */
export function policyMode(policy: WatchdogPolicyType): PolicyMode | undefined {
  if (policy.watermarks_policy?.enabled) return 'watermarks';
  if (policy.adaptive_policy?.enabled) return 'adaptive';
  return undefined;
}

/**
 * The usage (bytes) at which the watchdog next fires, given usage now.
 * - watermarks: the first watermark × limit above `used`; Infinity (disarmed)
 *   when usage is at or past the last watermark.
 * - adaptive: used + (limit − used) × factor; once usage reaches the limit, the
 *   larger of limit and usage, so every check over the limit fires.
 * `floorRatio` (≥ 1) keeps the threshold at least used × floorRatio: this is
 * how the heap policy applies min_gogc (floorRatio = 1 + min_gogc / 100), the
 * way a Go runtime never lets the next collection target fall below that percentage.
 */
export function nextThreshold(policy: WatchdogPolicyType, used: number, limit: number, floorRatio = 1): number {
  const mode = policyMode(policy);
  let threshold: number;
  if (mode === 'watermarks') {
    const marks = policy.watermarks_policy.watermarks.map((w) => w * limit).filter((t) => t > used);
    if (marks.length === 0) return Infinity;
    threshold = Math.min(...marks);
  } else if (mode === 'adaptive') {
    threshold = used >= limit ? limit : used + (limit - used) * policy.adaptive_policy.factor;
  } else {
    return Infinity;
  }
  return Math.max(threshold, used * floorRatio);
}

/** True when usage is past the point where the policy gives up: the last watermark, or the limit (adaptive). */
export function pastLastMark(policy: WatchdogPolicyType, used: number, limit: number): boolean {
  const mode = policyMode(policy);
  if (mode === 'watermarks') {
    const marks = policy.watermarks_policy.watermarks;
    return marks.length === 0 || used >= Math.max(...marks) * limit;
  }
  return mode === 'adaptive' && used >= limit;
}
