import { parseQuantity } from './quantity.js';

/** One gauge value the Kubernetes scraper exports. */
export interface ClusterPoint {
  metric: string;
  attributes: Readonly<Record<string, string>>;
  value: number;
}

/** The gauges the scraper exports, with their descriptions. */
export const CLUSTER_METRICS: Readonly<Record<string, string>> = {
  k8s_deployment_desired: 'Replicas a Deployment asks for (spec.replicas).',
  k8s_deployment_ready: 'Ready replicas of a Deployment (status.readyReplicas).',
  k8s_deployment_available: 'Available replicas of a Deployment (status.availableReplicas).',
  k8s_statefulset_desired: 'Replicas a StatefulSet asks for (spec.replicas).',
  k8s_statefulset_ready: 'Ready replicas of a StatefulSet (status.readyReplicas).',
  k8s_statefulset_available: 'Available replicas of a StatefulSet (status.availableReplicas).',
  k8s_replicaset_desired: 'Replicas a ReplicaSet asks for (spec.replicas).',
  k8s_replicaset_ready: 'Ready replicas of a ReplicaSet (status.readyReplicas).',
  k8s_replicaset_available: 'Available replicas of a ReplicaSet (status.availableReplicas).',
  k8s_pods: 'Pods per namespace and phase (Pending, Running, Succeeded, Failed, Unknown).',
  k8s_container_cpu_request: 'CPU a container requests, in cores (spec.containers[].resources.requests.cpu).',
  k8s_container_memory_request: 'Memory a container requests, in bytes (spec.containers[].resources.requests.memory).',
};

/** The parts of the objects the scraper reads (client-node's V1Deployment and the others fit). */
export interface WorkloadObject {
  metadata?: { name?: string; namespace?: string };
  spec?: { replicas?: number };
  status?: { readyReplicas?: number; availableReplicas?: number };
}

export interface PodObject {
  metadata?: { name?: string; namespace?: string };
  spec?: { containers?: { name?: string; resources?: { requests?: Record<string, unknown> } }[] };
  status?: { phase?: string };
}

export interface ClusterObjects {
  deployments: readonly WorkloadObject[];
  statefulsets: readonly WorkloadObject[];
  replicasets: readonly WorkloadObject[];
  pods: readonly PodObject[];
}

const PHASES = ['Pending', 'Running', 'Succeeded', 'Failed', 'Unknown'];

/**
 * The orchestrator metrics an auto-scaler needs, from lists of objects: per Deployment,
 * StatefulSet and ReplicaSet its desired (spec.replicas, 1 when unset), ready and available
 * replicas; pods per namespace and phase; each container's CPU (cores) and memory (bytes) requests.
 */
export function clusterPoints(objs: ClusterObjects): ClusterPoint[] {
  const out: ClusterPoint[] = [];
  const workloads = (kind: 'deployment' | 'statefulset' | 'replicaset', list: readonly WorkloadObject[]) => {
    for (const o of list) {
      const name = o.metadata?.name;
      if (!name) continue;
      const attributes = { k8s_namespace_name: o.metadata?.namespace ?? '', [`k8s_${kind}_name`]: name };
      out.push({ metric: `k8s_${kind}_desired`, attributes, value: o.spec?.replicas ?? 1 });
      out.push({ metric: `k8s_${kind}_ready`, attributes, value: o.status?.readyReplicas ?? 0 });
      out.push({ metric: `k8s_${kind}_available`, attributes, value: o.status?.availableReplicas ?? 0 });
    }
  };
  workloads('deployment', objs.deployments);
  workloads('statefulset', objs.statefulsets);
  workloads('replicaset', objs.replicasets);
  const pods = new Map<string, Map<string, number>>();
  for (const p of objs.pods) {
    const ns = p.metadata?.namespace ?? '';
    const phase = PHASES.includes(p.status?.phase ?? '') ? p.status!.phase! : 'Unknown';
    let byPhase = pods.get(ns);
    if (byPhase === undefined) pods.set(ns, byPhase = new Map(PHASES.map((ph) => [ph, 0])));
    byPhase.set(phase, (byPhase.get(phase) ?? 0) + 1);
    for (const c of p.spec?.containers ?? []) {
      const attributes = { k8s_namespace_name: ns, k8s_pod_name: p.metadata?.name ?? '', k8s_container_name: c.name ?? '' };
      const cpu = parseQuantity(c.resources?.requests?.cpu);
      const memory = parseQuantity(c.resources?.requests?.memory);
      if (cpu !== undefined) out.push({ metric: 'k8s_container_cpu_request', attributes, value: cpu });
      if (memory !== undefined) out.push({ metric: 'k8s_container_memory_request', attributes, value: memory });
    }
  }
  for (const [ns, byPhase] of pods) {
    for (const [phase, n] of byPhase) out.push({ metric: 'k8s_pods', attributes: { k8s_namespace_name: ns, phase }, value: n });
  }
  return out;
}
