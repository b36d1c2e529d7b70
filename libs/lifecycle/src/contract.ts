import { DeadlineExceededError, ErrorCode, SluiceError } from '@sluice/errors';

/** How long a shutdown may take before its caller stops waiting for it. */
export interface ShutdownOptions {
  /** Milliseconds from the call; each component has its own default when this is left out. */
  deadlineMs?: number;
}

/**
 * The one lifecycle every long-lived part of a process follows (servers, watchers, caches, leases,
 * pipelines, timers, connections).
 *
 * - `start` (when the component has one) makes it run; components built running have none.
 * - `shutdown` stops it and releases what it holds. It is idempotent (a second call returns the
 *   first call's promise), safe on a component that never started, and bounded: past its deadline
 *   it rejects with a `ShutdownDeadlineError` instead of hanging.
 * - `forceFlush` (when the component buffers) sends what is buffered now and keeps running.
 */
export interface Lifecycle {
  start?(): Promise<void>;
  shutdown(opts?: ShutdownOptions): Promise<void>;
  forceFlush?(): Promise<void>;
}

/** A lifecycle with a name, as a composite holds it and as logs and errors name it. */
export interface NamedLifecycle extends Lifecycle {
  readonly name: string;
}

/** What a shutdown waits for at most when its caller gives no deadline. */
export const DEFAULT_SHUTDOWN_DEADLINE_MS = 10_000;

/** A shutdown that had not finished by its deadline; what it was doing goes on in the background. */
export class ShutdownDeadlineError extends DeadlineExceededError {
  readonly component: string;
  readonly deadlineMs: number;
  constructor(component: string, deadlineMs: number) {
    super(`${component}: shutdown did not finish within ${deadlineMs} ms`);
    this.name = 'ShutdownDeadlineError';
    this.component = component;
    this.deadlineMs = deadlineMs;
  }
}

/** A component that failed to start; the ones started before it were shut down again. */
export class StartupError extends SluiceError {
  readonly component: string;
  constructor(component: string, cause: unknown) {
    super(ErrorCode.STARTUP, `${component}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'StartupError';
    this.component = component;
  }
}

/** `part` under a name, for a group: its methods are called on it, so a class's `this` holds. */
export function named(name: string, part: Lifecycle): NamedLifecycle {
  return {
    name,
    ...(part.start === undefined ? {} : { start: () => part.start?.() ?? Promise.resolve() }),
    shutdown: (opts) => part.shutdown(opts),
    ...(part.forceFlush === undefined ? {} : { forceFlush: () => part.forceFlush?.() ?? Promise.resolve() }),
  };
}
