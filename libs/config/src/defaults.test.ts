import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { TSchema } from '@sinclair/typebox';
import * as S from './schema/index.js';
import { defaultsOf } from './defaults.js';
import { resolveConfig } from './resolve.js';
import type { AgentConfig, ControllerConfig } from './types.js';

// Expected defaults, written out by hand from the documented configuration reference (docs/configuration.md), not from the schema.
const LATENCY = [10, 25, 100, 250, 1000];
const listener = { addr: ':8080', keep_alive: '180s', network: 'tcp' as const };
const grpcServer = { connection_timeout: '120s', enable_reflection: false, latency_buckets_ms: LATENCY };
const httpServer = {
  disable_http_keep_alives: false, idle_timeout: '30s', latency_buckets_ms: LATENCY, max_header_bytes: 1048576,
  read_header_timeout: '10s', read_timeout: '10s', write_timeout: '45s',
};
const grpcGateway = { grpc_server_address: '' };
const serverTls = { allowed_cn: '', cert_file: '', client_ca_file: '', enabled: false, key_file: '' };
const server = { grpc: grpcServer, grpc_gateway: grpcGateway, http: httpServer, listener, tls: serverTls };
const logWriter = { compress: false, file: 'stderr', max_age: 7, max_backups: 3, max_size: 50 };
const log = { level: 'info' as const, non_blocking: true, pretty_console: false, writers: [] };
const metrics = { enable_go_metrics: false, enable_process_collector: false, pedantic: false };
const ports = { debug_port: 0, health_check_port: 0, pprof_port: 0, zpages_port: 0 };
const profilers = { cpu_profiler: false, profiles_path: 'default', register_http_routes: true };
const job = { execution_period: '10s', execution_timeout: '5s', initially_healthy: false };
const jobGroup = { blocking_execution: false, worker_limit: 0 };
const adaptive = { enabled: false, factor: 0.5 };
const watermarks = { enabled: false, watermarks: [0.5, 0.75, 0.8, 0.85, 0.9, 0.95, 0.99] };
const policyType = { adaptive_policy: adaptive, watermarks_policy: watermarks };
const heap = { limit: 268435456, min_gogc: 25, adaptive_policy: adaptive, watermarks_policy: watermarks };
const watchdog = { cgroup: policyType, heap, job, system: policyType };
const backoff = { base_delay: '1s', jitter: 0.2, max_delay: '120s', multiplier: 1.6 };
const batch = (timeout: string) => ({ send_batch_max_size: 0, send_batch_size: 0, timeout });
const clientTls = { ca_file: '', cert_file: '', insecure_skip_verify: false, key_file: '', key_log_file: '' };
const grpcClient = { insecure: false, min_connection_timeout: '20s', use_proxy: false, backoff, tls: clientTls };
const httpClient = {
  disable_compression: false, disable_keep_alives: false, expect_continue_timeout: '1s', idle_connection_timeout: '90s',
  key_log_file: '', max_conns_per_host: 0, max_idle_connections: 100, max_idle_connections_per_host: 5,
  max_response_header_bytes: 0, network_keep_alive: '30s', network_timeout: '30s', read_buffer_size: 0,
  response_header_timeout: '0s', tls_handshake_timeout: '10s', timeout: '60s', use_proxy: false, write_buffer_size: 0,
  proxy_connect_header: {}, tls: clientTls,
};
const client = { grpc: grpcClient, http: httpClient };
const etcd = { endpoints: [], lease_ttl: '60s', namespace: 'sluice', username: '', password: '', tls: clientTls };
const cloudext = {
  api_key: '', controller_id: '', disable_local_otel_pipeline: false, endpoint: '', heartbeat_interval: '5s',
  installation_mode: 'LINUX_BARE_METAL' as const, client,
};
const controllerCloudext = { ...cloudext, enable_cloud_controller: false };
const prometheus = { address: '', labels: [] };
const proxy = { http: '', https: '', no_proxy: [] };
const crashReport = {
  attach_stack_trace: true, debug: true, disabled: false, dsn: '', environment: 'production', sample_rate: 1, traces_sample_rate: 0.2,
};
const agentOtel = {
  disable_kubelet_scraper: false, disable_kubernetes_scraper: false, enable_high_cardinality_platform_metrics: false,
  batch_alerts: batch('1s'), batch_postrollup: batch('1s'), batch_prerollup: batch('10s'), ports,
  export_interval: '10s', otlp_endpoint: '',
};
const controllerOtel = { enable_high_cardinality_platform_metrics: false, batch_alerts: batch('1s'), ports, export_interval: '10s', otlp_endpoint: '' };
// Keys of this project beyond the reference tree (settings that were environment variables before).
const peerDiscovery = { advertisement_addr: '', kubernetes_service: 'sluice-agent-peers' };
const injector = {
  mode: 'daemonset' as const, tap_image: 'sluice/tap:0.1.0', agent_image: 'sluice/agent:0.1.0', image_pull_policy: 'IfNotPresent' as const,
  tap_port: 8081, control_point: 'ingress', agent_address: 'sluice-agent.sluice-system.svc.cluster.local:8080', controller_address: 'sluice-controller.sluice-system.svc.cluster.local:8080', sidecar_agent_port: 8090,
  sidecar_agent_config_map: 'sluice-agent-sidecar', sidecar_agent_env: {},
  tap_admin_port: 9091, agent_tls_secret: '', agent_tls_client_cert: false, sidecar_agent_key_secret: '', sidecar_agent_token_secret: '', sidecar_agent_controller_ca_configmap: '', sidecar_agent_memory_limit: '256Mi', sidecar_agent_semi_space_mb: 16,
};
const distCache = {
  auth: { key_file: '', keys: '', insecure: false },
  bind_addr: ':3320', memberlist_advertise_addr: '', memberlist_bind_addr: ':3322', replica_count: 1, sync_replication: false,
  max_buckets: 200_000, max_bucket_bytes: 64 * 1024 * 1024, max_connections: 1024, idle_timeout: '60s',
};
const health = { scheduler: jobGroup, service: job };

const OBJECTS: Array<[string, TSchema, unknown]> = [
  ['ListenerConfig', S.ListenerConfigSchema, listener],
  ['GRPCServerConfig', S.GRPCServerConfigSchema, grpcServer],
  ['HTTPServerConfig', S.HTTPServerConfigSchema, httpServer],
  ['GRPCGatewayConfig', S.GRPCGatewayConfigSchema, grpcGateway],
  ['ServerTLSConfig', S.ServerTLSConfigSchema, serverTls],
  ['LogConfig', S.LogConfigSchema, log],
  ['LogWriterConfig', S.LogWriterConfigSchema, logWriter],
  ['MetricsConfig', S.MetricsConfigSchema, metrics],
  ['PortsConfig', S.PortsConfigSchema, ports],
  ['ProfilersConfig', S.ProfilersConfigSchema, profilers],
  ['JobConfig', S.JobConfigSchema, job],
  ['JobGroupConfig', S.JobGroupConfigSchema, jobGroup],
  ['AdaptivePolicy', S.AdaptivePolicySchema, adaptive],
  ['WatermarksPolicy', S.WatermarksPolicySchema, watermarks],
  ['WatchdogPolicyType', S.WatchdogPolicyTypeSchema, policyType],
  ['HeapConfig', S.HeapConfigSchema, heap],
  ['WatchdogConfig', S.WatchdogConfigSchema, watchdog],
  ['BackoffConfig', S.BackoffConfigSchema, backoff],
  ['BatchAlertsConfig', S.BatchAlertsConfigSchema, batch('1s')],
  ['BatchPostrollupConfig', S.BatchPostrollupConfigSchema, batch('1s')],
  ['BatchPrerollupConfig', S.BatchPrerollupConfigSchema, batch('10s')],
  ['ClientTLSConfig', S.ClientTLSConfigSchema, clientTls],
  ['GRPCClientConfig', S.GRPCClientConfigSchema, grpcClient],
  ['HTTPClientConfig', S.HTTPClientConfigSchema, httpClient],
  ['ClientConfig', S.ClientConfigSchema, client],
  ['EtcdConfig', S.EtcdConfigSchema, etcd],
  ['CloudExtensionConfig', S.CloudExtensionConfigSchema, cloudext],
  ['CloudExtensionConfig (controller)', S.ControllerCloudExtensionConfigSchema, controllerCloudext],
  ['PrometheusConfig', S.PrometheusConfigSchema, prometheus],
  ['PrometheusLabel (name has no default)', S.PrometheusLabelSchema, { value: '' }],
  ['ProxyConfig', S.ProxyConfigSchema, proxy],
  ['CrashReportConfig', S.CrashReportConfigSchema, crashReport],
  ['AgentInfoConfig', S.AgentInfoConfigSchema, { agent_group: 'default' }],
  ['AgentFunctionsConfig', S.AgentFunctionsConfigSchema, { endpoints: [], client, token_file: '', token: '' }],
  ['AgentOTelConfig', S.AgentOTelConfigSchema, agentOtel],
  ['ControllerOTelConfig', S.ControllerOTelConfigSchema, controllerOtel],
  ['AutoScaleKubernetesConfig', S.AutoScaleKubernetesConfigSchema, { enabled: true }],
  ['FlowPreviewConfig', S.FlowPreviewConfigSchema, { enabled: true }],
  ['DistCacheConfig', S.DistCacheConfigSchema, distCache],
  ['DistCacheAuthConfig', S.DistCacheAuthConfigSchema, distCache.auth],
  ['PeerDiscoveryConfig', S.PeerDiscoveryConfigSchema, peerDiscovery],
  ['KubernetesDiscoveryConfig', S.KubernetesDiscoveryConfigSchema, { enabled: true }],
  ['StaticDiscoveryConfig', S.StaticDiscoveryConfigSchema, { entities: [] }],
  ['Entity (ip_address and uid have no default)', S.EntitySchema, { name: '', namespace: '', node_name: '', services: [] }],
  ['CRWatcherConfig', S.CRWatcherConfigSchema, { enabled: false }],
  ['InjectorConfig', S.InjectorConfigSchema, injector],
];

for (const [name, schema, expected] of OBJECTS) {
  test(`defaults of ${name} are the documented ones`, () => {
    assert.deepEqual(defaultsOf(schema), expected);
  });
}

const AGENT: AgentConfig = {
  agent_info: { agent_group: 'default' },
  auto_scale: { kubernetes: { enabled: true } },
  client: { proxy },
  dist_cache: distCache,
  etcd,
  flow_control: { preview_service: { enabled: true } },
  cloudext,
  agent_functions: { endpoints: [], client, token_file: '', token: '' },
  kubernetes_client: { http_client: httpClient },
  liveness: health,
  log,
  metrics,
  otel: agentOtel,
  peer_discovery: peerDiscovery,
  profilers,
  prometheus: { ...prometheus, http_client: httpClient },
  readiness: health,
  crash_report: crashReport,
  server,
  tap: {
    enabled: false, listen: ':8081', upstream: '', control_point: 'ingress', body_bytes: 8192, check_timeout: '250ms', upstream_timeout: '60s', fail_closed: false,
    max_request_header_bytes: 65536, max_response_header_bytes: 65536, max_request_headers: 100, max_response_headers: 100, merge_slashes: true,
  },
  service_discovery: { kubernetes: { enabled: true }, static: { entities: [] } },
  watchdog: { memory: watchdog },
};

const CONTROLLER: ControllerConfig = {
  alerts: { alertmanagers: [], http_client: httpClient },
  client: { proxy },
  etcd,
  cloudext: controllerCloudext,
  liveness: health,
  log,
  metrics,
  otel: controllerOtel,
  policies: { cr_watcher: { enabled: false }, promql_jobs_scheduler: jobGroup },
  profilers,
  prometheus: { ...prometheus, http_client: httpClient },
  readiness: health,
  crash_report: crashReport,
  injector,
  server: { ...server, auth: { token_file: '' } },
  watchdog: { memory: watchdog },
};

test('the agent tree with nothing set is every default, nested as the documented key paths', () => {
  assert.deepEqual(resolveConfig({ process: 'agent', requireKeys: [] }), AGENT);
});

test('the controller tree with nothing set is every default, nested as the documented key paths', () => {
  assert.deepEqual(resolveConfig({ process: 'controller', requireKeys: [] }), CONTROLLER);
});

test('defaults are fresh copies: changing one loaded config does not change the next', () => {
  const a = resolveConfig({ process: 'agent', requireKeys: [] });
  a.server.grpc.latency_buckets_ms.push(5000);
  a.log.writers.push({ ...logWriter });
  const b = resolveConfig({ process: 'agent', requireKeys: [] });
  assert.deepEqual(b.server.grpc.latency_buckets_ms, LATENCY);
  assert.deepEqual(b.log.writers, []);
});

test('elements of lists of objects get their defaults', () => {
  const c = resolveConfig({ process: 'agent', requireKeys: [], env: { SLUICE_AGENT_LOG_WRITERS: '[{"file":"/tmp/a.log"},{}]' } });
  assert.deepEqual(c.log.writers, [{ ...logWriter, file: '/tmp/a.log' }, logWriter]);
});
