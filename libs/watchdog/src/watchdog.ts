import type { Lifecycle } from '@sluice/lifecycle';
import { JobGroup } from '@sluice/jobs';
import type { StatusRegistry } from '@sluice/status';
import type { Registry } from 'prom-client';
import { readCgroupUsage } from './cgroup-usage.js';
import type { WatchdogConfig, WatchdogPolicyType } from './config.js';
import { garbageCollector } from './force-gc.js';
import { readHeapUsage } from './heap-usage.js';
import { watchdogMetrics } from './metrics.js';
import { policyCheck } from './policy-check.js';
import { readSystemUsage } from './system-usage.js';
import { policyMode } from './threshold.js';
import type { PolicyName, UsageReader } from './usage.js';
import type { Logger } from '@sluice/telemetry/logger';

export interface WatchdogDeps {
  /** Results land at `liveness/watchdog/<policy>`. */
  status: StatusRegistry;
  /** Where the watchdog_* metrics are registered. */
  registry: Registry;
  logger?: Logger;
  /** Replaces a policy's usage source (tests, other platforms). */
  sources?: Partial<Record<PolicyName, UsageReader>>;
  /** Replaces the forced garbage collection. */
  gc?: () => void;
}

export interface Watchdog extends Lifecycle {
  /** Policies with watermarks or adaptive enabled, in order heap, cgroup, system. */
  readonly policies: PolicyName[];
  readonly group: JobGroup;
  start(): Promise<void>;
  /** Runs one policy's check now. */
  check(policy: PolicyName): Promise<void>;
}

/**
 * The memory watchdog (`watchdog.memory`): one job per enabled policy in a
 * serialized job group `watchdog` running on `watchdog.memory.job`.
 * heap: V8 used heap against heap.limit (0: V8's heap size limit), with min_gogc
 * as a threshold floor; cgroup: the cgroup memory controller (inactive when
 * there is no limit); system: MemTotal − MemAvailable against MemTotal.
 */
export function createWatchdog(config: WatchdogConfig, deps: WatchdogDeps): Watchdog {
  const metrics = watchdogMetrics(deps.registry);
  const gc = deps.gc ?? (() => garbageCollector().gc());
  const group = new JobGroup('watchdog', { blocking_execution: true, worker_limit: 0 }, deps.status.jobListener('liveness/watchdog'));
  const candidates: Array<[PolicyName, WatchdogPolicyType, UsageReader, number]> = [
    ['heap', config.heap, deps.sources?.heap ?? (() => readHeapUsage(config.heap.limit)), 1 + config.heap.min_gogc / 100],
    ['cgroup', config.cgroup, deps.sources?.cgroup ?? (() => readCgroupUsage()), 1],
    ['system', config.system, deps.sources?.system ?? (() => readSystemUsage()), 1],
  ];
  const policies: PolicyName[] = [];
  for (const [name, policy, read, floorRatio] of candidates) {
    if (policyMode(policy) === undefined) continue;
    group.register(policyCheck(name, policy, { read, gc, metrics, logger: deps.logger, floorRatio }), config.job);
    policies.push(name);
  }
  return {
    policies,
    group,
    start: () => group.start(),
    check: async (policy) => {
      await group.trigger(policy);
    },
    shutdown: (opts) => group.shutdown(opts),
  };
}
