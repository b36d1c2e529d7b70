import { DEFAULT_SHUTDOWN_DEADLINE_MS, ShutdownDeadlineError, type ShutdownOptions } from './contract.js';

/** The shutdown's own work; it is told the deadline it runs under. */
export type ShutdownWork = (deadlineMs: number) => Promise<void> | void;

/**
 * What a shutdown told to finish within N ms is waited for beyond N: parts that force what is left
 * at their deadline (cut connections, abort calls) get the moment that takes.
 */
export const SHUTDOWN_GRACE_MS = 250;

/**
 * Runs `work`, telling it `deadlineMs`, and settles when it does, or rejects with a
 * `ShutdownDeadlineError` once `deadlineMs` (plus `SHUTDOWN_GRACE_MS`) has passed (the work is not
 * cancelled; it goes on in the background). A synchronous throw becomes a rejection.
 */
export function boundedShutdown(name: string, work: ShutdownWork, deadlineMs: number): Promise<void> {
  const ms = Math.max(0, deadlineMs);
  let timer: NodeJS.Timeout | undefined;
  const overdue = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ShutdownDeadlineError(name, ms)), ms + SHUTDOWN_GRACE_MS);
  });
  const done = new Promise<void>((resolve) => resolve(work(ms)));
  return Promise.race([done, overdue]).finally(() => clearTimeout(timer));
}

/**
 * Makes a component's shutdown follow the contract: the first call runs `work` bounded by the
 * caller's deadline (or `defaultDeadlineMs`); every later call returns that first call's promise.
 */
export function onceShutdown(
  name: string,
  work: ShutdownWork,
  defaultDeadlineMs: number = DEFAULT_SHUTDOWN_DEADLINE_MS,
): (opts?: ShutdownOptions) => Promise<void> {
  let first: Promise<void> | undefined;
  return (opts) => (first ??= boundedShutdown(name, work, opts?.deadlineMs ?? defaultDeadlineMs));
}
