export type {
  LogConfig,
  LogWriterConfig,
  LogLevelSetting,
  MetricsConfig,
  ProfilersConfig,
  ServiceName,
} from './config.js';
export { defaultLogFile, defaultProfilesDir } from './names.js';
export { silentLogger, type Logger, type SluiceLogger } from './log/logger.js';
export type { LogMeta } from './log/entry.js';
export { LOG_LEVELS, parseLogLevel, type LogLevelName, type LogThreshold } from './log/level.js';
export { createLogger, DEFAULT_LOG_BUFFER_SIZE, LOG_DROPPED_METRIC, type LoggerOptions } from './log/create-logger.js';
export { createMetricsRegistry, type MetricsRegistryOptions } from './metrics/registry.js';
export { PedanticRegistry } from './metrics/pedantic.js';
export { MetricInconsistencyError } from './metrics/inconsistency-error.js';
export { metricsRouter, renderMetrics, type MetricsRouterOptions } from './metrics/router.js';
export { HIGH_CARDINALITY_METRICS, isHighCardinalityMetric } from './metrics/high-cardinality.js';
export { profilersRouter } from './profilers/router.js';
export { startCpuProfiler, profilesDirectory, type CpuProfilerHandle } from './profilers/cpu-profiler.js';
export { ProfilerBusyError } from './profilers/busy-error.js';
export { parseProfileSeconds, DEFAULT_PROFILE_SECONDS, MAX_PROFILE_SECONDS } from './profilers/profile-seconds.js';
export { FastCounter, type FastCounterChild } from './metrics/fast-counter.js';
export { FastHistogram, type FastHistogramChild } from './metrics/fast-histogram.js';
export { createBatcher, batchSettingsOf, type Batcher, type BatcherOptions, type BatchSettings, type BatchTimers, type BatchConfig } from './batch/batcher.js';
export { FakeClock } from './batch/fake-clock.js';
