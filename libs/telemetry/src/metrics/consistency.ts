import { Counter, Gauge, Histogram, Summary, type Metric } from 'prom-client';
import { MetricInconsistencyError } from './inconsistency-error.js';

export type MetricKind = 'counter' | 'gauge' | 'histogram' | 'summary';

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The parts of a registered metric the checks read. */
export interface MetricShape {
  name: string;
  help: string;
  kind: MetricKind | undefined;
  labelNames: readonly string[];
}

export function shapeOf(metric: Metric): MetricShape {
  const raw = metric as unknown as { name: string; help: string; labelNames?: unknown };
  const kind: MetricKind | undefined =
    metric instanceof Counter ? 'counter'
      : metric instanceof Gauge ? 'gauge'
        : metric instanceof Histogram ? 'histogram'
          : metric instanceof Summary ? 'summary'
            : undefined;
  const labelNames = Array.isArray(raw.labelNames) ? (raw.labelNames as string[]) : [];
  return { name: raw.name, help: raw.help, kind, labelNames };
}

/** The sample names a family writes in the text format. */
export function sampleNames(name: string, kind: MetricKind | undefined): string[] {
  if (kind === 'histogram') return [`${name}_bucket`, `${name}_sum`, `${name}_count`];
  if (kind === 'summary') return [name, `${name}_sum`, `${name}_count`];
  return [name];
}

function fail(metric: string, problem: string): never {
  throw new MetricInconsistencyError(metric, problem);
}

/** Refuses a metric whose name, help or labels are invalid, or that clashes with one already registered. */
export function checkRegistration(shape: MetricShape, registered: readonly MetricShape[]): void {
  if (!METRIC_NAME.test(shape.name)) fail(shape.name, 'invalid metric name');
  if (typeof shape.help !== 'string' || shape.help.trim() === '') fail(shape.name, 'help text is empty');
  const seen = new Set<string>();
  for (const label of shape.labelNames) {
    if (!LABEL_NAME.test(label) || label.startsWith('__')) fail(shape.name, `invalid label name "${label}"`);
    if (seen.has(label)) fail(shape.name, `label "${label}" is declared twice`);
    seen.add(label);
  }
  if (shape.kind === 'histogram' && seen.has('le')) fail(shape.name, 'label "le" is reserved for histogram buckets');
  if (shape.kind === 'summary' && seen.has('quantile')) fail(shape.name, 'label "quantile" is reserved for summaries');

  const mine = sampleNames(shape.name, shape.kind);
  for (const other of registered) {
    if (other.name === shape.name) {
      const differences: string[] = [];
      if (other.kind !== shape.kind) differences.push(`type ${String(other.kind)} vs ${String(shape.kind)}`);
      if (other.help !== shape.help) differences.push(`help "${other.help}" vs "${shape.help}"`);
      if ([...other.labelNames].sort().join(',') !== [...shape.labelNames].sort().join(',')) {
        differences.push(`labels [${other.labelNames.join(',')}] vs [${shape.labelNames.join(',')}]`);
      }
      fail(shape.name, differences.length === 0
        ? 'already registered'
        : `registered again with a different description: ${differences.join('; ')}`);
    }
    const theirs = sampleNames(other.name, other.kind);
    const clash = mine.find((n) => theirs.includes(n));
    if (clash !== undefined) fail(shape.name, `its sample "${clash}" collides with metric "${other.name}"`);
  }
}

/** One collected family, as prom-client's `get()` returns it. */
export interface CollectedFamily {
  name: string;
  help: string;
  type: string;
  values?: { value: unknown; labels?: Record<string, unknown>; metricName?: string }[];
}

/**
 * Refuses collected samples that do not match their metric's description:
 * another name or type, label values missing, undeclared labels, label
 * values that are not valid UTF-8 text, values that are not numbers, a
 * negative counter, or the same series twice.
 */
export function checkCollected(shape: MetricShape, family: CollectedFamily, extraLabels: readonly string[] = []): void {
  const { name } = shape;
  if (family.name !== name) fail(name, `collected under another name "${family.name}"`);
  if (shape.kind !== undefined && family.type !== shape.kind) fail(name, `collected as ${family.type}, declared ${shape.kind}`);
  const kind = (shape.kind ?? family.type) as MetricKind;
  const allowedSamples = sampleNames(name, kind);
  const declared = new Set(shape.labelNames);
  const extra = new Set(extraLabels);
  const series = new Set<string>();
  for (const sample of family.values ?? []) {
    const sampleName = sample.metricName ?? name;
    if (!allowedSamples.includes(sampleName)) fail(name, `unexpected sample "${sampleName}"`);
    const labels = sample.labels ?? {};
    const reserved = kind === 'histogram' && sampleName === `${name}_bucket` ? 'le'
      : kind === 'summary' && sampleName === name ? 'quantile'
        : undefined;
    for (const label of declared) {
      if (labels[label] === undefined) fail(name, `label values missing: "${label}" in sample ${sampleName}${describe(labels)}`);
    }
    if (reserved !== undefined && labels[reserved] === undefined) fail(name, `sample ${sampleName} has no "${reserved}" label`);
    for (const [label, value] of Object.entries(labels)) {
      if (!declared.has(label) && label !== reserved && !extra.has(label)) {
        fail(name, `undeclared label "${label}" in sample ${sampleName}${describe(labels)}`);
      }
      if (typeof value === 'number') {
        if (Number.isNaN(value)) fail(name, `label "${label}" has a NaN value`);
      } else if (typeof value !== 'string') {
        fail(name, `label "${label}" has a ${typeof value} value`);
      } else if (LONE_SURROGATE.test(value)) {
        fail(name, `label "${label}" has a value that is not valid UTF-8`);
      }
    }
    if (typeof sample.value !== 'number') fail(name, `sample ${sampleName} has a ${typeof sample.value} value`);
    if (kind === 'counter' && sample.value < 0) fail(name, `counter is negative (${sample.value})`);
    const key = `${sampleName}${describe(labels)}`;
    if (series.has(key)) fail(name, `sample ${key} collected twice`);
    series.add(key);
  }
}

function describe(labels: Record<string, unknown>): string {
  const keys = Object.keys(labels).sort();
  return keys.length === 0 ? '' : `{${keys.map((k) => `${k}="${String(labels[k])}"`).join(',')}}`;
}
