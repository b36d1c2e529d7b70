import { onceShutdown, type Lifecycle, type ShutdownOptions } from '@sluice/lifecycle';
import { timerDurationMs } from '@sluice/config';

/**
 * A batcher with the semantics of the `otel.batch_*` keys (BatchAlertsConfig and its twins):
 * items gather until `send_batch_size` of them are pending, which sends them at once; a batch
 * larger than `send_batch_max_size` is split into batches of at most that many; and whatever is
 * pending is sent `timeout` after the first item of the batch arrived, whatever its size.
 * `send_batch_size` 0 means no size trigger (only the timeout sends), `send_batch_max_size` 0
 * means no upper limit, a timeout of 0 sends every item as it arrives.
 */

/** The `otel.batch_*` object, with the timeout already in milliseconds. */
export interface BatchSettings {
  /** Number of pending items that triggers sending; 0: only the timeout sends. */
  sendBatchSize: number;
  /** Upper limit of one batch; larger ones are split; 0: no limit. */
  sendBatchMaxSize: number;
  /** A batch is sent this long after its first item arrived; 0: at once. */
  timeoutMs: number;
}

/** The timers a batcher uses; tests hand it a fake clock. */
export interface BatchTimers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface BatcherOptions<T> extends BatchSettings {
  /** Sends one batch (never empty, never above sendBatchMaxSize when that is set). */
  send(batch: T[]): void | Promise<void>;
  /** Told when `send` throws or rejects; the batch is then dropped. */
  onError?(err: unknown, batch: readonly T[]): void;
  timers?: BatchTimers;
}

export interface Batcher<T> extends Lifecycle {
  add(item: T): void;
  /** Items waiting for a trigger. */
  readonly pending: number;
  /** Sends what is pending now and waits for every send started so far. */
  forceFlush(): Promise<void>;
  /** Refuses further items (add throws), then flushes. */
  shutdown(opts?: ShutdownOptions): Promise<void>;
}

const realTimers: BatchTimers = {
  setTimeout: (fn, ms) => {
    const h = setTimeout(fn, ms);
    h.unref();
    return h;
  },
  clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
};

function checkCount(name: string, v: number): void {
  if (!Number.isInteger(v) || v < 0) throw new RangeError(`${name} must be a non-negative integer, not ${v}`);
}

/** Makes a batcher over `send` (see the file's comment for the rules). */
export function createBatcher<T>(opts: BatcherOptions<T>): Batcher<T> {
  checkCount('sendBatchSize', opts.sendBatchSize);
  checkCount('sendBatchMaxSize', opts.sendBatchMaxSize);
  if (!(opts.timeoutMs >= 0) || !Number.isFinite(opts.timeoutMs)) throw new RangeError(`timeoutMs must be a finite number >= 0, not ${opts.timeoutMs}`);
  const timers = opts.timers ?? realTimers;
  let items: T[] = [];
  let timer: unknown;
  let closed = false;
  const inflight = new Set<Promise<void>>();

  const sendOne = (batch: T[]): void => {
    let result: void | Promise<void>;
    try {
      result = opts.send(batch);
    } catch (err) {
      opts.onError?.(err, batch);
      return;
    }
    if (result instanceof Promise) {
      const p: Promise<void> = result.then(() => undefined, (err: unknown) => { opts.onError?.(err, batch); })
        .finally(() => { inflight.delete(p); });
      inflight.add(p);
    }
  };

  const sendPending = (): void => {
    if (timer !== undefined) {
      timers.clearTimeout(timer);
      timer = undefined;
    }
    if (items.length === 0) return;
    const all = items;
    items = [];
    const max = opts.sendBatchMaxSize;
    if (max === 0 || all.length <= max) {
      sendOne(all);
      return;
    }
    for (let i = 0; i < all.length; i += max) sendOne(all.slice(i, i + max));
  };

  const forceFlush = async (): Promise<void> => {
    sendPending();
    while (inflight.size > 0) await Promise.all([...inflight]);
  };
  return {
    add(item) {
      if (closed) throw new Error('batcher is shut down');
      items.push(item);
      if (opts.timeoutMs === 0 || (opts.sendBatchSize > 0 && items.length >= opts.sendBatchSize)) {
        sendPending();
        return;
      }
      if (timer === undefined) timer = timers.setTimeout(() => { timer = undefined; sendPending(); }, opts.timeoutMs);
    },
    get pending() {
      return items.length;
    },
    forceFlush,
    shutdown: onceShutdown('batcher', async () => {
      closed = true;
      await forceFlush();
    }),
  };
}

/** An `otel.batch_*` object as the key tree holds it. */
export interface BatchConfig {
  send_batch_max_size: number;
  send_batch_size: number;
  timeout: string;
}

/** BatchSettings of an `otel.batch_*` object; `field` names it in the error of a bad timeout. */
export function batchSettingsOf(config: BatchConfig, field: string): BatchSettings {
  return {
    sendBatchSize: config.send_batch_size,
    sendBatchMaxSize: config.send_batch_max_size,
    timeoutMs: Math.max(0, timerDurationMs(config.timeout, `${field}.timeout`)),
  };
}
