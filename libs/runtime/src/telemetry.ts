import { hostname } from 'node:os';
import { Backoff, createHttpClient, DEFAULT_GRPC_CLIENT_CONFIG, type HttpClient } from '@sluice/clients';
import { parseDuration } from '@sluice/config';
import type { SluiceLogger } from '@sluice/telemetry';
import { createTelemetryPipeline, remoteWriteUrl, startTelemetryPorts, type TelemetryPipeline, type TelemetryPorts } from '@sluice/telemetry/otel';
import type { Registry } from 'prom-client';
import type { NamedLifecycle } from '@sluice/lifecycle';
import type { RuntimeConfig } from './runtime-config.js';

export interface TelemetryWiring {
  /** `agent_info.agent_group` of an agent: a label on every pushed series. */
  agentGroup?: string;
  env?: NodeJS.ProcessEnv;
}

/**
 * The labels on every series the process pushes by remote write: `instance` (the host name, a
 * pod's name in Kubernetes), `agent_group` of an agent, and in Kubernetes `pod` and `namespace`
 * (POD_NAME and POD_NAMESPACE, which the charts set from the downward API). Unset ones are left out.
 */
export function remoteWriteLabels(service: string, wiring: TelemetryWiring): Record<string, string> {
  const env = wiring.env ?? process.env;
  const labels: Record<string, string> = { job: `sluice-${service}`, instance: env.POD_NAME || hostname() };
  if (wiring.agentGroup !== undefined) labels.agent_group = wiring.agentGroup;
  if (env.POD_NAME) labels.pod = env.POD_NAME;
  if (env.POD_NAMESPACE) labels.namespace = env.POD_NAMESPACE;
  return labels;
}

/**
 * The process's telemetry pipeline from its configuration (docs/guides/telemetry.md): remote
 * write to `prometheus.address` with `prometheus.http_client`, retried with the gRPC client's
 * default backoff within the export interval; OTLP to `otel.otlp_endpoint`; the `otel.ports`
 * servers. Answers the pipeline and the lifecycle component that serves the ports and, at
 * shutdown, exports once more and stops.
 */
export function wireTelemetry(config: RuntimeConfig, service: string, registry: Registry, logger: SluiceLogger, wiring: TelemetryWiring = {}): { pipeline: TelemetryPipeline; component: NamedLifecycle } {
  const env = wiring.env ?? process.env;
  const labels = remoteWriteLabels(service, wiring);
  let http: HttpClient | undefined;
  const address = config.prometheus.address;
  if (address !== '') http = createHttpClient(config.prometheus.http_client);
  let warned = new Set<string>();
  const pipeline = createTelemetryPipeline({
    registry,
    highCardinality: config.otel.enable_high_cardinality_platform_metrics,
    exportIntervalMs: Math.max(100, parseDuration(config.otel.export_interval)),
    resource: {
      'service.name': `sluice-${service}`,
      'service.instance.id': labels.instance,
      'host.name': hostname(),
      ...(wiring.agentGroup !== undefined ? { agent_group: wiring.agentGroup } : {}),
      ...(env.POD_NAME ? { 'k8s.pod.name': env.POD_NAME } : {}),
      ...(env.POD_NAMESPACE ? { 'k8s.namespace.name': env.POD_NAMESPACE } : {}),
    },
    ...(http !== undefined ? {
      remoteWrite: { url: remoteWriteUrl(address), http, labels, backoff: new Backoff(DEFAULT_GRPC_CLIENT_CONFIG.backoff) },
    } : {}),
    ...(config.otel.otlp_endpoint !== '' ? { otlpUrl: config.otel.otlp_endpoint } : {}),
    onExportError: (exporter, err) => {
      // Said once per exporter and message at warn; repeats go to debug.
      const key = `${exporter}\u0000${err.message}`;
      if (warned.has(key)) logger.debug('metrics export failed', { exporter, error: err.message });
      else {
        if (warned.size > 100) warned = new Set();
        warned.add(key);
        logger.warn('metrics export failed', { exporter, error: err.message });
      }
    },
  });
  let ports: TelemetryPorts | undefined;
  const component: NamedLifecycle = {
    name: 'telemetry',
    start: async () => {
      ports = await startTelemetryPorts({ ports: config.otel.ports, pipeline, profilers: config.profilers, service });
      if (pipeline.exporting || Object.keys(ports.bound).length > 0) {
        logger.info('telemetry pipeline started', {
          remote_write: http !== undefined ? remoteWriteUrl(address) : 'off',
          otlp: config.otel.otlp_endpoint || 'off',
          export_interval: config.otel.export_interval,
          ports: ports.bound,
        });
      }
    },
    forceFlush: () => pipeline.forceFlush(),
    shutdown: async (opts) => {
      const deadlineMs = opts?.deadlineMs ?? 5000;
      await ports?.shutdown();
      // The last export gets at most 5 s (and never more than what is left of the shutdown budget).
      let timer: NodeJS.Timeout | undefined;
      const capped = new Promise<void>((resolve) => { timer = setTimeout(resolve, Math.max(0, Math.min(5000, deadlineMs))); });
      await Promise.race([
        pipeline.shutdown().catch((err: unknown) => logger.warn('telemetry pipeline shutdown failed', { error: err instanceof Error ? err.message : String(err) })),
        capped,
      ]);
      clearTimeout(timer);
      await http?.close();
    },
  };
  return { pipeline, component };
}
