import { k8s } from '../k8s.js';
import type { KubeClient } from '../kube-client.js';
import type { ScaleObject } from './scale-plan.js';

/** An object's `/scale` subresource (autoscaling/v1 Scale). */
export interface ScaleReading {
  /** spec.replicas: what is configured. */
  configured: number;
  /** status.replicas: what runs. */
  actual: number;
  resourceVersion?: string;
}

/** Reads and writes `/scale`; the tests and the agent use the Kubernetes implementation below. */
export interface ScaleApi {
  read(o: ScaleObject): Promise<ScaleReading>;
  /** Writes spec.replicas; with `resourceVersion`, a concurrent change fails (409) instead of being overwritten. */
  write(o: ScaleObject, replicas: number, resourceVersion?: string): Promise<void>;
}

export { apiStatus } from './api-status.js';

type Params = { name: string; namespace: string };
type Body = Params & { body: k8s.V1Scale };

/** `/scale` of apps/v1 Deployments, StatefulSets and ReplicaSets through the process's client. */
export function kubernetesScaleApi(client: KubeClient): ScaleApi {
  const apps = () => client.api(k8s.AppsV1Api);
  const reader = (kind: ScaleObject['kind']): ((p: Params, o?: k8s.ConfigurationOptions) => Promise<k8s.V1Scale>) => {
    const a = apps();
    if (kind === 'Deployment') return (p, o) => a.readNamespacedDeploymentScale(p, o);
    if (kind === 'StatefulSet') return (p, o) => a.readNamespacedStatefulSetScale(p, o);
    return (p, o) => a.readNamespacedReplicaSetScale(p, o);
  };
  const writer = (kind: ScaleObject['kind']): ((p: Body, o?: k8s.ConfigurationOptions) => Promise<k8s.V1Scale>) => {
    const a = apps();
    if (kind === 'Deployment') return (p, o) => a.replaceNamespacedDeploymentScale(p, o);
    if (kind === 'StatefulSet') return (p, o) => a.replaceNamespacedStatefulSetScale(p, o);
    return (p, o) => a.replaceNamespacedReplicaSetScale(p, o);
  };
  return {
    async read(o) {
      const s = await reader(o.kind)({ name: o.name, namespace: o.namespace }, client.requestOptions());
      return { configured: s.spec?.replicas ?? 0, actual: s.status?.replicas ?? 0, ...(s.metadata?.resourceVersion ? { resourceVersion: s.metadata.resourceVersion } : {}) };
    },
    async write(o, replicas, resourceVersion) {
      const body: k8s.V1Scale = {
        apiVersion: 'autoscaling/v1', kind: 'Scale',
        metadata: { name: o.name, namespace: o.namespace, ...(resourceVersion ? { resourceVersion } : {}) },
        spec: { replicas },
      };
      await writer(o.kind)({ name: o.name, namespace: o.namespace, body }, client.requestOptions());
    },
  };
}
