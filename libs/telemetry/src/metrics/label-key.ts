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
