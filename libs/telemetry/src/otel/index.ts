// @sluice/telemetry/otel: the OpenTelemetry SDK pipeline (remote write, OTLP, ports, flow rollup), a
// subpath of its own so that processes importing @sluice/telemetry for logs and metrics alone (the tap)
// do not load the SDK.
export { createTelemetryPipeline, otlpMetricsUrl, type TelemetryPipeline, type TelemetryPipelineOptions } from './pipeline.js';
export { PromClientProducer, convertFamily, type PromFamily } from './prom-producer.js';
export { PrometheusRemoteWriteExporter, remoteWriteUrl, type RemoteWriteExporterOptions, type RemoteWriteHttp, type RetryBackoff } from './remote-write-exporter.js';
export { decodeWriteRequest, encodeWriteRequest, type RwWriteRequest, type RwTimeSeries } from './remote-write-proto.js';
export { toWriteRequest, promName } from './remote-write-series.js';
export { ExporterStats } from './exporter-stats.js';
export { startTelemetryPorts, type TelemetryPorts, type TelemetryPortsOptions, type PortsConfig, type PortName } from './ports.js';
export { createFlowRollup, rollUp, type FlowRollup, type FlowRollupOptions, type RolledSeries, type EmitSeries, type SeriesCounter, type SeriesCell } from './flow-rollup.js';
export { SeriesTable } from './series-table.js';
export { rolledSeriesSink } from './rollup-sink.js';
export { observeGaugePoints, type GaugePoint } from './gauge-points.js';
