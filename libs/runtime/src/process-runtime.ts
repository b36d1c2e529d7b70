import { PROCESSES, parseDuration, secretValues } from '@sluice/config';
import type { Job } from '@sluice/jobs';
import { healthGrpcService, healthRouter, predicateJob, registerProcessJobs, StatusRegistry } from '@sluice/status';
import { createServer, type SluiceServer } from '@sluice/server';
import {
  createLogger, createMetricsRegistry, metricsRouter, profilersRouter, startCpuProfiler, type SluiceLogger,
} from '@sluice/telemetry';
import type { TelemetryPipeline } from '@sluice/telemetry/otel';
import { createWatchdog } from '@sluice/watchdog';
import { LifecycleGroup, named } from '@sluice/lifecycle';
import type { Registry } from 'prom-client';
import { installCrashGuards } from './crash-guards.js';
import { scheduleDebugCrash } from './debug-crash.js';
import { startCrashReporter, type CrashReporter } from './crash-report.js';
import { localMetricsPipelineOn } from './local-pipeline.js';
import { runUntilSignal } from './run-until-signal.js';
import type { RuntimeConfig } from './runtime-config.js';
import { sluiceVersion } from './version.js';
import { wireTelemetry, type TelemetryWiring } from './telemetry.js';

export type ProcessService = 'agent' | 'controller';

/** What every Sluice process is made of, wired from its configuration. */
export interface ProcessRuntime {
  readonly service: ProcessService;
  readonly logger: SluiceLogger;
  readonly registry: Registry;
  readonly server: SluiceServer;
  readonly status: StatusRegistry;
  /** Every long-lived part of the process, started in order and shut down in reverse by one SIGTERM. */
  readonly lifecycle: LifecycleGroup;
  /** The OpenTelemetry pipeline exporting the registry (remote write, OTLP) and serving `otel.ports`. */
  readonly telemetry: TelemetryPipeline;
  /** Add a readiness check (before run), e.g. "policies synchronised". */
  addReadinessJob(job: Job): void;
  /** Secrets learnt other than from the configuration (such as keys read from files): scrubbed from crash reports too. */
  addSecrets(values: readonly string[]): void;
  /** The crash-report client (`crash_report`), once started; undefined when reporting is off. */
  readonly crashReporter: Promise<CrashReporter | undefined>;
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
 * Start order: crash reports, profiler, jobs, watchdog, telemetry, (app components), server last;
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
  // The local metrics pipeline (cloudext.disable_local_otel_pipeline turns it off).
  const metricsOn = localMetricsPipelineOn(config);
  if (metricsOn) server.app.use(metricsRouter(registry, { highCardinality: config.otel.enable_high_cardinality_platform_metrics }));
  else logger.info('local metrics pipeline off (cloudext.disable_local_otel_pipeline): /metrics is not served');
  // Crash reports (crash_report): every secret of the configuration is scrubbed from them.
  const secrets = new Set<string>(secretValues(PROCESSES[service].schema, config));
  const secretList = (): string[] => [...secrets].sort((a, b) => b.length - a.length);
  const crashReporter = startCrashReporter(config.crash_report, { service: `sluice-${service}`, release: sluiceVersion(), secrets: secretList })
    .then((r) => {
      if (r !== undefined) logger.info('crash reports on', { environment: config.crash_report.environment, sample_rate: config.crash_report.sample_rate });
      return r;
    }, (err: unknown) => {
      logger.error('crash reports off: the client did not start', { error: err instanceof Error ? err.message : String(err) });
      return undefined;
    });
  server.app.use(profilersRouter(config.profilers));

  let listening = false;
  const readinessJobs: Job[] = [predicateJob('server', () => listening, 'server is not listening', 'listening')];
  const lifecycle = new LifecycleGroup({ name: `sluice-${service}`, logger, defaultDeadlineMs: shutdownBudgetMs(config) });
  // First to start: a crash after start-up is reported only if the client is ready by then (loading
  // it takes a moment, and only happens when crash_report.dsn is set). Last to stop: what is left is sent.
  lifecycle.add({
    name: 'crash-reports',
    start: async () => { await crashReporter; },
    shutdown: async () => { await (await crashReporter)?.flush(1000); },
  });
  let cpuProfiler: ReturnType<typeof startCpuProfiler>;
  lifecycle.add({
    name: 'cpu-profiler',
    start: async () => { cpuProfiler = startCpuProfiler(config.profilers, service); },
    shutdown: async () => {
      const file = await cpuProfiler?.stop();
      if (file !== undefined) logger.info('cpu profile written', { file });
    },
  });
  let jobs: ReturnType<typeof registerProcessJobs> | undefined;
  lifecycle.add({
    name: 'health-jobs',
    start: async () => {
      jobs = registerProcessJobs({ liveness: config.liveness, readiness: config.readiness }, status, { readiness: readinessJobs });
      await jobs.start();
    },
    shutdown: async (opts) => { await health.shutdown(); await jobs?.shutdown(opts); },
  });
  const watchdog = createWatchdog(config.watchdog.memory, { status, registry, logger });
  lifecycle.add(named('watchdog', watchdog));
  // cloudext.disable_local_otel_pipeline: nothing leaves the process either (no remote write, no OTLP).
  const exported = metricsOn ? config : { ...config, prometheus: { ...config.prometheus, address: '' }, otel: { ...config.otel, otlp_endpoint: '' } };
  const telemetry = wireTelemetry(exported, service, registry, logger, telemetryWiring);
  lifecycle.add(telemetry.component);

  const run = async (): Promise<number> => {
    const removeGuards = installCrashGuards(logger, registry, undefined, { reporter: crashReporter });
    lifecycle.add({
      name: 'server',
      start: async () => {
        await server.start();
        listening = true;
        // Readiness first ran before the port was bound: look again now.
        await jobs?.readiness.trigger('server');
        const { host, port } = server.address();
        logger.info(`sluice-${service} serving gRPC and HTTP`, { address: `${host}:${port}` });
        // One trace per start: the start-up, from the process's start to serving (crash_report.traces_sample_rate).
        void crashReporter.then((r) => r?.trace(`sluice-${service} start-up`, 'process.start', performance.timeOrigin));
        scheduleDebugCrash();
      },
      shutdown: async (opts) => { listening = false; await server.shutdown(opts); },
    });
    try {
      return await runUntilSignal(lifecycle, logger, shutdownBudgetMs(config), {
        onStartFailure: async (err) => {
          const r = await crashReporter;
          r?.report(err, 'fatal');
          await r?.flush(2000);
        },
      });
    } finally {
      removeGuards();
    }
  };

  return {
    service, logger, registry, server, status, lifecycle, run, crashReporter, telemetry: telemetry.pipeline,
    addReadinessJob: (job) => { readinessJobs.push(job); },
    addSecrets: (values) => { for (const v of values) if (v !== '') secrets.add(v); },
  };
}

/** Longest time a graceful shutdown may take: the HTTP write timeout plus a margin. */
export function shutdownBudgetMs(config: RuntimeConfig): number {
  return Math.min(60_000, Math.max(5000, parseDuration(config.server.http.write_timeout) + 5000));
}
