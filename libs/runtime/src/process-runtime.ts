import { parseDuration } from '@sluice/config';
import type { Job } from '@sluice/jobs';
import { healthGrpcService, healthRouter, predicateJob, registerProcessJobs, StatusRegistry } from '@sluice/status';
import { createServer, type SluiceServer } from '@sluice/server';
import {
  createLogger, createMetricsRegistry, metricsRouter, profilersRouter, startCpuProfiler, type SluiceLogger,
} from '@sluice/telemetry';
import type { TelemetryPipeline } from '@sluice/telemetry/otel';
import { createWatchdog } from '@sluice/watchdog';
import type { Registry } from 'prom-client';
import { installCrashGuards } from './crash-guards.js';
import { Lifecycle } from './lifecycle.js';
import { runUntilSignal } from './run-until-signal.js';
import type { RuntimeConfig } from './runtime-config.js';
import { wireTelemetry, type TelemetryWiring } from './telemetry.js';

export type ProcessService = 'agent' | 'controller';

/** What every Sluice process is made of, wired from its configuration. */
export interface ProcessRuntime {
  readonly service: ProcessService;
  readonly logger: SluiceLogger;
  readonly registry: Registry;
  readonly server: SluiceServer;
  readonly status: StatusRegistry;
  readonly lifecycle: Lifecycle;
  /** The OpenTelemetry pipeline exporting the registry (remote write, OTLP) and serving `otel.ports`. */
  readonly telemetry: TelemetryPipeline;
  /** Add a readiness check (before run), e.g. "policies synchronised". */
  addReadinessJob(job: Job): void;
  /**
   * Adds the server as the last component, starts everything, and stops it
   * all in reverse on SIGTERM or SIGINT. Resolves with the exit code: 0 after
   * a clean stop, 1 when start-up failed.
   */
  run(): Promise<number>;
}

/**
 * Builds the shared runtime: logs, metrics (/metrics), the one-port server
 * (gRPC + HTTP), health (gRPC health and /v1/status/system/*), profilers
 * (/debug/pprof/*), liveness/readiness jobs, the memory watchdog and the
 * telemetry pipeline (remote write, OTLP, `otel.ports`). The app adds its own
 * services and components, then starts the lifecycle.
 * Start order: profiler, jobs, watchdog, telemetry, (app components), server last;
 * shutdown runs in reverse, so the server stops taking work first.
 */
export function createProcessRuntime(config: RuntimeConfig, service: ProcessService, telemetryWiring: TelemetryWiring = {}): ProcessRuntime {
  const registry = createMetricsRegistry(config.metrics, { highCardinality: config.otel.enable_high_cardinality_platform_metrics });
  const logger = createLogger(config.log, service, { registry });
  const status = new StatusRegistry();
  const server = createServer(config.server, { registry, logger });
  const health = healthGrpcService(status);
  server.addService(health.definition, health.implementation);
  server.app.use(healthRouter(status));
  server.app.use(metricsRouter(registry, { highCardinality: config.otel.enable_high_cardinality_platform_metrics }));
  server.app.use(profilersRouter(config.profilers));

  let listening = false;
  const readinessJobs: Job[] = [predicateJob('server', () => listening, 'server is not listening', 'listening')];
  const lifecycle = new Lifecycle(logger);
  let cpuProfiler: ReturnType<typeof startCpuProfiler>;
  lifecycle.add({
    name: 'cpu-profiler',
    start: () => { cpuProfiler = startCpuProfiler(config.profilers, service); },
    shutdown: async () => {
      const file = await cpuProfiler?.stop();
      if (file !== undefined) logger.info('cpu profile written', { file });
    },
  });
  let jobs: ReturnType<typeof registerProcessJobs> | undefined;
  lifecycle.add({
    name: 'health-jobs',
    start: () => {
      jobs = registerProcessJobs({ liveness: config.liveness, readiness: config.readiness }, status, { readiness: readinessJobs });
      jobs.start();
    },
    shutdown: async () => { health.close(); await jobs?.shutdown(); },
  });
  const watchdog = createWatchdog(config.watchdog.memory, { status, registry, logger });
  lifecycle.add({ name: 'watchdog', start: () => watchdog.start(), shutdown: () => watchdog.shutdown() });
  const telemetry = wireTelemetry(config, service, registry, logger, telemetryWiring);
  lifecycle.add(telemetry.component);

  const run = async (): Promise<number> => {
    const removeGuards = installCrashGuards(logger, registry);
    lifecycle.add({
      name: 'server',
      start: async () => {
        await server.start();
        listening = true;
        // Readiness first ran before the port was bound: look again now.
        await jobs?.readiness.trigger('server');
        const { host, port } = server.address();
        logger.info(`sluice-${service} serving gRPC and HTTP`, { address: `${host}:${port}` });
      },
      shutdown: async (deadlineMs) => { listening = false; await server.shutdown(deadlineMs); },
    });
    try {
      return await runUntilSignal(lifecycle, logger, shutdownBudgetMs(config));
    } finally {
      removeGuards();
    }
  };

  return {
    service, logger, registry, server, status, lifecycle, run, telemetry: telemetry.pipeline,
    addReadinessJob: (job) => { readinessJobs.push(job); },
  };
}

/** Longest time a graceful shutdown may take: the HTTP write timeout plus a margin. */
export function shutdownBudgetMs(config: RuntimeConfig): number {
  return Math.min(60_000, Math.max(5000, parseDuration(config.server.http.write_timeout) + 5000));
}
