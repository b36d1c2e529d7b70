import { onceShutdown, type Lifecycle } from '@sluice/lifecycle';
/** How items are batched (`otel.batch_alerts`). */
export interface BatchSettings {
  /** Pending items that trigger sending at once; 0: only the timeout sends. */
  sendBatchSize: number;
  /** Largest batch; more pending items are sent in several; 0: no limit. */
  sendBatchMaxSize: number;
  /** A batch is sent this long after its first item, whatever its size; 0: every item at once. */
  timeoutMs: number;
}

/** The timer functions the batcher uses (tests hand in a fake clock's). */
export interface BatchTimers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const REAL_TIMERS: BatchTimers = {
  setTimeout: (fn, ms) => {
    const t = setTimeout(fn, ms);
    t.unref();
    return t;
  },
  clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
};

/**
 * Batches items by key: an item added under a key already pending replaces it (the newer state of
 * the same alert), keeping its place. A batch goes to `flush` when `sendBatchSize` items are
 * pending or `timeoutMs` after its first item, split into parts of at most `sendBatchMaxSize`.
 * `flush` failing loses that batch (the caller counts and logs it).
 */
export class KeyedBatcher<T> implements Lifecycle {
  private pending = new Map<string, T>();
  private timer: unknown;
  private readonly inflight = new Set<Promise<void>>();
  private readonly timers: BatchTimers;

  constructor(
    private readonly settings: BatchSettings,
    private readonly flush: (items: T[]) => Promise<void>,
    timers?: BatchTimers,
  ) {
    this.timers = timers ?? REAL_TIMERS;
  }

  add(key: string, item: T): void {
    this.pending.set(key, item);
    const { sendBatchSize, timeoutMs } = this.settings;
    if (timeoutMs <= 0 || (sendBatchSize > 0 && this.pending.size >= sendBatchSize)) {
      this.flushNow();
      return;
    }
    this.timer ??= this.timers.setTimeout(() => {
      this.timer = undefined;
      this.flushNow();
    }, timeoutMs);
  }

  get pendingCount(): number {
    return this.pending.size;
  }

  /** Sends what is pending now. */
  flushNow(): void {
    if (this.timer !== undefined) {
      this.timers.clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (this.pending.size === 0) return;
    const items = [...this.pending.values()];
    this.pending = new Map();
    const max = this.settings.sendBatchMaxSize > 0 ? this.settings.sendBatchMaxSize : items.length;
    for (let i = 0; i < items.length; i += max) {
      const p = this.flush(items.slice(i, i + max)).catch(() => undefined).finally(() => this.inflight.delete(p));
      this.inflight.add(p);
    }
  }

  /** Sends what is pending and waits for every send under way. */
  readonly shutdown = onceShutdown('alert batcher', async () => {
    this.flushNow();
    await Promise.all([...this.inflight]);
  });
}
