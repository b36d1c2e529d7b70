import type { Meter, ObservableGauge } from '@opentelemetry/api';

export interface GaugePoint {
  metric: string;
  attributes: Readonly<Record<string, string>>;
  value: number;
}

/**
 * Observable gauges on the pipeline's meter, one per name in `descriptions`, whose values at
 * each collection are what `read` answers then (points of other names are ignored).
 */
export function observeGaugePoints(meter: Meter, descriptions: Readonly<Record<string, string>>, read: () => readonly GaugePoint[]): void {
  const gauges = new Map<string, ObservableGauge>();
  for (const [name, description] of Object.entries(descriptions)) gauges.set(name, meter.createObservableGauge(name, { description }));
  meter.addBatchObservableCallback((r) => {
    for (const p of read()) {
      const g = gauges.get(p.metric);
      if (g !== undefined) r.observe(g, p.value, p.attributes);
    }
  }, [...gauges.values()]);
}
