import { ValueType, type Attributes, type HrTime } from '@opentelemetry/api';
import {
  AggregationTemporality, DataPointType,
  type CollectionResult, type MetricData, type MetricProducer,
} from '@opentelemetry/sdk-metrics';
import { emptyResource } from '@opentelemetry/resources';
import type { Registry } from 'prom-client';
import { isHighCardinalityMetric } from '../metrics/high-cardinality.js';

/**
 * The bridge from the process's prom-client registry into the OpenTelemetry SDK pipeline.
 *
 * The process's instruments stay on prom-client: its registry is what `/metrics` serves, byte for
 * byte as before, and several instruments (FastCounter, FastHistogram, the flux meter histogram with
 * per-meter buckets) are prom-client subclasses tuned for the Check path. At each collection of a
 * reader (remote write, OTLP), this producer reads the registry and hands the SDK the same families
 * as OpenTelemetry metric data: counters as cumulative monotonic sums, gauges as gauges, histograms as
 * explicit-bucket histograms (prom-client's cumulative bucket counts turned into per-bucket counts),
 * summaries as a gauge per quantile plus `<name>_sum` and `<name>_count` sums. Families hidden by
 * `otel.enable_high_cardinality_platform_metrics` false are left out here too.
 */
export class PromClientProducer implements MetricProducer {
  private readonly startTime: HrTime;

  constructor(
    private readonly registry: Registry,
    private readonly highCardinality: boolean,
    private readonly now: () => number = Date.now,
  ) {
    this.startTime = hrTime(now());
  }

  async collect(): Promise<CollectionResult> {
    const families = await this.registry.getMetricsAsJSON();
    const endTime = hrTime(this.now());
    const metrics: MetricData[] = [];
    const errors: unknown[] = [];
    for (const f of families) {
      if (!this.highCardinality && isHighCardinalityMetric(f.name)) continue;
      try {
        metrics.push(...convertFamily(f as unknown as PromFamily, this.startTime, endTime));
      } catch (err) {
        errors.push(err);
      }
    }
    return {
      resourceMetrics: { resource: emptyResource(), scopeMetrics: [{ scope: { name: 'prom-client' }, metrics }] },
      errors,
    };
  }
}

/** One family as prom-client's getMetricsAsJSON gives it. */
export interface PromFamily {
  name: string;
  help: string;
  type: string;
  values: { value: number; labels: Record<string, string | number>; metricName?: string }[];
}

export function hrTime(ms: number): HrTime {
  const s = Math.floor(ms / 1000);
  return [s, Math.round((ms - s * 1000) * 1e6)];
}

function attrs(labels: Record<string, string | number>, drop?: string): Attributes {
  const out: Attributes = {};
  for (const [k, v] of Object.entries(labels)) if (k !== drop) out[k] = String(v);
  return out;
}

function keyOf(a: Attributes): string {
  return JSON.stringify(Object.entries(a).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)));
}

function descriptor(name: string, help: string) {
  return { name, description: help, unit: '', valueType: ValueType.DOUBLE };
}

function sum(name: string, help: string, points: { attributes: Attributes; value: number }[], startTime: HrTime, endTime: HrTime, monotonic: boolean): MetricData {
  return {
    descriptor: descriptor(name, help),
    aggregationTemporality: AggregationTemporality.CUMULATIVE,
    dataPointType: DataPointType.SUM,
    isMonotonic: monotonic,
    dataPoints: points.map((p) => ({ startTime, endTime, attributes: p.attributes, value: p.value })),
  };
}

/** The OpenTelemetry metric data of one prom-client family. */
export function convertFamily(f: PromFamily, startTime: HrTime, endTime: HrTime): MetricData[] {
  switch (f.type) {
    case 'counter':
      return [sum(f.name, f.help, f.values.map((v) => ({ attributes: attrs(v.labels), value: v.value })), startTime, endTime, true)];
    case 'gauge':
      return [{
        descriptor: descriptor(f.name, f.help),
        aggregationTemporality: AggregationTemporality.CUMULATIVE,
        dataPointType: DataPointType.GAUGE,
        dataPoints: f.values.map((v) => ({ startTime, endTime, attributes: attrs(v.labels), value: v.value })),
      }];
    case 'histogram':
      return [histogram(f, startTime, endTime)];
    case 'summary':
      return summary(f, startTime, endTime);
    default:
      throw new TypeError(`metric ${f.name}: prom-client type ${f.type} has no OpenTelemetry counterpart`);
  }
}

interface Cell { attributes: Attributes; bounds: [number, number][]; inf?: number; sum: number; count?: number }

function histogram(f: PromFamily, startTime: HrTime, endTime: HrTime): MetricData {
  const cells = new Map<string, Cell>();
  const cellOf = (labels: Record<string, string | number>): Cell => {
    const a = attrs(labels, 'le');
    const k = keyOf(a);
    let c = cells.get(k);
    if (c === undefined) cells.set(k, c = { attributes: a, bounds: [], sum: 0 });
    return c;
  };
  for (const v of f.values) {
    const c = cellOf(v.labels);
    if (v.metricName === `${f.name}_bucket`) {
      const le = v.labels.le;
      if (le === '+Inf' || le === Infinity) c.inf = v.value;
      else c.bounds.push([Number(le), v.value]);
    } else if (v.metricName === `${f.name}_sum`) c.sum = v.value;
    else if (v.metricName === `${f.name}_count`) c.count = v.value;
  }
  return {
    descriptor: descriptor(f.name, f.help),
    aggregationTemporality: AggregationTemporality.CUMULATIVE,
    dataPointType: DataPointType.HISTOGRAM,
    dataPoints: [...cells.values()].map((c) => {
      c.bounds.sort((a, b) => a[0] - b[0]);
      const total = c.count ?? c.inf ?? (c.bounds.at(-1)?.[1] ?? 0);
      const counts: number[] = [];
      let prev = 0;
      for (const [, cumulative] of c.bounds) {
        counts.push(Math.max(0, cumulative - prev));
        prev = cumulative;
      }
      counts.push(Math.max(0, total - prev));
      return {
        startTime, endTime, attributes: c.attributes,
        value: { buckets: { boundaries: c.bounds.map(([b]) => b), counts }, sum: c.sum, count: total },
      };
    }),
  };
}

function summary(f: PromFamily, startTime: HrTime, endTime: HrTime): MetricData[] {
  const quantiles: { attributes: Attributes; value: number }[] = [];
  const sums: { attributes: Attributes; value: number }[] = [];
  const counts: { attributes: Attributes; value: number }[] = [];
  for (const v of f.values) {
    if (v.metricName === `${f.name}_sum`) sums.push({ attributes: attrs(v.labels), value: v.value });
    else if (v.metricName === `${f.name}_count`) counts.push({ attributes: attrs(v.labels), value: v.value });
    else quantiles.push({ attributes: attrs(v.labels), value: v.value });
  }
  return [
    {
      descriptor: descriptor(f.name, f.help),
      aggregationTemporality: AggregationTemporality.CUMULATIVE,
      dataPointType: DataPointType.GAUGE,
      dataPoints: quantiles.map((p) => ({ startTime, endTime, attributes: p.attributes, value: p.value })),
    },
    sum(`${f.name}_sum`, f.help, sums, startTime, endTime, false),
    sum(`${f.name}_count`, f.help, counts, startTime, endTime, true),
  ];
}
