import { createBatcher, type Batcher, type BatchSettings, type BatchTimers } from '../batch/batcher.js';

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

export interface FlowRollupOptions<T> {
  /** `otel.batch_prerollup`: batches of per-flow records, rolled up when a batch is sent. */
  prerollup: BatchSettings;
  /** `otel.batch_postrollup`: batches of rolled-up series on their way to `sink`. */
  postrollup: BatchSettings;
  /** The series one record counts in (metric, labels, value); called when its batch is rolled up, not when recorded. */
  expand(record: T, emit: EmitSeries): void;
  /** Receives each post-rollup batch. */
  sink(series: RolledSeries[]): void;
  onError?(err: unknown): void;
  timers?: BatchTimers;
}

export interface FlowRollup<T> {
  /** Queues one flow's record: one array push on the caller's path. */
  record(r: T): void;
  /** Rolls up and delivers everything queued. */
  flush(): Promise<void>;
  shutdown(): Promise<void>;
}

function seriesKey(metric: string, labels: Readonly<Record<string, string>>): string {
  let k = metric;
  for (const name of Object.keys(labels).sort()) k += `\u0000${name}\u0001${labels[name]}`;
  return k;
}

/** Rolls a batch of records up per metric and label set. */
export function rollUp<T>(records: readonly T[], expand: FlowRollupOptions<T>['expand']): RolledSeries[] {
  const out = new Map<string, RolledSeries>();
  const emit: EmitSeries = (metric, labels, value) => {
    const k = seriesKey(metric, labels);
    const s = out.get(k);
    if (s === undefined) out.set(k, { metric, labels, count: 1, sum: value });
    else { s.count++; s.sum += value; }
  };
  for (const r of records) expand(r, emit);
  return [...out.values()];
}

/**
 * Flow telemetry on its way to the exported metrics, as the `otel.batch_prerollup` and
 * `otel.batch_postrollup` keys shape it: per-flow records gather in the pre-rollup batcher; each
 * batch it sends is rolled up per metric and label set (policy, component, decision, ...), and the
 * rolled-up series gather in the post-rollup batcher, whose batches go to `sink`.
 */
export function createFlowRollup<T>(opts: FlowRollupOptions<T>): FlowRollup<T> {
  const timers = opts.timers === undefined ? {} : { timers: opts.timers };
  const onError = (err: unknown) => opts.onError?.(err);
  const post: Batcher<RolledSeries> = createBatcher<RolledSeries>({ ...opts.postrollup, ...timers, send: (batch) => opts.sink(batch), onError });
  const pre: Batcher<T> = createBatcher<T>({
    ...opts.prerollup, ...timers, onError,
    send: (batch) => { for (const s of rollUp(batch, opts.expand)) post.add(s); },
  });
  return {
    record: (r) => pre.add(r),
    async flush() {
      await pre.flush();
      await post.flush();
    },
    async shutdown() {
      await pre.shutdown();
      await post.shutdown();
    },
  };
}
