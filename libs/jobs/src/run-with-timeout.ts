import type { Job, JobOutcome } from './job.js';

export interface RunVerdict {
  healthy: boolean;
  message: string;
  details?: Record<string, unknown>;
  durationMs: number;
  /** True when the run was cut short by `stop` (shutdown), not by its own timeout. */
  stopped: boolean;
}

/** Error used as the abort reason when a run exceeds its execution timeout. */
export class JobTimeoutError extends Error {
  constructor(readonly label: string) {
    super(`timeout after ${label}`);
    this.name = 'JobTimeoutError';
  }
}

function describe(err: unknown): string {
  if (err instanceof Error) return err.message || err.name;
  return String(err);
}

/**
 * Runs `job` once. The run's signal aborts after `timeoutMs` (when > 0) with a
 * JobTimeoutError, or when `stop` aborts. A run that ignores its signal is
 * abandoned at that moment: the verdict does not wait for it.
 */
export async function runWithTimeout(job: Job, timeoutMs: number, timeoutLabel: string, stop: AbortSignal): Promise<RunVerdict> {
  const started = performance.now();
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let onStop: (() => void) | undefined;
  type Settled = { kind: 'done'; value: JobOutcome | void } | { kind: 'error'; error: unknown } | { kind: 'timeout' } | { kind: 'stopped' };
  const cut = new Promise<Settled>((resolve) => {
    if (timeoutMs > 0) {
      timer = setTimeout(() => {
        controller.abort(new JobTimeoutError(timeoutLabel));
        resolve({ kind: 'timeout' });
      }, timeoutMs);
    }
    onStop = () => {
      controller.abort(stop.reason);
      resolve({ kind: 'stopped' });
    };
    if (stop.aborted) onStop();
    else stop.addEventListener('abort', onStop, { once: true });
  });
  const work: Promise<Settled> = Promise.resolve()
    .then(() => job.run(controller.signal))
    .then((value): Settled => ({ kind: 'done', value }), (error: unknown): Settled => ({ kind: 'error', error }));
  try {
    const settled = await Promise.race([work, cut]);
    const durationMs = performance.now() - started;
    switch (settled.kind) {
      case 'done': {
        const outcome = settled.value ?? {};
        const healthy = outcome.healthy ?? true;
        return { healthy, message: outcome.message ?? (healthy ? 'ok' : 'unhealthy'), details: outcome.details, durationMs, stopped: false };
      }
      case 'error':
        if (settled.error instanceof JobTimeoutError) return { healthy: false, message: settled.error.message, durationMs, stopped: false };
        return { healthy: false, message: describe(settled.error), durationMs, stopped: false };
      case 'timeout':
        return { healthy: false, message: `timeout after ${timeoutLabel}`, durationMs, stopped: false };
      default:
        return { healthy: false, message: 'stopped', durationMs, stopped: true };
    }
  } finally {
    if (timer !== undefined) clearTimeout(timer);
    if (onStop !== undefined) stop.removeEventListener('abort', onStop);
  }
}
