import { Histogram, type HistogramConfiguration, type LabelValues, type MetricObjectWithValues, type MetricValueWithName } from 'prom-client';
import { cellFor, labelsFromArgs } from './label-key.js';

/** A histogram child bound to one label set: `observe` is a bucket search and three additions. */
export interface FastHistogramChild {
  observe(value: number): void;
}

interface Cell { labels: LabelValues<string>; counts: Float64Array; sum: number; count: number }

const DEFAULT_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * A prom-client Histogram whose children keep their bucket counts in a
 * typed array: `child(labels)` resolves the label set once. The samples
 * (`_bucket` cumulative with `le`, `_sum`, `_count`) are built at scrape
 * time in prom-client's own shape; registration and `instanceof Histogram`
 * stay prom-client's.
 */
export class FastHistogram<T extends string = string> extends Histogram<T> {
  private readonly cells = new Map<string, Cell>();
  private readonly names: readonly string[];
  private readonly meta: { name: string; help: string; aggregator: string };
  private readonly bounds: number[];

  constructor(config: HistogramConfiguration<T>) {
    super(config);
    this.names = config.labelNames ?? [];
    this.meta = { name: config.name, help: config.help, aggregator: config.aggregator ?? 'sum' };
    this.bounds = [...(config.buckets ?? DEFAULT_BUCKETS)].sort((a, b) => a - b);
    // prom-client assigns `observe` on the instance; route it here.
    this.observe = FastHistogram.prototype.observe;
  }

  child(labels: LabelValues<T>): FastHistogramChild {
    const c = cellFor(this.cells, this.meta.name, this.names, labels,
      (copy): Cell => ({ labels: copy as LabelValues<string>, counts: new Float64Array(this.bounds.length), sum: 0, count: 0 }));
    const bounds = this.bounds;
    return {
      observe: (value) => {
        if (!Number.isFinite(value)) throw new TypeError(`${this.meta.name}: an observation must be a finite number, got ${value}`);
        for (let i = 0; i < bounds.length; i++) {
          if (value <= bounds[i]) { c.counts[i]++; break; }
        }
        c.sum += value;
        c.count++;
      },
    };
  }

  /** prom-client's `observe(labels?, value)`, kept for callers that do not hold a child. */
  override observe(...args: unknown[]): void {
    const [first, second] = args;
    if (typeof first === 'object' && first !== null) this.child(first as LabelValues<T>).observe(second as number);
    else this.child({} as LabelValues<T>).observe(first as number);
  }

  override labels(...args: unknown[]): ReturnType<Histogram<T>['labels']> {
    return this.child(labelsFromArgs<LabelValues<T>>(this.names, args)) as unknown as ReturnType<Histogram<T>['labels']>;
  }

  override reset(): void {
    // prom-client's constructor resets before this class's fields exist.
    super.reset();
    (this.cells as Map<string, Cell> | undefined)?.clear();
  }

  /** The samples in prom-client's shape: `le` in `labels`, the series' labels in `sharedLabels`. */
  private samples(): MetricValueWithName<T>[] {
    const values: MetricValueWithName<T>[] = [];
    const bucket = `${this.meta.name}_bucket`;
    // prom-client's shape, exemplar slot included (null on buckets, undefined on _sum/_count).
    const sample = (labels: object, value: number, metricName: string, shared: LabelValues<string>, exemplar: null | undefined): MetricValueWithName<T> =>
      ({ labels, value, metricName, exemplar, sharedLabels: shared } as unknown as MetricValueWithName<T>);
    for (const cell of this.cells.values()) {
      let acc = 0;
      for (let i = 0; i < this.bounds.length; i++) {
        acc += cell.counts[i];
        values.push(sample({ le: this.bounds[i] }, acc, bucket, cell.labels, null));
      }
      values.push(sample({ le: '+Inf' }, cell.count, bucket, cell.labels, null));
      values.push(sample({}, cell.sum, `${this.meta.name}_sum`, cell.labels, undefined));
      values.push(sample({}, cell.count, `${this.meta.name}_count`, cell.labels, undefined));
    }
    return values;
  }

  private family(values: MetricValueWithName<T>[]): MetricObjectWithValues<MetricValueWithName<T>> {
    return { name: this.meta.name, help: this.meta.help, type: 'histogram', values, aggregator: this.meta.aggregator } as unknown as MetricObjectWithValues<MetricValueWithName<T>>;
  }

  override async get(): Promise<MetricObjectWithValues<MetricValueWithName<T>>> {
    const values = this.samples().map((v) => {
      const { sharedLabels, labels, ...rest } = v as unknown as { sharedLabels: object; labels: object };
      return { ...rest, labels: { ...labels, ...sharedLabels } } as unknown as MetricValueWithName<T>;
    });
    return this.family(values);
  }

  /** What the registry formats the text from when present. */
  async getForPromString(): Promise<MetricObjectWithValues<MetricValueWithName<T>>> {
    return this.family(this.samples());
  }
}
