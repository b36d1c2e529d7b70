import { Histogram, type MetricObjectWithValues, type MetricValueWithName, type Registry } from 'prom-client';
import type { MeasuringFluxMeter } from './flux-meter.js';

export const FLUX_METER_METRIC = 'flux_meter';

export type FluxMeterLabel = 'flux_meter_name' | 'policy_name' | 'decision_type' | 'response_status' | 'http_status_code' | 'flow_status';

const HTTP_STATUS = /^[1-5]\d\d$/;

/** How one measured flow ended. */
export interface FlowOutcome {
  /** `DECISION_TYPE_ACCEPTED` or `DECISION_TYPE_REJECTED`. */
  decisionType: string;
  /** The workload's answer: an HTTP status code (`200`), or `OK` / `Error` from an SDK; `` when unknown. */
  responseStatus: string;
  /** `OK` or `Error`. */
  flowStatus: 'OK' | 'Error';
}

interface Cell {
  readonly labels: Readonly<Record<FluxMeterLabel, string>>;
  readonly counts: Float64Array;
  sum: number;
  count: number;
}

interface MeterSeries {
  buckets: readonly number[];
  readonly cells: Map<string, Cell>;
}

/** Distinct outcomes kept per flux meter; past it, new ones are dropped and counted. */
export const MAX_SERIES_PER_FLUX_METER = 1000;

type Sample = MetricValueWithName<FluxMeterLabel>;

/**
 * The `flux_meter` histogram: one metric family, each flux meter with its
 * own buckets (`flux_meter_bucket{flux_meter_name="a",le=…}` bounds differ
 * from meter to meter, which the text format allows), in milliseconds,
 * labelled flux_meter_name, policy_name, decision_type, response_status,
 * http_status_code (Aperture's label: the HTTP status, empty for SDK flows
 * whose response_status is OK or Error), flow_status. A meter whose buckets change starts its series afresh.
 * A prom-client Histogram subclass, so registries and checks treat it as one.
 */
export class FluxMeterHistogram extends Histogram<FluxMeterLabel> {
  private readonly meters = new Map<string, MeterSeries>();
  /** Outcomes dropped because a meter had MAX_SERIES_PER_FLUX_METER already. */
  droppedSeries = 0;

  constructor(registry?: Registry) {
    super({
      name: FLUX_METER_METRIC,
      help: 'Durations of the flows flux meters select, from check to flow end, in milliseconds.',
      labelNames: ['flux_meter_name', 'policy_name', 'decision_type', 'response_status', 'http_status_code', 'flow_status'],
      buckets: [1],
      registers: registry === undefined ? [] : [registry],
    });
  }

  /** Record one flow's duration (ms) for `meter`. Negative or non-finite durations are ignored (answers false). */
  record(meter: MeasuringFluxMeter, durationMs: number, outcome: FlowOutcome): boolean {
    if (!Number.isFinite(durationMs) || durationMs < 0) return false;
    let series = this.meters.get(meter.name);
    if (series === undefined || series.buckets !== meter.buckets) {
      series = { buckets: meter.buckets, cells: new Map() };
      this.meters.set(meter.name, series);
    }
    const key = `${meter.policyName}\u0000${outcome.decisionType}\u0000${outcome.responseStatus}\u0000${outcome.flowStatus}`;
    let cell = series.cells.get(key);
    if (cell === undefined) {
      if (series.cells.size >= MAX_SERIES_PER_FLUX_METER) {
        this.droppedSeries++;
        return false;
      }
      cell = {
        labels: Object.freeze({
          flux_meter_name: meter.name, policy_name: meter.policyName,
          decision_type: outcome.decisionType, response_status: outcome.responseStatus,
          http_status_code: HTTP_STATUS.test(outcome.responseStatus) ? outcome.responseStatus : '', flow_status: outcome.flowStatus,
        }),
        counts: new Float64Array(series.buckets.length),
        sum: 0,
        count: 0,
      };
      series.cells.set(key, cell);
    }
    const bounds = series.buckets;
    for (let i = 0; i < bounds.length; i++) {
      if (durationMs <= bounds[i]) {
        cell.counts[i]++;
        break;
      }
    }
    cell.sum += durationMs;
    cell.count++;
    return true;
  }

  /** Drop the series of a flux meter that is gone. */
  forget(name: string): void {
    this.meters.delete(name);
  }

  override reset(): void {
    super.reset();
    // prom-client's constructor resets before this class's fields exist.
    (this.meters as Map<string, MeterSeries> | undefined)?.clear();
  }

  /** What the registry formats the text from (prom-client's Histogram has its own). */
  async getForPromString(): Promise<MetricObjectWithValues<Sample>> {
    return this.get();
  }

  override async get(): Promise<MetricObjectWithValues<Sample>> {
    const values: Sample[] = [];
    const sample = (labels: Record<string, string | number>, value: number, metricName: string): Sample =>
      ({ labels, value, metricName } as unknown as Sample);
    for (const series of this.meters.values()) {
      for (const cell of series.cells.values()) {
        let acc = 0;
        for (let i = 0; i < series.buckets.length; i++) {
          acc += cell.counts[i];
          values.push(sample({ ...cell.labels, le: series.buckets[i] }, acc, `${FLUX_METER_METRIC}_bucket`));
        }
        values.push(sample({ ...cell.labels, le: '+Inf' }, cell.count, `${FLUX_METER_METRIC}_bucket`));
        values.push(sample({ ...cell.labels }, cell.sum, `${FLUX_METER_METRIC}_sum`));
        values.push(sample({ ...cell.labels }, cell.count, `${FLUX_METER_METRIC}_count`));
      }
    }
    return { name: FLUX_METER_METRIC, help: 'Durations of the flows flux meters select, from check to flow end, in milliseconds.', type: 'histogram', values, aggregator: 'sum' } as unknown as MetricObjectWithValues<Sample>;
  }
}
