import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import type { PushMetricExporter, ResourceMetrics } from '@opentelemetry/sdk-metrics';
import type { ExporterStats } from './exporter-stats.js';

/** Data points of a collection (a histogram counts as one). */
export function pointsOf(rm: ResourceMetrics): number {
  let n = 0;
  for (const sm of rm.scopeMetrics) for (const m of sm.metrics) n += m.dataPoints.length;
  return n;
}

/** An exporter that counts what another one sent and failed to send into ExporterStats. */
export class CountingExporter implements PushMetricExporter {
  readonly selectAggregationTemporality: PushMetricExporter['selectAggregationTemporality'];
  readonly selectAggregation: PushMetricExporter['selectAggregation'];

  constructor(private readonly inner: PushMetricExporter, private readonly stats: ExporterStats, private readonly onError?: (err: Error) => void) {
    this.selectAggregationTemporality = inner.selectAggregationTemporality?.bind(inner);
    this.selectAggregation = inner.selectAggregation?.bind(inner);
  }

  export(metrics: ResourceMetrics, resultCallback: (result: ExportResult) => void): void {
    const points = pointsOf(metrics);
    this.inner.export(metrics, (result) => {
      if (result.code === ExportResultCode.SUCCESS) this.stats.sent(points);
      else {
        const err = result.error ?? new Error('export failed');
        this.stats.failed(points, err);
        this.onError?.(err);
      }
      resultCallback(result);
    });
  }

  forceFlush(): Promise<void> {
    return this.inner.forceFlush();
  }

  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }
}
