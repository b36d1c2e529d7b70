import type { PolicySink } from '@sluice/controller';
import type { Job } from '@sluice/jobs';
import { named, type NamedLifecycle } from '@sluice/lifecycle';
import type { Logger } from '@sluice/telemetry/logger';

/** What `policies.cr_watcher.enabled` adds to the controller: the Kubernetes client, the watcher, a readiness check. */
export interface PolicyCrWatcherWiring {
  components: NamedLifecycle[];
  readiness: Job;
}

/**
 * The Policy custom resource watcher feeding the controller's PolicySink. The client uses
 * the in-cluster configuration in a pod and KUBECONFIG (or ~/.kube/config) otherwise;
 * a kubeconfig that cannot be read throws (a start-up configuration error). The Kubernetes client
 * (@sluice/kube with @kubernetes/client-node, seconds and tens of MB) is imported only here.
 */
export async function policyCrWatcher(sink: PolicySink, logger: Logger): Promise<PolicyCrWatcherWiring> {
  const { KubeClient, PolicyCrWatcher } = await import('@sluice/kube');
  const client = KubeClient.load({ env: process.env }, { logger });
  const watcher = new PolicyCrWatcher({ client, sink, logger });
  return {
    components: [
      named(client.name, client),
      named(watcher.name, watcher),
    ],
    readiness: client.readinessJob(),
  };
}
