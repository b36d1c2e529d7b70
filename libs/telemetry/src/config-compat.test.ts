import { test } from 'node:test';
import assert from 'node:assert/strict';
import type * as Config from '@sluice/config';
import { defaultsOf, LogConfigSchema, LogWriterConfigSchema, MetricsConfigSchema, ProfilersConfigSchema } from '@sluice/config';
import type { LogConfig, LogWriterConfig, MetricsConfig, ProfilersConfig } from './config.js';
import { DEFAULT_WRITER } from './log/writers.js';
import { createLogger } from './log/create-logger.js';
import { createMetricsRegistry } from './metrics/registry.js';
import { startCpuProfiler } from './profilers/cpu-profiler.js';

// libs/config's types must be accepted where this library's are expected.
const log: LogConfig = defaultsOf(LogConfigSchema) as Config.LogConfig;
const writer: LogWriterConfig = defaultsOf(LogWriterConfigSchema) as Config.LogWriterConfig;
const metrics: MetricsConfig = defaultsOf(MetricsConfigSchema) as Config.MetricsConfig;
const profilers: ProfilersConfig = defaultsOf(ProfilersConfigSchema) as Config.ProfilersConfig;

test('the defaults of libs/config drive the telemetry functions', async () => {
  assert.deepEqual(writer, DEFAULT_WRITER, 'the implicit stderr writer has the documented defaults');
  assert.equal(log.level, 'info');
  assert.equal(log.non_blocking, true);
  const logger = createLogger({ ...log, level: 'disabled' }, 'agent');
  await logger.close();
  assert.deepEqual(await createMetricsRegistry(metrics).getMetricsAsJSON(), []);
  assert.equal(profilers.register_http_routes, true);
  assert.equal(startCpuProfiler(profilers, 'agent'), undefined);
});
