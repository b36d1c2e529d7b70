import { Type } from '@sinclair/typebox';
import { bool, duration, noEffect, str, uint32 } from './fields.js';

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
  debug_port: port('Port where the collector serves metrics on /metrics'),
  health_check_port: port('Port of the collector health check'),
  pprof_port: port('Port of the collector profiles'),
  zpages_port: port('Port of the collector zPages'),
}, { additionalProperties: false });

function batch(timeout: string) {
  return Type.Object({
    send_batch_max_size: uint32(0, 'Upper limit of a batch; larger batches are split; 0 means no limit.'),
    send_batch_size: uint32(0, 'Number of items that triggers sending a batch.'),
    timeout: duration(timeout, 'A batch is sent after this time, whatever its size.'),
  }, { additionalProperties: false });
}

export const BatchAlertsConfigSchema = batch('1s');
export const BatchPostrollupConfigSchema = batch('1s');
export const BatchPrerollupConfigSchema = batch('10s');

const HIGH_CARDINALITY = 'Keeps the high-cardinality platform metrics (grpcserver_handled_total, grpcserver_handling_seconds*, grpcserver_msg_received_total, grpcserver_msg_sent_total, grpcserver_started_total) that are otherwise filtered out.';

// What the local metrics pipeline does not do yet: metrics are kept in the process and served on
// /metrics as they are, with no batching and no collector of their own.
const NO_BATCHES = 'metrics are served on /metrics as they are recorded; no batches are made.';
const NO_COLLECTOR = 'no separate collector runs; metrics are served on the server port at /metrics, health and profiles on their own routes there.';

export const AgentOTelConfigSchema = Type.Object({
  disable_kubelet_scraper: noEffect(bool(false, 'Deprecated.'), 'deprecated; kept so that existing files stay valid.'),
  disable_kubernetes_scraper: noEffect(
    bool(false, 'Turns off the default collection of orchestrator-resource metrics.'),
    'no orchestrator-resource metrics are collected, so there is nothing to turn off.',
  ),
  enable_high_cardinality_platform_metrics: bool(false, HIGH_CARDINALITY),
  batch_alerts: noEffect(BatchAlertsConfigSchema, NO_BATCHES),
  batch_postrollup: noEffect(BatchPostrollupConfigSchema, NO_BATCHES),
  batch_prerollup: noEffect(BatchPrerollupConfigSchema, NO_BATCHES),
  ports: noEffect(PortsConfigSchema, NO_COLLECTOR),
}, { additionalProperties: false });

export const ControllerOTelConfigSchema = Type.Object({
  enable_high_cardinality_platform_metrics: bool(false, HIGH_CARDINALITY),
  batch_alerts: noEffect(BatchAlertsConfigSchema, NO_BATCHES),
  ports: noEffect(PortsConfigSchema, NO_COLLECTOR),
}, { additionalProperties: false });
