import { Registry } from 'prom-client';
import type { MetricsConfig } from '../config.js';
import { PedanticRegistry } from './pedantic.js';
import { setHighCardinality } from './high-cardinality.js';
import { registerRuntimeCollectors } from './runtime-collectors.js';

export interface MetricsRegistryOptions {
  /** `otel.enable_high_cardinality_platform_metrics`: serve the grpcserver_* families. Default false. */
  highCardinality?: boolean;
}

/**
 * The process's metrics registry for `metrics.*`: pedantic when asked, with
 * the runtime (nodejs_*) and process (process_*) collectors when enabled.
 */
export function createMetricsRegistry(config: MetricsConfig, opts: MetricsRegistryOptions = {}): Registry {
  const registry = config.pedantic ? new PedanticRegistry() : new Registry();
  registerRuntimeCollectors(registry, { runtime: config.enable_go_metrics, process: config.enable_process_collector });
  setHighCardinality(registry, opts.highCardinality ?? false);
  return registry;
}
