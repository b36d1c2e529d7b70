import type { AgentConfig } from '@sluice/config';
import type { EntityCache } from '@sluice/discovery';
import type { KubeClient } from '@sluice/kube';
import { discoveryScope, entitiesPage, kubeConfigSource } from '@sluice/kube/light';
import type { ProcessRuntime } from '@sluice/runtime';

/** A kubeconfig that cannot be read: a configuration problem (exit 2). */
export { KubeConfigError } from '@sluice/kube/light';

/**
 * `GET /v1/discovery/entities` (paged: `limit`, `page_token`; filters `service`, `ip`) and, when
 * `service_discovery.kubernetes.enabled`, Kubernetes service discovery into the same cache as the
 * static entities: one Kubernetes client (in-cluster, else KUBECONFIG or ~/.kube/config), its
 * readiness check (never failing: the agent keeps its last entities), and the EndpointSlice and
 * Service informers. Outside a pod with no kubeconfig the agent says so once and goes on. The
 * Kubernetes client (@sluice/kube with @kubernetes/client-node, seconds and tens of MB) is imported only then.
 */
export async function installKubernetes(runtime: ProcessRuntime, cache: EntityCache, config: AgentConfig, env: NodeJS.ProcessEnv = process.env): Promise<KubeClient | undefined> {
  runtime.server.app.get('/v1/discovery/entities', (req, res) => {
    res.json(entitiesPage(cache, req.query as Record<string, unknown>));
  });
  if (!config.service_discovery.kubernetes.enabled) return undefined;
  if (kubeConfigSource({ env }) === undefined) {
    runtime.logger.info('Kubernetes service discovery skipped: not in a pod and no KUBECONFIG or ~/.kube/config (service_discovery.kubernetes.enabled)');
    return undefined;
  }
  const { KubeClient, KubernetesDiscovery } = await import('@sluice/kube');
  const client = KubeClient.load({ env, httpClient: config.kubernetes_client.http_client }, { logger: runtime.logger });
  const { scope, describe } = discoveryScope(env, config.cloudext.installation_mode);
  const discovery = new KubernetesDiscovery({ client, cache, scope, logger: runtime.logger, registry: runtime.registry });
  const job = client.readinessJob();
  runtime.addReadinessJob(job);
  client.onStateChange(() => runtime.status.set(`readiness/service/${job.name}`, client.readinessStatus()));
  runtime.lifecycle.add({
    name: 'kubernetes-discovery',
    start: () => {
      discovery.start();
      client.start();
      runtime.logger.info('Kubernetes service discovery started', { server: client.loaded.server, source: client.loaded.source, scope: describe });
    },
    shutdown: () => {
      discovery.shutdown();
      client.shutdown();
    },
  });
  return client;
}
