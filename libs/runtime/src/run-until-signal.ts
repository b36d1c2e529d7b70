import type { SluiceLogger } from '@sluice/telemetry';
import type { Lifecycle } from '@sluice/lifecycle';

type Logger = Pick<SluiceLogger, 'info' | 'error' | 'close'>;

export interface RunOptions {
  /** Called with the error when start-up fails, before the log is closed (crash reports). */
  onStartFailure?: (err: unknown) => Promise<void>;
}

/**
 * Starts the lifecycle (the process's one group) and waits for SIGTERM or SIGINT, then shuts it
 * down once with `budgetMs` as its deadline. Resolves with the exit code: 0 after the shutdown (the
 * parts that failed or overran their share are logged with their errors), 1 when start-up failed.
 * A second signal while stopping exits at once.
 */
export async function runUntilSignal(lifecycle: Lifecycle, logger: Logger, budgetMs: number, opts: RunOptions = {}): Promise<number> {
  let stopRequested: ((signal: string) => void) | undefined;
  const stopped = new Promise<string>((resolve) => { stopRequested = resolve; });
  let signals = 0;
  const onSignal = (signal: NodeJS.Signals): void => {
    signals++;
    if (signals > 1) {
      logger.error('second signal while stopping: exiting now', { signal });
      process.exit(1);
    }
    stopRequested?.(signal);
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  try {
    await lifecycle.start?.();
  } catch (err) {
    logger.error('start-up failed', { error: err instanceof Error ? err.message : String(err) });
    process.off('SIGTERM', onSignal);
    process.off('SIGINT', onSignal);
    await opts.onStartFailure?.(err).catch(() => {});
    await logger.close();
    return 1;
  }
  const signal = await stopped;
  logger.info('stopping', { signal, budget_ms: budgetMs });
  try {
    await lifecycle.shutdown({ deadlineMs: budgetMs });
    logger.info('stopped');
  } catch (err) {
    const failures = err instanceof AggregateError ? err.errors : [err];
    logger.error('stopped, not cleanly', {
      error: err instanceof Error ? err.message : String(err),
      failures: failures.map((e: unknown) => (e instanceof Error ? e.message : String(e))),
    });
  }
  process.off('SIGTERM', onSignal);
  process.off('SIGINT', onSignal);
  await logger.close();
  return 0;
}
