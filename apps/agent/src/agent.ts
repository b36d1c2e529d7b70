// The agent's wiring, once its configuration is loaded (main.ts). Resolves with the exit status.
import { parseDuration, type LoadedConfig } from '@sluice/config';
import { createStaticDiscovery } from '@sluice/discovery';
import { MeteredEngine, registerEnvoyAuthorizationService, registerFlowControlServices } from '@sluice/flowcontrol';
import { registerPreviewService } from '@sluice/preview';
import { createProcessRuntime } from '@sluice/runtime';
import { readFileSync } from 'node:fs';
import { installAgentFunctions } from './agent-functions.js';
import { AgentFunctionsTokenError } from '@sluice/agentfunctions';
import { installFlowEnds } from './flow-ends.js';
import { ProcessKube } from '@sluice/kube/light';
import { installKubernetes, KubeConfigError, startKubernetesPeers } from './kube.js';
import { installLocalLimiters, LocalLimitersFileError } from './local-limiters.js';
import { installDistCache, isDistCacheKeyProblem } from './distcache.js';
import { installPodScaler } from './pod-scaler.js';
import { installEtcd, installPolicies } from './policies.js';
import { installHeartbeats } from './cloudext.js';
import { installTap } from './tap.js';
import { TapConfigError } from '@sluice/tap/in-process';
import { installFlowTelemetry, installKubernetesScraper } from './telemetry.js';

/** Starts the agent and runs it until it stops; resolves with the process's exit status. */
export async function runAgent({ config, args }: LoadedConfig<'agent'>): Promise<number> {
  const runtime = createProcessRuntime(config, 'agent', { agentGroup: config.agent_info.agent_group });
  const discovery = createStaticDiscovery(config.service_discovery.static);
  // every decision counted under Aperture's flow-control metric names (docs/metrics.md)
  const engine = new MeteredEngine({ agentGroup: config.agent_info.agent_group, registry: runtime.registry });
  const flowEnds = installFlowEnds(runtime, engine);
  registerFlowControlServices(runtime.server, engine, discovery, { flowEnds });
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
    // The process's one Kubernetes client, loaded when something needs it (discovery, peers, pod scalers, the scraper).
    const kube = new ProcessKube({ env: process.env, httpClient: config.kubernetes_client.http_client, logger: runtime.logger });
    await installKubernetes(runtime, discovery, config, kube);
    // etcd first (it starts first and stops last), then the distributed counter cache, whose stores
    // hold the buckets of the published rate limiters, then the policies published for this agent's group.
    const etcd = installEtcd(runtime, config.etcd);
    const group = config.agent_info.agent_group;
    const distCache = installDistCache(runtime, etcd, group, config.server.listener.addr, config.dist_cache, config.peer_discovery,
      (sink) => startKubernetesPeers(runtime, config, kube, group, sink));
    const { enforcement } = installPolicies(runtime, engine, etcd, group, { tokenBucketStore: distCache.storeFactory });
    // Heartbeats to cloudext.endpoint while cloudext.api_key is set.
    installHeartbeats(runtime, config, engine, enforcement);
    // Agent functions: the controllers of agent_functions.endpoints reach this agent's read-only routes.
    const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
    installAgentFunctions(runtime, config, version);
    // auto_scale.pod_scaler components of the group: one agent per object writes its /scale (auto_scale.kubernetes.enabled).
    await installPodScaler(runtime, config, etcd, enforcement, kube);
    // The traffic tap in this process (tap.enabled), deciding through this engine as CheckHTTP does.
    const tap = config.tap.enabled ? installTap(runtime, config.tap, { engine, discovery, flowEnds }) : undefined;
    // Flow telemetry (rolled-up decisions) and, on the holder of the group's Lease, orchestrator metrics, into the pipeline.
    installFlowTelemetry(runtime, engine, config);
    await installKubernetesScraper(runtime, config, kube);
    exitCode = await runtime.run();
    const tapProblem = tap?.problem();
    if (tapProblem !== undefined) {
      // A port the tap cannot bind is a configuration problem too.
      process.stderr.write(`sluice-agent: ${tapProblem.message}\n`);
      exitCode = 2;
    }
  } catch (err) {
    // A bad limiters file, an unreadable kubeconfig, dist-cache keys missing or bad or a tap address it cannot use is a configuration problem: exit 2, like the key tree's, before any port is bound.
    if (err instanceof LocalLimitersFileError || err instanceof KubeConfigError || isDistCacheKeyProblem(err) || err instanceof TapConfigError || err instanceof AgentFunctionsTokenError) exitCode = 2;
    runtime.logger.error('start-up failed', { error: err instanceof Error ? err.message : String(err) });
    // Anything else is a fatal error: reported (crash_report) before the exit.
    if (exitCode !== 2) {
      const reporter = await runtime.crashReporter;
      reporter?.report(err, 'fatal');
      await reporter?.flush(2000);
    }
    process.stderr.write(`sluice-agent: ${err instanceof Error ? err.message : String(err)}\n`);
    await runtime.logger.close();
  }
  return exitCode;
}
