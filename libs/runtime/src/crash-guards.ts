import type { EventEmitter } from 'node:events';
import { Counter, type Registry } from 'prom-client';
import type { SluiceLogger } from '@sluice/telemetry';
import type { CrashReporter } from './crash-report.js';

/** What the guards use of the process's logger. */
export type CrashGuardLogger = Pick<SluiceLogger, 'error' | 'close'>;

/** The parts of `process` the guards use (replaceable in tests). */
export type GuardedProcess = Pick<EventEmitter, 'on' | 'off'> & { exit(code?: number): never };

export interface CrashGuardOptions {
  /** Where crashes are reported (`crash_report`); may still be starting. */
  reporter?: CrashReporter | Promise<CrashReporter | undefined>;
  /** Longest wait for the report to leave before exiting (default 2000 ms). */
  flushMs?: number;
}

function describe(err: unknown): Record<string, unknown> {
  return err instanceof Error ? { error: err.message, stack: err.stack } : { error: String(err) };
}

function within<T>(p: Promise<T>, ms: number): Promise<T | undefined> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(undefined), ms);
    timer.unref();
    p.then((v) => { clearTimeout(timer); resolve(v); }, () => { clearTimeout(timer); resolve(undefined); });
  });
}

/**
 * Process-wide last resorts. A promise rejected with nobody listening is a
 * bug, but not one that should take every flow down with it: it is logged,
 * counted (`process_unhandled_rejections_total`) and reported as an error
 * (`crash_report`), and the process keeps serving. An uncaught exception
 * leaves state unknown: it is logged with its stack, reported as fatal, the
 * report is flushed (at most `flushMs`) and so is the log, and the process
 * exits 70 (EX_SOFTWARE) so that its supervisor restarts it. Answers a
 * function that removes the guards.
 */
export function installCrashGuards(
  logger: CrashGuardLogger, registry: Registry, proc: GuardedProcess = process as unknown as GuardedProcess, opts: CrashGuardOptions = {},
): () => void {
  const flushMs = opts.flushMs ?? 2000;
  const reporter = opts.reporter === undefined ? undefined : Promise.resolve(opts.reporter);
  const rejections = (registry.getSingleMetric('process_unhandled_rejections_total') as Counter | undefined)
    ?? new Counter({ name: 'process_unhandled_rejections_total', help: 'Promise rejections that nothing handled (logged, the process kept serving).', registers: [registry] });
  const onRejection = (reason: unknown): void => {
    rejections.inc();
    logger.error('unhandled promise rejection (kept serving)', describe(reason));
    reporter?.then((r) => r?.report(reason, 'error'), () => {});
  };
  let exiting = false;
  const onException = (err: unknown): void => {
    logger.error('uncaught exception: exiting', describe(err));
    if (exiting) return;
    exiting = true;
    let exited = false;
    const done = (): void => { if (!exited) { exited = true; proc.exit(70); } };
    const report = async (): Promise<void> => {
      if (reporter === undefined) return;
      const started = Date.now();
      const r = await within(reporter, flushMs);
      if (r === undefined) return;
      r.report(err, 'fatal');
      await within(r.flush(Math.max(1, flushMs - (Date.now() - started))), flushMs);
    };
    report().then(() => logger.close()).then(done, done);
    setTimeout(done, flushMs + 2000).unref();
  };
  proc.on('unhandledRejection', onRejection);
  proc.on('uncaughtException', onException);
  return () => {
    proc.off('unhandledRejection', onRejection);
    proc.off('uncaughtException', onException);
  };
}
