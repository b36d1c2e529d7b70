import { onceShutdown, type Lifecycle } from '@sluice/lifecycle';
/** The delays of one key's retries: the next one, and back to the first after a success. */
export interface RetryDelays {
  next(): number;
}

export interface ReconcilerOptions<K> {
  /** Brings the object `key` names to its desired state; a throw requeues the key after a delay. */
  reconcile(key: K): Promise<void>;
  /** A fresh delay sequence for a key that failed (the process's one backoff). */
  retryDelays(): RetryDelays;
  /** Told of each failure, with the delay before the retry. */
  onError?(key: K, err: unknown, retryInMs: number): void;
}

export interface ReconcilerStats {
  /** Keys waiting to be reconciled. */
  depth: number;
  /** Keys waiting for a retry after a failure. */
  retrying: number;
  reconciled: number;
  errors: number;
}

/**
 * One level-triggered reconcile loop: a work queue keyed by object. Marking a key says "look at
 * this object again"; a key marked several times before its turn is reconciled once, keys are
 * reconciled one at a time in the order they were first marked, and a key whose reconcile throws is
 * marked again after its own growing delay (reset by its next success). What to do is always read
 * from the current state, never from the event that marked the key.
 */
export class Reconciler<K> implements Lifecycle {
  private readonly dirty = new Set<K>();
  private readonly retries = new Map<K, { delays: RetryDelays; timer?: NodeJS.Timeout }>();
  private working: Promise<void> | undefined;
  private stopped = false;
  private counts = { reconciled: 0, errors: 0 };

  constructor(private readonly o: ReconcilerOptions<K>) {}

  /** Queues `key` for a reconcile (once, however often it is marked before its turn). */
  mark(key: K): void {
    if (this.stopped) return;
    this.dirty.add(key);
    this.working ??= this.drain().finally(() => (this.working = undefined));
  }

  /** Resolves when no key is queued (retries waiting on their timers are not waited for). */
  async idle(): Promise<void> {
    while (this.working) await this.working;
  }

  /**
   * Stops taking keys, cancels the retries, and waits for the reconcile under way (not past the
   * deadline). Idempotent.
   */
  readonly shutdown = onceShutdown('reconciler', () => this.stopAll());

  private async stopAll(): Promise<void> {
    this.stopped = true;
    this.dirty.clear();
    for (const r of this.retries.values()) if (r.timer) clearTimeout(r.timer);
    this.retries.clear();
    await this.working;
  }

  stats(): ReconcilerStats {
    return { depth: this.dirty.size, retrying: this.retries.size, ...this.counts };
  }

  private async drain(): Promise<void> {
    while (!this.stopped && this.dirty.size > 0) {
      const key = this.dirty.values().next().value as K;
      this.dirty.delete(key);
      try {
        await this.o.reconcile(key);
        this.counts.reconciled++;
        const r = this.retries.get(key);
        if (r !== undefined) {
          if (r.timer) clearTimeout(r.timer);
          this.retries.delete(key);
        }
      } catch (err) {
        this.counts.errors++;
        this.requeue(key, err);
      }
    }
  }

  private requeue(key: K, err: unknown): void {
    if (this.stopped) return;
    let r = this.retries.get(key);
    if (r === undefined) this.retries.set(key, (r = { delays: this.o.retryDelays() }));
    const delay = r.delays.next();
    this.o.onError?.(key, err, delay);
    if (r.timer) clearTimeout(r.timer);
    const entry = r;
    entry.timer = setTimeout(() => {
      entry.timer = undefined;
      this.mark(key);
    }, delay);
    entry.timer.unref?.();
  }
}
