import type { Registry } from 'prom-client';
import { createLogger, createMetricsRegistry, type SluiceLogger } from '@sluice/telemetry/core';
import type { LogLevel } from './logger.js';

/** The tap's logger: JSON lines on stderr (a sidecar's logs are its container's), through @sluice/telemetry. */
export function createTapLogger(level: LogLevel, registry?: Registry): SluiceLogger {
  return createLogger(
    { level, non_blocking: true, pretty_console: false, writers: [{ file: 'stderr', compress: false, max_age: 7, max_backups: 3, max_size: 50 }] },
    'tap',
    registry === undefined ? {} : { registry },
  );
}

/** The tap's registry, with the runtime (nodejs_*) and process (process_*) collectors. */
export function createTapRegistry(): Registry {
  return createMetricsRegistry({ enable_go_metrics: true, enable_process_collector: true, pedantic: false });
}
