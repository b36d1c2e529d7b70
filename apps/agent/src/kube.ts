import type { Lifecycle } from '@sluice/lifecycle';
import type { AgentConfig } from '@sluice/config';
import type { EntityCache } from '@sluice/discovery';
import type { KubePeerSink } from '@sluice/kube';
import { discoveryScope, entitiesPage, type ProcessKube } from '@sluice/kube/light';
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
export async function installKubernetes(runtime: ProcessRuntime, cache: EntityCache, config: AgentConfig, kube: ProcessKube, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  runtime.server.app.get('/v1/discovery/entities', (req, res) => {
    res.json(entitiesPage(cache, req.query as Record<string, unknown>));
  });
  if (!config.service_discovery.kubernetes.enabled) return;
  if (!kube.available()) {
    runtime.logger.info('Kubernetes service discovery skipped: not in a pod and no KUBECONFIG or ~/.kube/config (service_discovery.kubernetes.enabled)');
    return;
  }
  const { KubernetesDiscovery } = await import('@sluice/kube');
  const client = await kube.client();
  const { scope, describe } = discoveryScope(env, config.cloudext.installation_mode);
  const discovery = new KubernetesDiscovery({ client, cache, scope, logger: runtime.logger, registry: runtime.registry });
  const job = client.readinessJob();
  runtime.addReadinessJob(job);
  client.onStateChange(() => runtime.status.set(`readiness/service/${job.name}`, client.readinessStatus()));
  runtime.lifecycle.add({
    name: 'kubernetes-discovery',
    start: async () => {
      await kube.hold();
      discovery.start();
      runtime.logger.info('Kubernetes service discovery started', { server: client.loaded.server, source: client.loaded.source, scope: describe });
    },
    shutdown: async (opts) => {
      await discovery.shutdown();
      await kube.release(opts);
    },
  });
}

/**
 * Dist-cache peers from the Kubernetes API (source `kubernetes`): the ready endpoints of the peers
 * Service (`peer_discovery.kubernetes_service`, default `sluice-agent-peers`) in POD_NAMESPACE, through the
 * process's one Kubernetes client (the same shared informers as service discovery).
 * Undefined when no Kubernetes API is usable, POD_NAMESPACE is not set or the agent is a sidecar
 * (cloudext.installation_mode KUBERNETES_SIDECAR: its peers are in etcd).
 */
export async function startKubernetesPeers(runtime: ProcessRuntime, config: AgentConfig, kube: ProcessKube, group: string, sink: KubePeerSink, env: NodeJS.ProcessEnv = process.env): Promise<Lifecycle | undefined> {
  if (!kube.available()) return undefined;
  if (config.cloudext.installation_mode === 'KUBERNETES_SIDECAR') {
    // Injected beside a workload: no peers Service is made for it; etcd (<namespace>/peers/<group>/) names its peers.
    runtime.logger.info('Kubernetes peer discovery skipped: a sidecar agent (cloudext.installation_mode KUBERNETES_SIDECAR) finds its peers through etcd');
    return undefined;
  }
  const namespace = env.POD_NAMESPACE;
  if (namespace === undefined || namespace === '') {
    runtime.logger.info('Kubernetes peer discovery skipped: POD_NAMESPACE is not set');
    return undefined;
  }
  const service = config.peer_discovery.kubernetes_service;
  const { KubernetesPeerSource } = await import('@sluice/kube');
  const client = await kube.hold();
  const source = new KubernetesPeerSource({
    informer: KubernetesPeerSource.informerFor(client, namespace, service),
    group,
    selfIp: env.POD_IP,
    onSkip: (reason, slice) => runtime.logger.warn('peers EndpointSlice data skipped', { reason, slice }),
  });
  source.start(sink);
  runtime.logger.info('Kubernetes peer discovery started', { namespace, service, server: client.loaded.server });
  return {
    shutdown: async (opts) => {
      await source.shutdown();
      await kube.release(opts);
    },
  };
}
