import { SluiceError, ErrorCode } from '@sluice/errors';
import type { Component } from './component.js';
import type { Logger } from '@sluice/telemetry/logger';

/** A component that failed to start; the ones before it were stopped again. */
export class StartupError extends SluiceError {
  readonly component: string;
  constructor(component: string, cause: unknown) {
    super(ErrorCode.STARTUP, `${component}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'StartupError';
    this.component = component;
  }
}

/**
 * Components start in the order they were added (dependency order) and stop
 * in reverse. When one fails to start, those already started are stopped and
 * start() rejects with a StartupError naming it.
 */
export class Lifecycle {
  private readonly components: Component[] = [];
  private started: Component[] = [];
  private stopping: Promise<void> | undefined;

  constructor(private readonly logger?: Logger) {}

  add(component: Component): this {
    this.components.push(component);
    return this;
  }

  async start(): Promise<void> {
    for (const c of this.components) {
      try {
        await c.start();
      } catch (err) {
        this.logger?.error('start failed', { component: c.name, error: err instanceof Error ? err.message : String(err) });
        await this.shutdown(5000);
        throw new StartupError(c.name, err);
      }
      this.started.push(c);
      this.logger?.info('started', { component: c.name });
    }
  }

  /** Stops what was started, in reverse, within `deadlineMs` in all; idempotent. */
  shutdown(deadlineMs: number): Promise<void> {
    this.stopping ??= this.stopAll(deadlineMs);
    return this.stopping;
  }

  private async stopAll(deadlineMs: number): Promise<void> {
    const end = Date.now() + deadlineMs;
    const order = this.started.reverse();
    this.started = [];
    for (const c of order) {
      const left = Math.max(0, end - Date.now());
      let timer: NodeJS.Timeout | undefined;
      const overdue = new Promise<'overdue'>((resolve) => { timer = setTimeout(() => resolve('overdue'), left + 100); });
      try {
        const r = await Promise.race([Promise.resolve(c.shutdown(left)).then(() => 'done' as const), overdue]);
        if (r === 'overdue') this.logger?.error('shutdown past its deadline', { component: c.name });
        else this.logger?.info('stopped', { component: c.name });
      } catch (err) {
        this.logger?.error('shutdown failed', { component: c.name, error: err instanceof Error ? err.message : String(err) });
      } finally {
        clearTimeout(timer);
      }
    }
  }
}
