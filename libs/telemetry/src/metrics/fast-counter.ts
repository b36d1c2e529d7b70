import { Counter, type CounterConfiguration, type LabelValues, type MetricObjectWithValues, type MetricValue } from 'prom-client';
import { cellFor, labelKey, labelsFromArgs } from './label-key.js';

/** A counter child bound to one label set: `inc` adds to a number, nothing else. */
export interface FastCounterChild {
  inc(value?: number): void;
}

interface Cell { labels: LabelValues<string>; value: number }

/**
 * A prom-client Counter whose children are plain numbers: `child(labels)`
 * resolves the label set once, and each `inc` is an addition (prom-client
 * re-hashes and re-validates the labels on every update). The values are
 * read at scrape time; registration, text format and `instanceof Counter`
 * stay prom-client's.
 */
export class FastCounter<T extends string = string> extends Counter<T> {
  private readonly cells = new Map<string, Cell>();
  private readonly names: readonly string[];
  private readonly meta: { name: string; help: string; aggregator: string };

  constructor(config: CounterConfiguration<T>) {
    super(config);
    this.names = config.labelNames ?? [];
    this.meta = { name: config.name, help: config.help, aggregator: config.aggregator ?? 'sum' };
    // prom-client assigns `inc` on the instance; route it here.
    this.inc = FastCounter.prototype.inc;
  }

  child(labels: LabelValues<T>): FastCounterChild {
    const c = cellFor(this.cells, this.meta.name, this.names, labels, (copy): Cell => ({ labels: copy as LabelValues<string>, value: 0 }));
    return {
      inc: (value = 1) => {
        if (!(value >= 0) || !Number.isFinite(value)) throw new TypeError(`${this.meta.name}: a counter only grows by a finite amount, got ${value}`);
        c.value += value;
      },
    };
  }

  /** prom-client's `inc(labels?, value?)`, kept for callers that do not hold a child. */
  override inc(...args: unknown[]): void {
    const [first, second] = args;
    if (typeof first === 'object' && first !== null) this.child(first as LabelValues<T>).inc(second as number | undefined);
    else this.child({} as LabelValues<T>).inc(first as number | undefined);
  }

  override labels(...args: unknown[]): { inc: (value?: number) => void } {
    return this.child(labelsFromArgs<LabelValues<T>>(this.names, args));
  }

  /** Drops the series of one label set (an object, or values in label-name order). */
  override remove(...args: unknown[]): void {
    this.cells.delete(labelKey(this.names, labelsFromArgs<LabelValues<T>>(this.names, args)));
  }

  override reset(): void {
    // prom-client's constructor resets before this class's fields exist.
    super.reset();
    (this.cells as Map<string, Cell> | undefined)?.clear();
  }

  override async get(): Promise<MetricObjectWithValues<MetricValue<T>>> {
    const values: MetricValue<T>[] = [];
    for (const cell of this.cells.values()) values.push({ labels: cell.labels as LabelValues<T>, value: cell.value });
    return { name: this.meta.name, help: this.meta.help, type: 'counter', values, aggregator: this.meta.aggregator } as unknown as MetricObjectWithValues<MetricValue<T>>;
  }
}
