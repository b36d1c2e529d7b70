/** One interned series (metric and label set) and what is pending in it since the table was last taken. */
export interface SeriesCell {
  readonly metric: string;
  readonly labels: Readonly<Record<string, string>>;
  /** Values added since the last take. */
  count: number;
  sum: number;
  /** The take this cell was last added to in (whether it is already listed as touched). */
  epoch: number;
}

function seriesKey(metric: string, labels: Readonly<Record<string, string>>): string {
  const parts = [metric];
  for (const name of Object.keys(labels).sort()) parts.push(name, labels[name]);
  return JSON.stringify(parts);
}

/**
 * Series interned once per metric and label set, each a cell that values are added to; `take`
 * answers the series touched since the last take with their counts and sums, and zeroes them.
 * Adding is two additions (and, on a cell's first add since the last take, one push): nothing
 * is allocated per value.
 */
export class SeriesTable {
  private readonly cells = new Map<string, SeriesCell>();
  private touched: SeriesCell[] = [];
  private epoch = 1;

  /** The cell of `metric` and `labels` (the same object for the same metric and labels). */
  series(metric: string, labels: Readonly<Record<string, string>>): SeriesCell {
    const k = seriesKey(metric, labels);
    let c = this.cells.get(k);
    if (c === undefined) {
      c = { metric, labels: Object.freeze({ ...labels }), count: 0, sum: 0, epoch: 0 };
      this.cells.set(k, c);
    }
    return c;
  }

  add(cell: SeriesCell, value: number): void {
    if (cell.epoch !== this.epoch) {
      cell.epoch = this.epoch;
      this.touched.push(cell);
    }
    cell.count++;
    cell.sum += value;
  }

  /** Interned series. */
  get size(): number {
    return this.cells.size;
  }

  /** The series touched since the last take (in the order first touched), and zeroes them. */
  take(): { metric: string; labels: Readonly<Record<string, string>>; count: number; sum: number }[] {
    const out = this.touched.map((c) => ({ metric: c.metric, labels: c.labels, count: c.count, sum: c.sum }));
    for (const c of this.touched) { c.count = 0; c.sum = 0; }
    this.touched = [];
    this.epoch++;
    return out;
  }
}
