import { hostname } from 'node:os';
import type { AgentConfig } from '@sluice/config';
import type { EnforcedPublished, PolicyEnforcement } from '@sluice/enforcement';
import type { SluiceEtcd } from '@sluice/etcd';
import type { KubeClient } from '@sluice/kube';
import { PodScalers, type ProcessKube, type PodScalerObservation, type PodScalerSpec, type PodScalersOptions } from '@sluice/kube/light';
import { podScalerReportKey, type PodScalerReport } from '@sluice/policies';
import type { ProcessRuntime } from '@sluice/runtime';

/** The enforced pod scalers of the group with their decisions in force. */
function specsOf(components: readonly EnforcedPublished[]): PodScalerSpec[] {
  const out: PodScalerSpec[] = [];
  for (const { published: p, decision: d } of components) {
    if (p.kind !== 'pod_scaler') continue;
    out.push({
      policyName: p.policy_name,
      componentId: p.component_id,
      object: { namespace: p.kubernetes_object.namespace, kind: p.kubernetes_object.kind as PodScalerSpec['object']['kind'], name: p.kubernetes_object.name },
      policy: { minReplicas: p.min_replicas, maxReplicas: p.max_replicas, scaleOutCooldownMs: p.scale_out_cooldown_ms, scaleInCooldownMs: p.scale_in_cooldown_ms, dryRun: p.dry_run },
      ...(d?.kind === 'pod_scaler' ? { desired: d.replicas } : {}),
    });
  }
  return out;
}

/** The report of an observation, as the controller reads it (libs/policies pod-scaler-report.ts). */
function reportOf(agent: string, spec: PodScalerSpec, o: PodScalerObservation): PodScalerReport {
  return {
    kind: 'pod_scaler',
    agent,
    leader_since_ms: o.leaderSinceMs,
    kubernetes_object: { namespace: spec.object.namespace, kind: spec.object.kind, name: spec.object.name },
    actual_replicas: o.actual,
    configured_replicas: o.configured,
    desired_replicas: o.desired ?? null,
  };
}

/**
 * `auto_scale.pod_scaler` on the agent: the pod scalers of this agent's group, fed by
 * enforcement's subscription (its watches of the published keys are the agent's only ones),
 * writing `/scale` through the process's Kubernetes client (the discovery's, else one of its own) when `auto_scale.kubernetes.enabled`; off (listed, nothing
 * written) when disabled or without a Kubernetes API. `GET /v1/autoscale/pod-scalers` shows them.
 * The Lease holder reports what it observes of `/scale` back to the controller, on this agent's
 * etcd lease, only when it changes: `<ns>/reports/<group>/<policy>/<component>/<identity>`.
 * The Kubernetes client's modules are imported only when the scalers are on.
 */
export async function installPodScaler(runtime: ProcessRuntime, config: AgentConfig, etcd: SluiceEtcd, enforcement: Pick<PolicyEnforcement, 'subscribe'>, kube: ProcessKube, env: NodeJS.ProcessEnv = process.env): Promise<PodScalers> {
  let client: KubeClient | undefined;
  let disabledReason: string | undefined;
  if (!config.auto_scale.kubernetes.enabled) disabledReason = 'auto_scale.kubernetes.enabled is false';
  else if (!kube.available()) disabledReason = 'no Kubernetes API: not in a pod and no KUBECONFIG or ~/.kube/config';
  else client = await kube.client();
  const enabled = disabledReason === undefined && client !== undefined;
  let apis: Pick<PodScalersOptions, 'scale' | 'leases'> = {};
  if (enabled && client) {
    const { kubernetesLeaseApi, kubernetesScaleApi } = await import('@sluice/kube');
    apis = { scale: kubernetesScaleApi(client), leases: kubernetesLeaseApi(client) };
  }
  const identity = env.POD_NAME ?? `${hostname()}-${process.pid}`;
  const group = config.agent_info.agent_group;
  // A key segment: an identity never holds `/` (pod names and host names do not; this makes sure).
  const agent = identity.replaceAll('/', '_');
  const onObservation = (spec: PodScalerSpec, o: PodScalerObservation | undefined): void => {
    const key = podScalerReportKey(etcd.namespace, group, spec.policyName, spec.componentId, agent);
    // The lease keeps the desired value and writes it when etcd is back; a rejection only says it is not there yet.
    const done = o === undefined ? etcd.leased.delete(key) : etcd.leased.put(key, JSON.stringify(reportOf(agent, spec, o)));
    done.catch((err: unknown) => runtime.logger.debug('pod scaler report not written yet; kept for when etcd is back', { key, error: err instanceof Error ? err.message : String(err) }));
  };
  const scalers = new PodScalers({
    enabled,
    ...(disabledReason !== undefined ? { disabledReason } : {}),
    ...apis,
    identity,
    registry: runtime.registry,
    logger: runtime.logger,
    onObservation,
  });
  let unsubscribe: (() => void) | undefined;
  runtime.lifecycle.add({
    name: 'pod-scaler',
    start: async () => {
      if (client !== undefined) await kube.hold();
      unsubscribe = enforcement.subscribe((components) => scalers.set(specsOf(components)));
      scalers.start();
    },
    shutdown: async () => {
      unsubscribe?.();
      unsubscribe = undefined;
      await scalers.shutdown();
      if (client !== undefined) await kube.release();
    },
  });
  runtime.server.app.get('/v1/autoscale/pod-scalers', (_req, res) => {
    res.json({ enabled, ...(disabledReason !== undefined ? { reason: disabledReason } : {}), pod_scalers: scalers.status() });
  });
  return scalers;
}
