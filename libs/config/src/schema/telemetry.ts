import { Type } from '@sinclair/typebox';
import { address, bool, duration, noEffect, str, uint32 } from './fields.js';

export const MetricsConfigSchema = Type.Object({
  enable_go_metrics: bool(false, 'Registers the runtime collector (heap, event loop, garbage collection).'),
  enable_process_collector: bool(false, 'Registers the process collector (CPU, memory, file descriptors).'),
  pedantic: bool(false, 'Uses a registry that checks every metric strictly.'),
}, { additionalProperties: false });

export const ProfilersConfigSchema = Type.Object({
  cpu_profiler: bool(false, 'Profiles the CPU from start to a file; the HTTP profile route does not work meanwhile.'),
  profiles_path: str('default', 'Directory of profile files; default means /var/log/sluice/<service>/profiles.'),
  register_http_routes: bool(true, 'Serves /debug/pprof/profile, /debug/pprof/symbol and /debug/pprof/cmdline.'),
}, { additionalProperties: false });

const port = (what: string) => uint32(0, `${what}; 0 means not set.`, { maximum: 65_535 });

export const PortsConfigSchema = Type.Object({
  debug_port: port('Port (all interfaces) where the telemetry pipeline serves, on /metrics, the metrics it exports (the same families the process measures, after the high-cardinality filter) and its own export counters'),
  health_check_port: port('Port (all interfaces) answering GET / with the telemetry pipeline\'s health: 200 while its exports succeed, 503 after one failed'),
  pprof_port: port('Port (all interfaces) serving /debug/pprof/profile (a CPU profile, ?seconds=) and /debug/pprof/heap (a heap profile)'),
  zpages_port: port('Port (all interfaces) serving /debug/pipelinez and /debug/servicez: the pipeline\'s readers, exporters and last exports as JSON'),
}, { additionalProperties: false });

function batch(timeout: string) {
  return Type.Object({
    send_batch_max_size: uint32(0, 'Upper limit of a batch; larger batches are split; 0 means no limit.'),
    send_batch_size: uint32(0, 'Number of items that triggers sending a batch; 0 means only the timeout sends.'),
    timeout: duration(timeout, 'A batch is sent this long after its first item arrived, whatever its size; 0s sends every item at once.'),
  }, { additionalProperties: false });
}

export const BatchAlertsConfigSchema = batch('1s');
export const BatchPostrollupConfigSchema = batch('1s');
export const BatchPrerollupConfigSchema = batch('10s');

const EXPORT = {
  export_interval: duration('10s', 'How often the telemetry pipeline exports the metrics (Prometheus remote write to prometheus.address, OTLP to otel.otlp_endpoint).'),
  otlp_endpoint: address('empty|url', '', 'OTLP/HTTP collector (http:// or https:// URL) the metrics are also exported to every export_interval, as OTLP JSON to <url>/v1/metrics (or to the URL as given when it has a path); empty means off.'),
};

const HIGH_CARDINALITY = 'Keeps the high-cardinality platform metrics (grpcserver_handled_total, grpcserver_handling_seconds*, grpcserver_msg_received_total, grpcserver_msg_sent_total, grpcserver_started_total) that are otherwise left out of /metrics and of every telemetry export (remote write, OTLP).';

// What the local metrics pipeline does not do yet: metrics are kept in the process and served on
// /metrics as they are, with no batching and no collector of their own.

export const AgentOTelConfigSchema = Type.Object({
  disable_kubelet_scraper: noEffect(bool(false, 'Deprecated; accepted and has no effect.'), 'deprecated; kept so that existing files stay valid.'),
  disable_kubernetes_scraper: bool(false, 'Turns off the collection of orchestrator-resource metrics (replicas of Deployments, StatefulSets and ReplicaSets, pod counts, container CPU and memory requests) that the agent holding its group\'s Lease reads from the Kubernetes API and exports.'),
  enable_high_cardinality_platform_metrics: bool(false, HIGH_CARDINALITY),
  batch_alerts: BatchAlertsConfigSchema,
  batch_postrollup: BatchPostrollupConfigSchema,
  batch_prerollup: BatchPrerollupConfigSchema,
  ports: PortsConfigSchema,
  ...EXPORT,
}, { additionalProperties: false });

export const ControllerOTelConfigSchema = Type.Object({
  enable_high_cardinality_platform_metrics: bool(false, HIGH_CARDINALITY),
  batch_alerts: BatchAlertsConfigSchema,
  ports: PortsConfigSchema,
  ...EXPORT,
}, { additionalProperties: false });
