import { onceShutdown, type ShutdownOptions } from '@sluice/lifecycle';
import type { Meter } from '@opentelemetry/api';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { MeterProvider, PeriodicExportingMetricReader, type MetricReader, type PushMetricExporter } from '@opentelemetry/sdk-metrics';
import { PrometheusExporter } from '@opentelemetry/exporter-prometheus';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import type { Registry } from 'prom-client';
import { ExporterStats } from './exporter-stats.js';
import { PromClientProducer } from './prom-producer.js';
import { PrometheusRemoteWriteExporter, type RemoteWriteHttp, type RetryBackoff } from './remote-write-exporter.js';
import { CountingExporter } from './counting-exporter.js';
import { registerPipelineMetrics } from './pipeline-metrics.js';

export interface TelemetryPipelineOptions {
  /** The process's prom-client registry, bridged into every exporting reader. */
  registry: Registry;
  /** `otel.enable_high_cardinality_platform_metrics`. */
  highCardinality: boolean;
  /** `otel.export_interval` in ms. */
  exportIntervalMs: number;
  /** Resource attributes (service.name, host.name, k8s.pod.name, ...), sent with OTLP. */
  resource: Readonly<Record<string, string>>;
  /** Prometheus remote write, when `prometheus.address` is set. */
  remoteWrite?: { url: string; http: RemoteWriteHttp; labels: Readonly<Record<string, string>>; backoff: RetryBackoff };
  /** OTLP/HTTP metrics endpoint (`otel.otlp_endpoint`). */
  otlpUrl?: string;
  onExportError?(exporter: string, err: Error): void;
}

export interface TelemetryPipeline {
  readonly meterProvider: MeterProvider;
  /** The pipeline's meter: instruments made here are exported beside the bridged registry. */
  readonly meter: Meter;
  /** One per exporter (remote_write, otlp). */
  readonly exporters: readonly ExporterStats[];
  /** Whether anything leaves the process (remote write or OTLP). */
  readonly exporting: boolean;
  /** The reader behind `otel.ports.debug_port`: the pipeline's own meter in the Prometheus text format. */
  readonly debugReader: PrometheusExporter;
  readonly exportIntervalMs: number;
  /** Exports now, on every exporting reader. */
  forceFlush(): Promise<void>;
  /** Stops the readers after their last export (one attempt). */
  shutdown(opts?: ShutdownOptions): Promise<void>;
}

/** `<endpoint>/v1/metrics` unless the endpoint names a path of its own. */
export function otlpMetricsUrl(endpoint: string): string {
  const u = new URL(endpoint);
  if (u.pathname === '' || u.pathname === '/') u.pathname = '/v1/metrics';
  return u.toString();
}

/**
 * The process's telemetry pipeline on the OpenTelemetry SDK: one MeterProvider whose periodic
 * readers export, every `exportIntervalMs`, the process's prom-client registry (through
 * PromClientProducer) and the pipeline's own meter: to Prometheus by remote write and to an OTLP
 * collector, each when configured. A pull reader (PrometheusExporter, never listening itself)
 * renders the pipeline's own meter for the debug port.
 */
export function createTelemetryPipeline(opts: TelemetryPipelineOptions): TelemetryPipeline {
  const producer = new PromClientProducer(opts.registry, opts.highCardinality);
  const exporters: ExporterStats[] = [];
  const readers: MetricReader[] = [];
  const timeoutMs = Math.max(1, Math.floor(opts.exportIntervalMs * 0.9));
  const periodic = (exporter: PushMetricExporter) => new PeriodicExportingMetricReader({
    exporter, exportIntervalMillis: opts.exportIntervalMs, exportTimeoutMillis: timeoutMs, metricProducers: [producer],
  });
  let remoteWrite: PrometheusRemoteWriteExporter | undefined;
  if (opts.remoteWrite !== undefined) {
    const stats = new ExporterStats('remote_write');
    exporters.push(stats);
    remoteWrite = new PrometheusRemoteWriteExporter({
      ...opts.remoteWrite, timeoutMs, stats,
      onError: (err) => opts.onExportError?.('remote_write', err),
    });
    readers.push(periodic(remoteWrite));
  }
  if (opts.otlpUrl !== undefined) {
    const stats = new ExporterStats('otlp');
    exporters.push(stats);
    const otlp = new OTLPMetricExporter({ url: otlpMetricsUrl(opts.otlpUrl), timeoutMillis: timeoutMs });
    readers.push(periodic(new CountingExporter(otlp, stats, (err) => opts.onExportError?.('otlp', err))));
  }
  const debugReader = new PrometheusExporter({ preventServerStart: true });
  readers.push(debugReader);
  const meterProvider = new MeterProvider({ resource: resourceFromAttributes({ ...opts.resource }), readers });
  const meter = meterProvider.getMeter('sluice');
  registerPipelineMetrics(meter, exporters);
  return {
    meterProvider, meter, exporters, debugReader,
    exporting: exporters.length > 0,
    exportIntervalMs: opts.exportIntervalMs,
    forceFlush: () => meterProvider.forceFlush(),
    // The last export (the readers export once more when they stop) makes one attempt.
    shutdown: onceShutdown('telemetry pipeline', () => { remoteWrite?.stopRetrying(); return meterProvider.shutdown(); }),
  };
}
