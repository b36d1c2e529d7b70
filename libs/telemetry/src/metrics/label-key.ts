/** A stable key of a label set in the order of the metric's label names. */
export function labelKey(labelNames: readonly string[], labels: Readonly<Record<string, string | number | undefined>>): string {
  let key = '';
  for (const name of labelNames) key += `${String(labels[name] ?? '')}\u0000`;
  return key;
}

/** Throws like prom-client when a label is not one of the metric's. */
export function checkLabels(metric: string, labelNames: readonly string[], labels: Readonly<Record<string, unknown>>): void {
  for (const name of Object.keys(labels)) {
    if (!labelNames.includes(name)) throw new Error(`Added label "${name}" is not included in initial labelset: ${JSON.stringify(labelNames)} (metric ${metric})`);
  }
}

/** prom-client's `labels()` arguments (an object, or values in label-name order) as a label set. */
export function labelsFromArgs<L>(labelNames: readonly string[], args: readonly unknown[]): L {
  if (typeof args[0] === 'object' && args[0] !== null) return args[0] as L;
  return Object.fromEntries(labelNames.map((n, i) => [n, String(args[i])])) as L;
}

/**
 * The cell of a label set, made on first use: the label set is checked and
 * copied once, so an update through a child never hashes labels again.
 */
export function cellFor<C>(cells: Map<string, C>, metric: string, labelNames: readonly string[], labels: Readonly<Record<string, string | number | undefined>>, make: (labels: Record<string, string | number | undefined>) => C): C {
  const key = labelKey(labelNames, labels);
  let cell = cells.get(key);
  if (cell === undefined) {
    checkLabels(metric, labelNames, labels);
    cell = make({ ...labels });
    cells.set(key, cell);
  }
  return cell;
}
