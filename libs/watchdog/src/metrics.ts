import { Counter, Gauge, type Registry } from 'prom-client';

export interface WatchdogMetrics {
  crossings: Counter<'policy'>;
  usage: Gauge<'policy'>;
  threshold: Gauge<'policy'>;
  limit: Gauge<'policy'>;
}

function counter(registry: Registry, name: string, help: string): Counter<'policy'> {
  const existing = registry.getSingleMetric(name);
  if (existing instanceof Counter) return existing as Counter<'policy'>;
  return new Counter({ name, help, labelNames: ['policy'], registers: [registry] });
}

function gauge(registry: Registry, name: string, help: string): Gauge<'policy'> {
  const existing = registry.getSingleMetric(name);
  if (existing instanceof Gauge) return existing as Gauge<'policy'>;
  return new Gauge({ name, help, labelNames: ['policy'], registers: [registry] });
}

/** The watchdog's metrics in `registry` (reused when already registered there). */
export function watchdogMetrics(registry: Registry): WatchdogMetrics {
  return {
    crossings: counter(registry, 'watchdog_threshold_crossings_total', 'Times memory usage passed the watchdog threshold, forcing a garbage collection.'),
    usage: gauge(registry, 'watchdog_memory_usage_bytes', 'Memory in use as seen by the watchdog policy.'),
    threshold: gauge(registry, 'watchdog_memory_threshold_bytes', 'Usage at which the watchdog policy next fires (+Inf when disarmed).'),
    limit: gauge(registry, 'watchdog_memory_limit_bytes', 'Memory limit the watchdog policy works against.'),
  };
}
