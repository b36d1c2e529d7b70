import { DataPointType, type ResourceMetrics } from '@opentelemetry/sdk-metrics';
import type { HrTime } from '@opentelemetry/api';
import { METRIC_TYPE, type RwLabel, type RwMetadata, type RwTimeSeries, type RwWriteRequest } from './remote-write-proto.js';

/** A Prometheus metric or label name: what is not [a-zA-Z0-9_:] becomes `_`, a leading digit gets `_`. */
export function promName(name: string, label = false): string {
  const s = name.replace(label ? /[^a-zA-Z0-9_]/g : /[^a-zA-Z0-9_:]/g, '_');
  return /^[0-9]/.test(s) ? `_${s}` : s;
}

// Label names repeat in every series of every export: each is turned into a Prometheus name once.
const LABEL_NAMES_KEPT = 4096;
const labelNames = new Map<string, string>();

function labelName(k: string): string {
  let n = labelNames.get(k);
  if (n === undefined) {
    if (labelNames.size >= LABEL_NAMES_KEPT) labelNames.clear();
    n = promName(k, true);
    labelNames.set(k, n);
  }
  return n;
}

function ms(t: HrTime): number {
  return t[0] * 1000 + Math.floor(t[1] / 1e6);
}

const byName = (a: RwLabel, b: RwLabel): number => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** Sets `name` in `out` (a few labels: a scan), replacing a label of the same name. */
function put(out: RwLabel[], name: string, value: string): void {
  for (let i = 0; i < out.length; i++) {
    if (out[i].name === name) { out[i] = { name, value }; return; }
  }
  out.push({ name, value });
}

/** The external labels as Prometheus labels, empty values left out: once per request. */
function externalLabels(external: Readonly<Record<string, string>>): RwLabel[] {
  const out: RwLabel[] = [];
  for (const [k, v] of Object.entries(external)) if (v !== '') put(out, labelName(k), v);
  return out;
}

function labelsOf(name: string, attributes: Record<string, unknown>, external: readonly RwLabel[], extra?: [string, string]): RwLabel[] {
  const out: RwLabel[] = external.slice();
  // A data point's own label wins over an external one of the same name.
  for (const k in attributes) {
    const v = attributes[k];
    if (v !== undefined && v !== null) put(out, labelName(k), String(v));
  }
  if (extra) put(out, extra[0], extra[1]);
  put(out, '__name__', name);
  return out.sort(byName);
}

/**
 * The remote write request of one collection: every data point as Prometheus series, as a
 * Prometheus scrape of the same families would have them (sums and gauges under their name,
 * histograms as `_bucket{le}` with cumulative counts, `_sum` and `_count`), each with the
 * `external` labels (agent group, instance, pod, namespace) and a sample at the point's end time.
 */
export function toWriteRequest(rm: ResourceMetrics, external: Readonly<Record<string, string>>): RwWriteRequest {
  const timeseries: RwTimeSeries[] = [];
  const metadata: RwMetadata[] = [];
  const ext = externalLabels(external);
  for (const sm of rm.scopeMetrics) {
    for (const metric of sm.metrics) {
      const name = promName(metric.descriptor.name);
      const help = metric.descriptor.description;
      const unit = metric.descriptor.unit;
      switch (metric.dataPointType) {
        case DataPointType.SUM:
        case DataPointType.GAUGE: {
          const type = metric.dataPointType === DataPointType.SUM && metric.isMonotonic ? METRIC_TYPE.COUNTER : METRIC_TYPE.GAUGE;
          metadata.push({ type, metricFamilyName: name, help, unit });
          for (const p of metric.dataPoints) {
            timeseries.push({ labels: labelsOf(name, p.attributes, ext), samples: [{ value: p.value, timestamp: ms(p.endTime) }] });
          }
          break;
        }
        case DataPointType.HISTOGRAM: {
          metadata.push({ type: METRIC_TYPE.HISTOGRAM, metricFamilyName: name, help, unit });
          for (const p of metric.dataPoints) {
            const timestamp = ms(p.endTime);
            const { boundaries, counts } = p.value.buckets;
            let acc = 0;
            for (let i = 0; i < boundaries.length; i++) {
              acc += counts[i] ?? 0;
              timeseries.push({ labels: labelsOf(`${name}_bucket`, p.attributes, ext, ['le', String(boundaries[i])]), samples: [{ value: acc, timestamp }] });
            }
            timeseries.push({ labels: labelsOf(`${name}_bucket`, p.attributes, ext, ['le', '+Inf']), samples: [{ value: p.value.count, timestamp }] });
            timeseries.push({ labels: labelsOf(`${name}_sum`, p.attributes, ext), samples: [{ value: p.value.sum ?? 0, timestamp }] });
            timeseries.push({ labels: labelsOf(`${name}_count`, p.attributes, ext), samples: [{ value: p.value.count, timestamp }] });
          }
          break;
        }
        default:
          // Exponential histograms: no instrument of the processes makes them.
          break;
      }
    }
  }
  return { timeseries, metadata };
}
