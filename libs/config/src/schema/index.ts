export { ListenerConfigSchema, GRPCServerConfigSchema, HTTPServerConfigSchema, GRPCGatewayConfigSchema, ServerTLSConfigSchema, ServerTreeSchema, ServerAuthConfigSchema } from './server.js';
export { LogConfigSchema, LogWriterConfigSchema, LOG_LEVELS } from './log.js';
export { JobConfigSchema, JobGroupConfigSchema } from './jobs.js';
export { AdaptivePolicySchema, WatermarksPolicySchema, WatchdogPolicyTypeSchema, HeapConfigSchema, WatchdogConfigSchema } from './watchdog.js';
export {
  BackoffConfigSchema, ClientTLSConfigSchema, GRPCClientConfigSchema, HTTPClientConfigSchema, ClientConfigSchema, ProxyConfigSchema,
} from './clients.js';
export { EtcdConfigSchema } from './etcd.js';
export { CloudExtensionConfigSchema, ControllerCloudExtensionConfigSchema } from './cloudext.js';
export { PrometheusConfigSchema, PrometheusLabelSchema } from './prometheus.js';
export { CrashReportConfigSchema } from './crash-report.js';
export { AlertsConfigSchema } from './alerts.js';
export {
  MetricsConfigSchema, ProfilersConfigSchema, PortsConfigSchema, BatchAlertsConfigSchema, BatchPostrollupConfigSchema,
  BatchPrerollupConfigSchema, AgentOTelConfigSchema, ControllerOTelConfigSchema,
} from './telemetry.js';
export {
  AgentInfoConfigSchema, AgentFunctionsConfigSchema, AutoScaleKubernetesConfigSchema, FlowPreviewConfigSchema, DistCacheConfigSchema, DistCacheAuthConfigSchema,
  PeerDiscoveryConfigSchema, KubernetesDiscoveryConfigSchema, StaticDiscoveryConfigSchema, EntitySchema,
} from './agent-objects.js';
export { CRWatcherConfigSchema } from './controller-objects.js';
export { InjectorConfigSchema } from './injector.js';
export { AgentConfigSchema } from './agent-tree.js';
export { ControllerConfigSchema } from './controller-tree.js';
export { AgentTapConfigSchema, TAP_BODY_BYTES_MAX } from './tap.js';
