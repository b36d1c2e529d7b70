import type { Registry } from 'prom-client';

/**
 * The platform metric families hidden from the metrics endpoint unless
 * `otel.enable_high_cardinality_platform_metrics` is true (AgentOTelConfig).
 */
export const HIGH_CARDINALITY_METRICS: ReadonlySet<string> = new Set([
  'grpcserver_handled_total',
  'grpcserver_handling_seconds',
  'grpcserver_handling_seconds_bucket',
  'grpcserver_handling_seconds_count',
  'grpcserver_handling_seconds_sum',
  'grpcserver_msg_received_total',
  'grpcserver_msg_sent_total',
  'grpcserver_started_total',
]);

export function isHighCardinalityMetric(name: string): boolean {
  return HIGH_CARDINALITY_METRICS.has(name);
}

const settings = new WeakMap<Registry, boolean>();

/** Records the high-cardinality setting a registry was created with. */
export function setHighCardinality(registry: Registry, enabled: boolean): void {
  settings.set(registry, enabled);
}

/** The setting recorded for a registry; undefined when it was not made by createMetricsRegistry. */
export function highCardinalityOf(registry: Registry): boolean | undefined {
  return settings.get(registry);
}
