import { collectDefaultMetrics, Registry } from 'prom-client';

export interface CollectorChoice {
  /** nodejs_*: event loop lag, GC, heap sizes and spaces, active handles/requests/resources, version. */
  runtime: boolean;
  /** process_*: CPU seconds, resident/virtual memory, open and max fds, start time. */
  process: boolean;
}

/**
 * Registers prom-client's default collectors, split as Go's are:
 * the runtime ones (nodejs_*) and the process ones (process_*). prom-client
 * registers them all at once, so they are collected into a scratch registry
 * and only the chosen families are moved over.
 */
export function registerRuntimeCollectors(registry: Registry, choice: CollectorChoice): void {
  if (!choice.runtime && !choice.process) return;
  const scratch = new Registry();
  collectDefaultMetrics({ register: scratch });
  for (const { name } of scratch.getMetricsAsArray()) {
    const wanted = name.startsWith('process_') ? choice.process : choice.runtime;
    const metric = scratch.getSingleMetric(name);
    if (wanted && metric !== undefined) registry.registerMetric(metric);
  }
}
