import { timerDurationMs } from '@sluice/config';
import { boundedShutdown, DEFAULT_SHUTDOWN_DEADLINE_MS, type Lifecycle, type ShutdownOptions } from '@sluice/lifecycle';
import { InvalidArgumentError } from '@sluice/errors';
import type { JobConfig, JobGroupConfig } from './config.js';
import type { Job, JobListener, JobResult } from './job.js';
import { runWithTimeout } from './run-with-timeout.js';
import { Semaphore } from './semaphore.js';

interface Entry {
  job: Job;
  config: JobConfig;
  periodMs: number;
  timeoutMs: number;
  timer: NodeJS.Timeout | undefined;
  inflight: Promise<JobResult> | undefined;
  result: JobResult;
  runs: number;
}


/**
 * A named set of periodic jobs sharing one execution policy (JobGroupConfig).
 *
 * - Each job runs once when the group starts (or when registered into a started
 *   group), then `execution_period` after the previous run finished; a period of
 *   zero or less means never periodic: the job then runs only at start and on `trigger`.
 * - A job never overlaps with itself. `blocking_execution` serializes all runs of
 *   the group; otherwise `worker_limit` > 0 bounds concurrent runs.
 * - A run that throws, returns `{healthy:false}` or exceeds `execution_timeout`
 *   (message `timeout after <execution_timeout>`) makes the job unhealthy; a run
 *   that completes makes it healthy. Each result goes to the listeners.
 * - Before the first run the job reports `initially_healthy` with message `not yet run`.
 */
export class JobGroup implements Lifecycle {
  private readonly entries = new Map<string, Entry>();
  private readonly listeners = new Set<JobListener>();
  private readonly semaphore: Semaphore;
  private stopController = new AbortController();
  private running = false;
  private stopping: Promise<void> | undefined;

  constructor(readonly name: string, config: JobGroupConfig, listener?: JobListener) {
    if (!config.blocking_execution && (!Number.isInteger(config.worker_limit) || config.worker_limit < 0)) {
      throw new InvalidArgumentError(`worker_limit must be a whole number >= 0, got ${config.worker_limit}`, 'worker_limit');
    }
    this.semaphore = new Semaphore(config.blocking_execution ? 1 : config.worker_limit);
    if (listener !== undefined) this.listeners.add(listener);
  }

  /** Adds a listener for every result; returns a function that removes it. */
  onResult(listener: JobListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  register(job: Job, config: JobConfig): void {
    if (typeof job.name !== 'string' || job.name.length === 0) throw new InvalidArgumentError('job name must be a non-empty string', 'name');
    if (this.entries.has(job.name)) throw new InvalidArgumentError(`job ${JSON.stringify(job.name)} is already registered in group ${JSON.stringify(this.name)}`, 'name');
    const entry: Entry = {
      job,
      config,
      periodMs: timerDurationMs(config.execution_period, 'execution_period'),
      timeoutMs: timerDurationMs(config.execution_timeout, 'execution_timeout'),
      timer: undefined,
      inflight: undefined,
      runs: 0,
      result: {
        group: this.name,
        job: job.name,
        healthy: config.initially_healthy,
        message: 'not yet run',
        timestamp: new Date(),
        runs: 0,
        durationMs: 0,
      },
    };
    this.entries.set(job.name, entry);
    this.emit(entry.result);
    if (this.running) this.launch(entry);
  }

  /** Stops scheduling a job (an in-flight run is aborted) and forgets its result. */
  async deregister(name: string): Promise<void> {
    const entry = this.entries.get(name);
    if (entry === undefined) return;
    this.entries.delete(name);
    if (entry.timer !== undefined) clearTimeout(entry.timer);
    entry.timer = undefined;
    await entry.inflight?.catch(() => undefined);
  }

  /** Runs every job once and then on its period; a group shut down may be started again. */
  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    this.stopping = undefined;
    if (this.stopController.signal.aborted) this.stopController = new AbortController();
    for (const entry of this.entries.values()) this.launch(entry);
  }

  /** Runs a job now (or joins its in-flight run) and resolves with its result. */
  trigger(name: string): Promise<JobResult> {
    const entry = this.entries.get(name);
    if (entry === undefined) return Promise.reject(new InvalidArgumentError(`no job ${JSON.stringify(name)} in group ${JSON.stringify(this.name)}`, 'name'));
    return this.execute(entry);
  }

  /**
   * Stops timers, aborts running jobs, drops queued runs and waits for the runs to end (a job that
   * ignores its abort signal is not waited for past the deadline). Idempotent until the next start.
   */
  shutdown(opts?: ShutdownOptions): Promise<void> {
    this.stopping ??= boundedShutdown(`job group ${this.name}`, () => this.stopAll(), opts?.deadlineMs ?? DEFAULT_SHUTDOWN_DEADLINE_MS);
    return this.stopping;
  }

  private async stopAll(): Promise<void> {
    this.running = false;
    for (const entry of this.entries.values()) {
      if (entry.timer !== undefined) clearTimeout(entry.timer);
      entry.timer = undefined;
    }
    this.stopController.abort(new Error(`job group ${this.name} is shutting down`));
    this.semaphore.cancelAll();
    await Promise.all([...this.entries.values()].map((e) => e.inflight?.catch(() => undefined)));
  }

  /** Latest result per job name. */
  results(): Map<string, JobResult> {
    return new Map([...this.entries].map(([name, entry]) => [name, entry.result]));
  }

  get started(): boolean {
    return this.running;
  }

  private launch(entry: Entry): void {
    void this.execute(entry).then(() => this.schedule(entry));
  }

  private schedule(entry: Entry): void {
    if (!this.running || entry.periodMs <= 0 || this.entries.get(entry.job.name) !== entry || entry.timer !== undefined) return;
    const elapsed = entry.result.durationMs;
    entry.timer = setTimeout(() => {
      entry.timer = undefined;
      this.launch(entry);
    }, Math.max(0, entry.periodMs - elapsed));
  }

  private execute(entry: Entry): Promise<JobResult> {
    if (entry.inflight !== undefined) return entry.inflight;
    const stop = this.stopController.signal;
    const inflight = (async (): Promise<JobResult> => {
      const granted = await this.semaphore.acquire();
      if (!granted || stop.aborted) {
        if (granted) this.semaphore.release();
        return entry.result;
      }
      try {
        const verdict = await runWithTimeout(entry.job, entry.timeoutMs, entry.config.execution_timeout, stop);
        if (verdict.stopped) return entry.result;
        entry.runs++;
        entry.result = {
          group: this.name,
          job: entry.job.name,
          healthy: verdict.healthy,
          message: verdict.message,
          timestamp: new Date(),
          runs: entry.runs,
          durationMs: verdict.durationMs,
          ...(verdict.details === undefined ? {} : { details: verdict.details }),
        };
        if (this.entries.get(entry.job.name) === entry) this.emit(entry.result);
        return entry.result;
      } finally {
        this.semaphore.release();
      }
    })();
    entry.inflight = inflight;
    void inflight.finally(() => {
      if (entry.inflight === inflight) entry.inflight = undefined;
    });
    return inflight;
  }

  private emit(result: JobResult): void {
    for (const listener of this.listeners) {
      try {
        listener(result);
      } catch {
        // A failing listener must not stop the group or the other listeners.
      }
    }
  }
}
