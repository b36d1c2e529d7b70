import type { EventEmitter } from 'node:events';
import { Counter, type Registry } from 'prom-client';

export interface CrashGuardLogger {
  error(msg: string, meta?: Record<string, unknown>): void;
  close(): Promise<void>;
}

/** The parts of `process` the guards use (replaceable in tests). */
export type GuardedProcess = Pick<EventEmitter, 'on' | 'off'> & { exit(code?: number): never };

function describe(err: unknown): Record<string, unknown> {
  return err instanceof Error ? { error: err.message, stack: err.stack } : { error: String(err) };
}

/**
 * Process-wide last resorts. A promise rejected with nobody listening is a
 * bug, but not one that should take every flow down with it: it is logged
 * and counted (`process_unhandled_rejections_total`) and the process keeps
 * serving. An uncaught exception leaves state unknown: it is logged with its
 * stack, the log is flushed, and the process exits 70 (EX_SOFTWARE) so that
 * its supervisor restarts it. Answers a function that removes the guards.
 */
export function installCrashGuards(logger: CrashGuardLogger, registry: Registry, proc: GuardedProcess = process as unknown as GuardedProcess): () => void {
  const rejections = (registry.getSingleMetric('process_unhandled_rejections_total') as Counter | undefined)
    ?? new Counter({ name: 'process_unhandled_rejections_total', help: 'Promise rejections that nothing handled (logged, the process kept serving).', registers: [registry] });
  const onRejection = (reason: unknown): void => {
    rejections.inc();
    logger.error('unhandled promise rejection (kept serving)', describe(reason));
  };
  let exiting = false;
  const onException = (err: unknown): void => {
    logger.error('uncaught exception: exiting', describe(err));
    if (exiting) return;
    exiting = true;
    let exited = false;
    const done = (): void => { if (!exited) { exited = true; proc.exit(70); } };
    logger.close().then(done, done);
    setTimeout(done, 2000).unref();
  };
  proc.on('unhandledRejection', onRejection);
  proc.on('uncaughtException', onException);
  return () => {
    proc.off('unhandledRejection', onRejection);
    proc.off('uncaughtException', onException);
  };
}
