import type { CrashReportConfig } from '@sluice/config';
import { scrubDeep } from './scrub.js';

/** What the crash guards report to. */
export interface CrashReporter {
  /** Sends `err`: `fatal` when the process is about to exit, `error` when it keeps serving. */
  report(err: unknown, level: 'fatal' | 'error'): void;
  /** Waits up to `ms` for the reports to leave; true when they all did. */
  flush(ms: number): Promise<boolean>;
  /** Sends one trace: `name`, from `startMs` (epoch ms) to now; kept at `crash_report.traces_sample_rate`. */
  trace(name: string, op: string, startMs: number): void;
}

export interface CrashReporterOptions {
  /** `sluice-agent` or `sluice-controller`, sent as the report's server name prefix and tag. */
  service: string;
  /** Version of the process, sent as the release. */
  release: string;
  /** Every secret of the configuration (and other secrets the process learns): scrubbed from each report. */
  secrets: () => readonly string[];
}

/** Whether `crash_report` asks for reports: a `dsn` set and `disabled` false. */
export function crashReportingOn(config: CrashReportConfig): boolean {
  return !config.disabled && config.dsn.trim() !== '';
}

/**
 * Starts the crash-report client (`@sentry/node`) from `crash_report`, or answers undefined when
 * reporting is off. The client installs no process handler of its own (the crash guards decide
 * when to report and exit), no tracer provider and no module hooks; every event goes through a
 * `beforeSend` that replaces each secret of the configuration with `****`.
 */
export async function startCrashReporter(config: CrashReportConfig, opts: CrashReporterOptions): Promise<CrashReporter | undefined> {
  if (!crashReportingOn(config)) return undefined;
  const Sentry = await import('@sentry/node');
  const client = Sentry.init({
    dsn: config.dsn,
    environment: config.environment,
    sampleRate: config.sample_rate,
    tracesSampleRate: config.traces_sample_rate,
    attachStacktrace: config.attach_stack_trace,
    debug: config.debug,
    release: opts.release,
    serverName: opts.service,
    initialScope: { tags: { service: opts.service } },
    // No default integrations: they would install their own uncaughtException and
    // unhandledRejection handlers, instrument HTTP, and capture console output.
    defaultIntegrations: false,
    integrations: [Sentry.linkedErrorsIntegration(), Sentry.nodeContextIntegration()],
    // No global tracer provider of its own, no module hooks: the process's telemetry stays its own.
    enableOpenTelemetrySetup: false,
    enableRuntimeChannelInjection: false,
    sendClientReports: false,
    beforeSend: (event) => scrubDeep(event, opts.secrets()),
    beforeSendTransaction: (event) => scrubDeep(event, opts.secrets()),
    beforeSendSpan: (span) => scrubDeep(span, opts.secrets()),
    beforeBreadcrumb: (crumb) => scrubDeep(crumb, opts.secrets()),
  });
  if (client === undefined) return undefined;
  return {
    report: (err, level) => { Sentry.captureException(err, { level }); },
    flush: (ms) => Sentry.flush(ms),
    trace: (name, op, startMs) => {
      Sentry.startInactiveSpan({ name, op, startTime: startMs / 1000, forceTransaction: true }).end();
    },
  };
}
