import { onceShutdown, type Lifecycle, type ShutdownOptions } from '@sluice/lifecycle';
import { createBatcher, type Batcher, type BatchSettings, type BatchTimers } from '../batch/batcher.js';
import { SeriesTable, type SeriesCell } from './series-table.js';

export type { SeriesCell } from './series-table.js';

/** One rolled-up series: every record of a batch with the same metric and labels, summed. */
export interface RolledSeries {
  metric: string;
  labels: Readonly<Record<string, string>>;
  /** Records rolled into it. */
  count: number;
  /** Sum of their values. */
  sum: number;
}

export type EmitSeries = (metric: string, labels: Readonly<Record<string, string>>, value: number) => void;

/**
 * What `expand` counts a record with, without a label object or a key string per record: `series`
 * interns a metric and label set once (the same cell for the same metric and labels, so the
 * caller keeps it), `add` adds a value to an interned cell (two additions).
 */
export interface SeriesCounter {
  series(metric: string, labels: Readonly<Record<string, string>>): SeriesCell;
  add(cell: SeriesCell, value: number): void;
}

export interface FlowRollupOptions<T> {
  /** `otel.batch_prerollup`: batches of per-flow records, rolled up as they are recorded. */
  prerollup: BatchSettings;
  /** `otel.batch_postrollup`: batches of rolled-up series on their way to `sink`. */
  postrollup: BatchSettings;
  /**
   * The series one record counts in: `emit(metric, labels, value)` for each (interned by a key
   * built from the labels), or `counter.add(cell, value)` with cells the caller interned once
   * through `counter.series` (nothing allocated per record). Called as the record is recorded.
   */
  expand(record: T, emit: EmitSeries, counter: SeriesCounter): void;
  /** Receives each post-rollup batch. */
  sink(series: RolledSeries[]): void;
  onError?(err: unknown): void;
  timers?: BatchTimers;
}

export interface FlowRollup<T> extends Lifecycle {
  /** Counts one flow's record into the pending pre-rollup batch's series. */
  record(r: T): void;
  /** Records in the pending pre-rollup batch. */
  readonly pending: number;
  /** Rolls up and delivers everything pending. */
  forceFlush(): Promise<void>;
  /** Takes no more records, then rolls up and delivers what is pending. */
  shutdown(opts?: ShutdownOptions): Promise<void>;
}

/** Rolls a batch of records up per metric and label set. */
export function rollUp<T>(records: readonly T[], expand: FlowRollupOptions<T>['expand']): RolledSeries[] {
  const table = new SeriesTable();
  const counter: SeriesCounter = { series: (m, l) => table.series(m, l), add: (c, v) => table.add(c, v) };
  const emit: EmitSeries = (m, l, v) => table.add(table.series(m, l), v);
  for (const r of records) expand(r, emit, counter);
  return table.take();
}

const realTimers: BatchTimers = {
  setTimeout: (fn, ms) => {
    const h = setTimeout(fn, ms);
    h.unref();
    return h;
  },
  clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
};

/**
 * Flow telemetry on its way to the exported metrics, as the `otel.batch_prerollup` and
 * `otel.batch_postrollup` keys shape it. A record is rolled up as it is recorded: its values are
 * added to the pending pre-rollup batch's series (policy, component, decision, ...), so a batch
 * holds one cell per series, not its records. The pre-rollup batch counts its records and is sent
 * under the batcher's rules applied to them: when `send_batch_size` records are pending, when
 * `send_batch_max_size` are (a larger batch would be split there), `timeout` after its first
 * record, or at once with a timeout of 0. Sending hands its rolled-up series to the post-rollup
 * batcher, whose batches go to `sink`.
 */
export function createFlowRollup<T>(opts: FlowRollupOptions<T>): FlowRollup<T> {
  const pre = opts.prerollup;
  for (const [name, v] of [['sendBatchSize', pre.sendBatchSize], ['sendBatchMaxSize', pre.sendBatchMaxSize]] as const) {
    if (!Number.isInteger(v) || v < 0) throw new RangeError(`${name} must be a non-negative integer, not ${v}`);
  }
  if (!(pre.timeoutMs >= 0) || !Number.isFinite(pre.timeoutMs)) throw new RangeError(`timeoutMs must be a finite number >= 0, not ${pre.timeoutMs}`);
  const timers = opts.timers ?? realTimers;
  const onError = (err: unknown) => opts.onError?.(err);
  const post: Batcher<RolledSeries> = createBatcher<RolledSeries>({ ...opts.postrollup, timers, send: (batch) => opts.sink(batch), onError });
  const table = new SeriesTable();
  const counter: SeriesCounter = { series: (m, l) => table.series(m, l), add: (c, v) => table.add(c, v) };
  const emit: EmitSeries = (m, l, v) => table.add(table.series(m, l), v);
  // Records count against send_batch_size; a batch is sent at the lower of it and send_batch_max_size.
  const limit = pre.sendBatchSize === 0 ? pre.sendBatchMaxSize : pre.sendBatchMaxSize === 0 ? pre.sendBatchSize : Math.min(pre.sendBatchSize, pre.sendBatchMaxSize);
  let pending = 0;
  let timer: unknown;
  let closed = false;

  const send = (): void => {
    if (timer !== undefined) {
      timers.clearTimeout(timer);
      timer = undefined;
    }
    if (pending === 0) return;
    pending = 0;
    try {
      for (const s of table.take()) post.add(s);
    } catch (err) {
      onError(err);
    }
  };

  return {
    record(r) {
      if (closed) throw new Error('flow rollup is shut down');
      opts.expand(r, emit, counter);
      pending++;
      if (pre.timeoutMs === 0 || (limit > 0 && pending >= limit)) send();
      else if (timer === undefined) timer = timers.setTimeout(() => { timer = undefined; send(); }, pre.timeoutMs);
    },
    get pending() {
      return pending;
    },
    async forceFlush() {
      send();
      await post.forceFlush();
    },
    shutdown: onceShutdown('flow rollup', async () => {
      closed = true;
      send();
      await post.shutdown();
    }),
  };
}
