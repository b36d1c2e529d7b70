import { Type } from '@sinclair/typebox';
import { AlertsConfigSchema } from './alerts.js';
import { ClientTreeSchema } from './clients.js';
import { ControllerCloudExtensionConfigSchema } from './cloudext.js';
import { HealthTreeSchema } from './common-tree.js';
import { CRWatcherConfigSchema } from './controller-objects.js';
import { CrashReportConfigSchema } from './crash-report.js';
import { EtcdConfigSchema } from './etcd.js';
import { InjectorConfigSchema } from './injector.js';
import { JobGroupConfigSchema } from './jobs.js';
import { LogConfigSchema } from './log.js';
import { PrometheusTreeSchema } from './prometheus.js';
import { ControllerServerTreeSchema } from './server.js';
import { ControllerOTelConfigSchema, MetricsConfigSchema, ProfilersConfigSchema } from './telemetry.js';
import { WatchdogConfigSchema } from './watchdog.js';

const closed = { additionalProperties: false } as const;

/** The controller's key tree (docs/configuration.md, and `injector`); environment prefix SLUICE_CONTROLLER_. */
export const ControllerConfigSchema = Type.Object({
  alerts: AlertsConfigSchema,
  client: ClientTreeSchema,
  etcd: EtcdConfigSchema,
  cloudext: ControllerCloudExtensionConfigSchema,
  liveness: HealthTreeSchema,
  log: LogConfigSchema,
  metrics: MetricsConfigSchema,
  otel: ControllerOTelConfigSchema,
  policies: Type.Object({
    cr_watcher: CRWatcherConfigSchema,
    promql_jobs_scheduler: JobGroupConfigSchema,
  }, closed),
  profilers: ProfilersConfigSchema,
  prometheus: PrometheusTreeSchema,
  readiness: HealthTreeSchema,
  crash_report: CrashReportConfigSchema,
  injector: InjectorConfigSchema,
  server: ControllerServerTreeSchema,
  watchdog: Type.Object({ memory: WatchdogConfigSchema }, closed),
}, closed);
