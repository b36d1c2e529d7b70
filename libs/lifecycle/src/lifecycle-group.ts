import { boundedShutdown } from './bounded-shutdown.js';
import {
  DEFAULT_SHUTDOWN_DEADLINE_MS, StartupError, type NamedLifecycle, type ShutdownOptions,
} from './contract.js';

/** Where a group reports each child's start and stop; a process passes its logger. */
export interface LifecycleLogger {
  info(message: string, meta?: Record<string, unknown>): void;
  error(message: string, meta?: Record<string, unknown>): void;
}

export interface LifecycleGroupOptions {
  /** Names the group in logs and errors (and as a child of another group). */
  name?: string;
  logger?: LifecycleLogger;
  /** The whole shutdown's deadline when the caller gives none. */
  defaultDeadlineMs?: number;
  /** The deadline of the shutdown that undoes a failed start. */
  rollbackDeadlineMs?: number;
  /** What each child is given at least, even once the group's deadline is spent (so it can close what closes at once). */
  minChildDeadlineMs?: number;
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * A composite lifecycle: children start in the order they were added (dependency order) and shut
 * down in reverse, each within what is left of the group's deadline. A child that fails or overruns
 * its share does not stop the others: the errors are collected and the shutdown rejects with an
 * `AggregateError` once every child has had its turn. When a child fails to start, the ones started
 * before it are shut down and `start` rejects with a `StartupError` naming it.
 *
 * A group that was never started shuts down all its children (they were built running); once
 * started, only the ones that started.
 */
export class LifecycleGroup implements NamedLifecycle {
  readonly name: string;
  private readonly children: NamedLifecycle[] = [];
  private started: NamedLifecycle[] | undefined;
  private starting: Promise<void> | undefined;
  private stopping: Promise<void> | undefined;
  private readonly logger: LifecycleLogger | undefined;
  private readonly defaultDeadlineMs: number;
  private readonly rollbackDeadlineMs: number;
  private readonly minChildDeadlineMs: number;

  constructor(opts: LifecycleGroupOptions = {}) {
    this.name = opts.name ?? 'process';
    this.logger = opts.logger;
    this.defaultDeadlineMs = opts.defaultDeadlineMs ?? DEFAULT_SHUTDOWN_DEADLINE_MS;
    this.rollbackDeadlineMs = opts.rollbackDeadlineMs ?? 5000;
    this.minChildDeadlineMs = opts.minChildDeadlineMs ?? 100;
  }

  /** Adds a child; only before the group starts or shuts down. */
  add(child: NamedLifecycle): this {
    if (this.starting !== undefined || this.stopping !== undefined) {
      throw new Error(`${this.name}: ${child.name} added after the group started`);
    }
    this.children.push(child);
    return this;
  }

  /** The children's names in start order. */
  names(): string[] {
    return this.children.map((c) => c.name);
  }

  start(): Promise<void> {
    this.starting ??= this.startAll();
    return this.starting;
  }

  shutdown(opts?: ShutdownOptions): Promise<void> {
    this.stopping ??= this.stopAll(opts?.deadlineMs ?? this.defaultDeadlineMs);
    return this.stopping;
  }

  /** Flushes every child that buffers, all at once; rejects with an `AggregateError` naming the ones that failed. */
  async forceFlush(): Promise<void> {
    const flushing = this.children.filter((c) => c.forceFlush !== undefined);
    const results = await Promise.allSettled(flushing.map((c) => c.forceFlush?.()));
    const errors = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
    if (errors.length > 0) {
      const names = results.flatMap((r, i) => (r.status === 'rejected' ? [`${flushing[i]?.name}: ${message(r.reason)}`] : []));
      throw new AggregateError(errors, `${this.name}: ${errors.length} of ${flushing.length} flushes failed: ${names.join('; ')}`);
    }
  }

  private async startAll(): Promise<void> {
    const started: NamedLifecycle[] = [];
    this.started = started;
    for (const child of this.children) {
      if (this.stopping !== undefined) return;
      try {
        await child.start?.();
      } catch (err) {
        this.logger?.error('start failed', { component: child.name, error: message(err) });
        await this.shutdown({ deadlineMs: this.rollbackDeadlineMs }).catch(() => {});
        throw new StartupError(child.name, err);
      }
      if (this.stopping !== undefined) {
        // Shut down while this child was starting: the group's shutdown had already taken its list.
        await boundedShutdown(child.name, (ms) => child.shutdown({ deadlineMs: ms }), this.rollbackDeadlineMs).catch((err: unknown) => {
          this.logger?.error('shutdown failed', { component: child.name, error: message(err) });
        });
        return;
      }
      started.push(child);
      this.logger?.info('started', { component: child.name });
    }
  }

  private async stopAll(deadlineMs: number): Promise<void> {
    const order = [...(this.started ?? this.children)].reverse();
    const end = Date.now() + deadlineMs;
    const errors: unknown[] = [];
    const failed: string[] = [];
    for (const child of order) {
      const left = Math.max(this.minChildDeadlineMs, end - Date.now());
      try {
        await boundedShutdown(child.name, (ms) => child.shutdown({ deadlineMs: ms }), left);
        this.logger?.info('stopped', { component: child.name });
      } catch (err) {
        errors.push(err);
        failed.push(`${child.name}: ${message(err)}`);
        this.logger?.error('shutdown failed', { component: child.name, error: message(err) });
      }
    }
    if (errors.length > 0) {
      throw new AggregateError(errors, `${this.name}: ${errors.length} of ${order.length} components did not shut down cleanly (${failed.join('; ')})`);
    }
  }
}
