/*
 * The logger and the metrics registry alone, without the HTTP routers and profilers of the
 * index: what a small process that serves its own /metrics needs (the separate tap), and the
 * counters and histograms whose children add to plain numbers.
 */
export { createLogger, type LoggerOptions } from './log/create-logger.js';
export { silentLogger, type Logger, type SluiceLogger } from './log/logger.js';
export { createMetricsRegistry, type MetricsRegistryOptions } from './metrics/registry.js';
export { FastCounter, type FastCounterChild } from './metrics/fast-counter.js';
export { FastHistogram, type FastHistogramChild } from './metrics/fast-histogram.js';
