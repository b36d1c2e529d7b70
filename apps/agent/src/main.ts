import { loadConfigOrExit, parseDuration } from '@sluice/config';
import { createStaticDiscovery } from '@sluice/discovery';
import { Engine, registerEnvoyAuthorizationService, registerFlowControlServices } from '@sluice/flowcontrol';
import { registerPreviewService } from '@sluice/preview';
import { createProcessRuntime } from '@sluice/runtime';
import { installFlowEnds } from './flow-ends.js';
import { installKubernetes, KubeConfigError } from './kube.js';
import { installLocalLimiters, LocalLimitersFileError } from './local-limiters.js';
import { installDistCache, isDistCacheKeyProblem } from './distcache.js';
import { installPodScaler } from './pod-scaler.js';
import { installEtcd, installPolicies } from './policies.js';
import { installFlowTelemetry, installKubernetesScraper } from './telemetry.js';

// Answers of 1-2 KB (a Check with ten limiter decisions) and their gRPC copies are slices of
// Node's Buffer pool; the default 8 KiB pool is a new ArrayBuffer every few answers (~4 us each).
// At 64 KiB it is one every few dozen (docs/guides/agent-memory.md).
Buffer.poolSize = 64 * 1024;

// Configuration first: every problem is printed and the process exits 2 before anything binds a port.
const { config, args } = loadConfigOrExit({
  process: 'agent',
  argv: process.argv.slice(2),
  env: process.env,
  flags: {
    'local-limiters': { type: 'string', value: 'FILE', description: 'YAML list of local token-bucket rate limiters (docs/guides/local-limiters.md)' },
  },
});

const runtime = createProcessRuntime(config, 'agent', { agentGroup: config.agent_info.agent_group });
const discovery = createStaticDiscovery(config.service_discovery.static);
const engine = new Engine({ agentGroup: config.agent_info.agent_group });
registerFlowControlServices(runtime.server, engine, discovery, { flowEnds: installFlowEnds(runtime, engine) });
// Envoy/Istio ext_authz (docs/guides/envoy.md); flows end with Envoy's OTLP access logs (installFlowEnds).
registerEnvoyAuthorizationService(runtime.server, engine, discovery);
// A preview must answer inside the HTTP server's write timeout.
const maxWaitMs = Math.max(1000, Math.min(30_000, parseDuration(config.server.http.write_timeout) - 1000));
registerPreviewService(runtime.server, engine, config.flow_control.preview_service, { maxWaitMs, metrics: runtime.registry });

const limitersFile = args.flags?.['local-limiters'];
let exitCode = 1;
try {
  if (typeof limitersFile === 'string') {
    const n = installLocalLimiters(engine, limitersFile, { logger: runtime.logger, registry: runtime.registry });
    runtime.logger.info('local limiters installed', { file: limitersFile, count: n });
  }
  // Entities from Kubernetes (EndpointSlices, Services) beside the static ones; GET /v1/discovery/entities.
  const kube = await installKubernetes(runtime, discovery, config);
  // etcd first (it starts first and stops last), then the distributed counter cache, whose stores
  // hold the buckets of the published rate limiters, then the policies published for this agent's group.
  const etcd = installEtcd(runtime, config.etcd);
  const group = config.agent_info.agent_group;
  const distCache = installDistCache(runtime, etcd, group, config.server.listener.addr, config.dist_cache, config.peer_discovery);
  installPolicies(runtime, engine, etcd, group, { tokenBucketStore: distCache.storeFactory });
  // auto_scale.pod_scaler components of the group: one agent per object writes its /scale (auto_scale.kubernetes.enabled).
  await installPodScaler(runtime, config, etcd, kube);
  // Flow telemetry (rolled-up decisions) and, on the holder of the group's Lease, orchestrator metrics, into the pipeline.
  installFlowTelemetry(runtime, engine, config);
  await installKubernetesScraper(runtime, config, kube);
  exitCode = await runtime.run();
} catch (err) {
  // A bad limiters file, an unreadable kubeconfig or dist-cache keys missing or bad is a configuration problem: exit 2, like the key tree's, before any port is bound.
  if (err instanceof LocalLimitersFileError || err instanceof KubeConfigError || isDistCacheKeyProblem(err)) exitCode = 2;
  runtime.logger.error('start-up failed', { error: err instanceof Error ? err.message : String(err) });
  process.stderr.write(`sluice-agent: ${err instanceof Error ? err.message : String(err)}\n`);
  await runtime.logger.close();
}
process.exit(exitCode);
