import type { Counter, Meter } from '@opentelemetry/api';
import type { RolledSeries } from './flow-rollup.js';

/**
 * Where rolled-up flow telemetry lands: a monotonic counter per metric name on the pipeline's
 * meter, added the series' sum with its labels as attributes. Counters are made on first use.
 */
export function rolledSeriesSink(meter: Meter, descriptions: Readonly<Record<string, string>> = {}): (series: RolledSeries[]) => void {
  const counters = new Map<string, Counter>();
  return (series) => {
    for (const s of series) {
      let c = counters.get(s.metric);
      if (c === undefined) {
        c = meter.createCounter(s.metric, { description: descriptions[s.metric] ?? '' });
        counters.set(s.metric, c);
      }
      c.add(s.sum, s.labels);
    }
  };
}
