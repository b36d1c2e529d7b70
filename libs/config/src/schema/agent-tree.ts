import { Type } from '@sinclair/typebox';
import {
  AgentFunctionsConfigSchema, AgentInfoConfigSchema, AutoScaleKubernetesConfigSchema, DistCacheConfigSchema,
  FlowPreviewConfigSchema, KubernetesDiscoveryConfigSchema, PeerDiscoveryConfigSchema, StaticDiscoveryConfigSchema,
} from './agent-objects.js';
import { ClientTreeSchema, HTTPClientConfigSchema } from './clients.js';
import { CloudExtensionConfigSchema } from './cloudext.js';
import { HealthTreeSchema } from './common-tree.js';
import { CrashReportConfigSchema } from './crash-report.js';
import { EtcdConfigSchema } from './etcd.js';
import { LogConfigSchema } from './log.js';
import { AgentPrometheusTreeSchema } from './prometheus.js';
import { ServerTreeSchema } from './server.js';
import { AgentTapConfigSchema } from './tap.js';
import { AgentOTelConfigSchema, MetricsConfigSchema, ProfilersConfigSchema } from './telemetry.js';
import { WatchdogConfigSchema } from './watchdog.js';

const closed = { additionalProperties: false } as const;

/** The agent's key tree (docs/configuration.md); environment prefix SLUICE_AGENT_. */
export const AgentConfigSchema = Type.Object({
  agent_info: AgentInfoConfigSchema,
  auto_scale: Type.Object({ kubernetes: AutoScaleKubernetesConfigSchema }, closed),
  client: ClientTreeSchema,
  dist_cache: DistCacheConfigSchema,
  etcd: EtcdConfigSchema,
  flow_control: Type.Object({ preview_service: FlowPreviewConfigSchema }, closed),
  cloudext: CloudExtensionConfigSchema,
  agent_functions: AgentFunctionsConfigSchema,
  kubernetes_client: Type.Object({ http_client: HTTPClientConfigSchema }, closed),
  liveness: HealthTreeSchema,
  log: LogConfigSchema,
  metrics: MetricsConfigSchema,
  otel: AgentOTelConfigSchema,
  peer_discovery: PeerDiscoveryConfigSchema,
  profilers: ProfilersConfigSchema,
  prometheus: AgentPrometheusTreeSchema,
  readiness: HealthTreeSchema,
  crash_report: CrashReportConfigSchema,
  server: ServerTreeSchema,
  tap: AgentTapConfigSchema,
  service_discovery: Type.Object({
    kubernetes: KubernetesDiscoveryConfigSchema,
    static: StaticDiscoveryConfigSchema,
  }, closed),
  watchdog: Type.Object({ memory: WatchdogConfigSchema }, closed),
}, closed);
