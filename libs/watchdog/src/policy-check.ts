import type { Job, JobOutcome } from '@sluice/jobs';
import type { WatchdogPolicyType } from './config.js';
import { mib } from './format.js';
import type { WatchdogMetrics } from './metrics.js';
import { nextThreshold, pastLastMark, policyMode } from './threshold.js';
import type { PolicyName, UsageReader } from './usage.js';
import type { Logger } from '@sluice/telemetry/logger';

export interface PolicyCheckDeps {
  read: UsageReader;
  gc: () => void;
  metrics: WatchdogMetrics;
  logger?: Logger;
  /** ≥ 1; see nextThreshold (heap: 1 + min_gogc / 100). */
  floorRatio?: number;
}

/**
 * One policy as a job. Each run reads usage; on the first run (and while
 * disarmed) it computes the next threshold. When usage is at or past the
 * threshold it counts a crossing, logs, forces a garbage collection, reads
 * usage again and computes the next threshold from that. The outcome is
 * unhealthy only when usage is past the last watermark (adaptive: the limit).
 */
export function policyCheck(name: PolicyName, policy: WatchdogPolicyType, deps: PolicyCheckDeps): Job {
  const mode = policyMode(policy);
  const floor = deps.floorRatio ?? 1;
  let threshold: number | undefined;
  return {
    name,
    async run(): Promise<JobOutcome> {
      let sample = await deps.read();
      if (sample === undefined) return { healthy: true, message: `${name}: inactive, no ${name} memory information on this machine` };
      if (!Number.isFinite(sample.limit) || sample.limit <= 0) {
        deps.metrics.usage.set({ policy: name }, sample.used);
        return { healthy: true, message: `${name}: inactive, no memory limit (${sample.source}); used ${mib(sample.used)}` };
      }
      if (threshold === undefined || threshold === Infinity) threshold = nextThreshold(policy, sample.used, sample.limit, floor);
      let crossed = false;
      if (sample.used >= threshold) {
        crossed = true;
        deps.metrics.crossings.inc({ policy: name });
        deps.logger?.warn('memory watchdog threshold passed, forcing garbage collection', {
          policy: name, mode, used_bytes: sample.used, threshold_bytes: threshold, limit_bytes: sample.limit,
        });
        deps.gc();
        sample = (await deps.read()) ?? sample;
        threshold = nextThreshold(policy, sample.used, sample.limit, floor);
        if (threshold === Infinity) deps.logger?.warn('memory watchdog disarmed: usage is past the last watermark', { policy: name, used_bytes: sample.used, limit_bytes: sample.limit });
      }
      deps.metrics.usage.set({ policy: name }, sample.used);
      deps.metrics.limit.set({ policy: name }, sample.limit);
      deps.metrics.threshold.set({ policy: name }, threshold);
      const percent = ((sample.used / sample.limit) * 100).toFixed(1);
      const next = threshold === Infinity ? 'disarmed' : `next threshold ${mib(threshold)}`;
      const message = `${name} (${mode}, ${sample.source}): used ${mib(sample.used)} of ${mib(sample.limit)} (${percent}%), ${next}`;
      const details = { used_bytes: sample.used, limit_bytes: sample.limit, threshold_bytes: Number.isFinite(threshold) ? threshold : null, crossed };
      if (pastLastMark(policy, sample.used, sample.limit)) return { healthy: false, message: `${message}; past the last ${mode === 'adaptive' ? 'limit' : 'watermark'}`, details };
      return { healthy: true, message, details };
    },
  };
}
