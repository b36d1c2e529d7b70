import { InvalidArgumentError } from '@sluice/errors';
import type { JobListener, JobResult } from '@sluice/jobs';
import type { Status, StatusChangeListener, StatusInput, StatusSummary } from './status.js';

const SEGMENT = /^[A-Za-z0-9_.:@-]+$/;

/** Validates and normalizes a path such as `liveness/service/event_loop`. */
export function normalizePath(path: string): string {
  if (typeof path !== 'string' || path.length === 0) throw new InvalidArgumentError('status path must be a non-empty string', 'path');
  const segments = path.split('/');
  for (const segment of segments) {
    if (!SEGMENT.test(segment)) throw new InvalidArgumentError(`invalid status path ${JSON.stringify(path)}: segments are non-empty and use letters, digits, _ . : @ -`, 'path');
  }
  return segments.join('/');
}

function isUnder(path: string, prefix: string): boolean {
  return prefix === '' || path === prefix || path.startsWith(`${prefix}/`);
}

/**
 * Hierarchical health statuses, one per path (`liveness/service/<job>`,
 * `readiness/service/<job>`, `liveness/watchdog/<policy>`). A subtree is healthy
 * when every entry under it is healthy; an empty subtree is healthy.
 */
export class StatusRegistry {
  private readonly statuses = new Map<string, Status>();
  private readonly listeners = new Set<StatusChangeListener>();

  set(path: string, input: StatusInput): Status {
    const key = normalizePath(path);
    if (typeof input?.healthy !== 'boolean') throw new InvalidArgumentError('status.healthy must be a boolean', 'healthy');
    const status: Status = {
      healthy: input.healthy,
      message: input.message ?? (input.healthy ? 'ok' : 'unhealthy'),
      timestamp: input.timestamp ?? new Date(),
      ...(input.details === undefined ? {} : { details: input.details }),
    };
    this.statuses.set(key, status);
    this.notify(key, status);
    return status;
  }

  get(path: string): Status | undefined {
    return this.statuses.get(normalizePath(path));
  }

  /** Removes the entry at `path` and every entry under it; returns how many were removed. */
  delete(path: string): number {
    const prefix = normalizePath(path);
    let removed = 0;
    for (const key of [...this.statuses.keys()]) {
      if (isUnder(key, prefix)) {
        this.statuses.delete(key);
        removed++;
        this.notify(key, undefined);
      }
    }
    return removed;
  }

  /** Every entry under `prefix` (all entries when omitted), sorted by path. */
  list(prefix = ''): Array<[string, Status]> {
    const root = prefix === '' ? '' : normalizePath(prefix);
    return [...this.statuses].filter(([key]) => isUnder(key, root)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  }

  summary(prefix = ''): StatusSummary {
    const entries: Record<string, Status> = {};
    const failing: Array<{ path: string; message: string }> = [];
    for (const [key, status] of this.list(prefix)) {
      entries[key] = status;
      if (!status.healthy) failing.push({ path: key, message: status.message });
    }
    return { healthy: failing.length === 0, entries, failing };
  }

  isHealthy(prefix = ''): boolean {
    const root = prefix === '' ? '' : normalizePath(prefix);
    for (const [key, status] of this.statuses) {
      if (!status.healthy && isUnder(key, root)) return false;
    }
    return true;
  }

  /** Calls `listener` on every change (status undefined = deleted); returns an unsubscribe function. */
  subscribe(listener: StatusChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** A JobGroup listener that files each job's result at `<prefix>/<job name>`. */
  jobListener(prefix: string): JobListener {
    const root = normalizePath(prefix);
    return (result: JobResult) => {
      this.set(`${root}/${result.job}`, {
        healthy: result.healthy,
        message: result.message,
        timestamp: result.timestamp,
        ...(result.details === undefined ? {} : { details: result.details }),
      });
    };
  }

  private notify(path: string, status: Status | undefined): void {
    for (const listener of this.listeners) {
      try {
        listener(path, status);
      } catch {
        // One failing listener must not hide the change from the others.
      }
    }
  }
}
