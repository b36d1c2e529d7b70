import type { ControllerEtcd } from './controller-etcd.js';
import type { ControllerMetrics } from './metrics.js';

export type PublicationKind = 'config' | 'decision';

export interface PublisherLogger {
  warn(msg: string, meta?: Record<string, unknown>): void;
  info(msg: string, meta?: Record<string, unknown>): void;
}

const RETRY_MIN_MS = 250;
const RETRY_MAX_MS = 5000;

/**
 * The keys the controller publishes for the agents, level-triggered: callers set or
 * remove the desired value of a key; one flush at a time writes what differs from what
 * was last written (on the lease: `leased.put` / `leased.delete`), so a value is written
 * only when it changes and a key that went away is deleted. A failed write is retried
 * with backoff, and at once when etcd is connected again.
 */
export class Publisher {
  private readonly desired = new Map<string, { value: string; kind: PublicationKind }>();
  private readonly written = new Map<string, { value: string; kind: PublicationKind }>();
  private flushing: Promise<void> | undefined;
  private dirty = false;
  private retryTimer: NodeJS.Timeout | undefined;
  private retryMs = RETRY_MIN_MS;
  private closed = false;
  private lastErrorMessage: string | undefined;

  constructor(private readonly etcd: ControllerEtcd, private readonly metrics: ControllerMetrics, private readonly logger?: PublisherLogger) {
    etcd.onStateChange((state) => {
      if (state === 'connected') {
        this.retryMs = RETRY_MIN_MS;
        this.schedule();
      }
    });
  }

  set(key: string, value: string, kind: PublicationKind): void {
    const cur = this.desired.get(key);
    if (cur !== undefined && cur.value === value) return;
    this.desired.set(key, { value, kind });
    this.schedule();
  }

  remove(key: string): void {
    if (!this.desired.delete(key)) return;
    this.schedule();
  }

  /** The desired value of a key (what is published, or about to be). */
  value(key: string): string | undefined {
    return this.desired.get(key)?.value;
  }

  /** True when every desired key is written and nothing is left to delete. */
  synced(): boolean {
    if (this.flushing !== undefined || this.dirty) return false;
    if (this.desired.size !== this.written.size) return false;
    for (const [k, d] of this.desired) if (this.written.get(k)?.value !== d.value) return false;
    return true;
  }

  lastError(): string | undefined {
    return this.lastErrorMessage;
  }

  /** Resolves when the current flush (and any it scheduled) ended. */
  async idle(): Promise<void> {
    while (this.flushing !== undefined) await this.flushing;
  }

  /** Stops retrying; keys on the lease go when the lease is revoked or expires. */
  close(): void {
    this.closed = true;
    if (this.retryTimer !== undefined) clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
  }

  private schedule(): void {
    if (this.closed) return;
    this.dirty = true;
    if (this.flushing !== undefined) return;
    this.flushing = this.flushLoop().finally(() => { this.flushing = undefined; });
  }

  private async flushLoop(): Promise<void> {
    while (this.dirty && !this.closed) {
      this.dirty = false;
      if (this.retryTimer !== undefined) { clearTimeout(this.retryTimer); this.retryTimer = undefined; }
      const failed = await this.flushOnce();
      if (failed) {
        this.retryTimer = setTimeout(() => { this.retryTimer = undefined; this.schedule(); }, this.retryMs);
        this.retryTimer.unref();
        this.retryMs = Math.min(RETRY_MAX_MS, this.retryMs * 2);
        return;
      }
      this.retryMs = RETRY_MIN_MS;
      this.lastErrorMessage = undefined;
    }
  }

  /** One pass over the differences; answers true when some write failed. */
  private async flushOnce(): Promise<boolean> {
    const puts = [...this.desired].filter(([k, d]) => this.written.get(k)?.value !== d.value);
    const deletes = [...this.written].filter(([k]) => !this.desired.has(k));
    for (const [key, d] of puts) {
      try {
        await this.etcd.leased.put(key, d.value);
        this.written.set(key, d);
        this.metrics.publications.inc({ kind: d.kind, operation: 'put' });
      } catch (err) {
        // etcd is likely away: stop this pass (each call would wait for its own timeout) and retry later.
        this.failure(d.kind, 'put', key, err);
        return true;
      }
      if (this.closed) return false;
    }
    for (const [key, w] of deletes) {
      if (this.desired.has(key)) continue;
      try {
        await this.etcd.leased.delete(key);
        if (!this.desired.has(key)) this.written.delete(key);
        this.metrics.publications.inc({ kind: w.kind, operation: 'delete' });
      } catch (err) {
        this.failure(w.kind, 'delete', key, err);
        return true;
      }
      if (this.closed) return false;
    }
    return false;
  }

  private failure(kind: PublicationKind, operation: 'put' | 'delete', key: string, err: unknown): void {
    const message = err instanceof Error ? err.message : String(err);
    this.metrics.publicationFailures.inc({ kind, operation });
    if (this.lastErrorMessage === undefined) this.logger?.warn('publication to etcd failed; retrying', { key, operation, error: message });
    this.lastErrorMessage = `${operation} ${key}: ${message}`;
  }
}
