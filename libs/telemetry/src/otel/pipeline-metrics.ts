import type { Meter } from '@opentelemetry/api';
import type { ExporterStats } from './exporter-stats.js';

/**
 * The pipeline's own metrics (what the debug port serves, and what is exported beside the rest):
 * per exporter, data points sent and failed, exports by result, and retries.
 */
export function registerPipelineMetrics(meter: Meter, exporters: readonly ExporterStats[]): void {
  const sent = meter.createObservableCounter('sluice_telemetry_exporter_sent_metric_points_total', { description: 'Metric data points the exporter delivered.' });
  const failed = meter.createObservableCounter('sluice_telemetry_exporter_send_failed_metric_points_total', { description: 'Metric data points the exporter failed to deliver.' });
  const exports = meter.createObservableCounter('sluice_telemetry_exports_total', { description: 'Exports by result (success, failure).' });
  const retries = meter.createObservableCounter('sluice_telemetry_exporter_retries_total', { description: 'Attempts of an export repeated after a network error, a 5xx or a 429 answer.' });
  const up = meter.createObservableGauge('sluice_telemetry_exporter_healthy', { description: '1 when the exporter\'s last export succeeded (or none ran yet), else 0.' });
  meter.addBatchObservableCallback((r) => {
    for (const s of exporters) {
      const a = { exporter: s.name };
      r.observe(sent, s.sentPoints, a);
      r.observe(failed, s.failedPoints, a);
      r.observe(exports, s.exports - s.failedExports, { ...a, result: 'success' });
      r.observe(exports, s.failedExports, { ...a, result: 'failure' });
      r.observe(retries, s.retries, a);
      r.observe(up, s.healthy ? 1 : 0, a);
    }
  }, [sent, failed, exports, retries, up]);
}
