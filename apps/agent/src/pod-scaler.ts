import { hostname } from 'node:os';
import type { AgentConfig } from '@sluice/config';
import { parseComponent, parseDecision } from '@sluice/enforcement';
import type { PrefixWatch, SluiceEtcd } from '@sluice/etcd';
import type { KubeClient } from '@sluice/kube';
import { PodScalers, type ProcessKube, type PodScalerObservation, type PodScalerSpec, type PodScalersOptions } from '@sluice/kube/light';
import { configPrefix, decisionPrefix, podScalerReportKey, type PodScalerReport } from '@sluice/policies';
import type { ProcessRuntime } from '@sluice/runtime';

/** The published pod scalers of the group with their latest decisions (unusable values are enforcement's to report). */
function specsOf(configs: ReadonlyMap<string, string>, decisions: ReadonlyMap<string, string>): PodScalerSpec[] {
  const out: PodScalerSpec[] = [];
  for (const [id, raw] of configs) {
    const c = parseComponent(raw);
    if (!c.ok || c.value.kind !== 'pod_scaler') continue;
    const p = c.value;
    const dRaw = decisions.get(id);
    const d = dRaw === undefined ? undefined : parseDecision(dRaw);
    out.push({
      policyName: p.policy_name,
      componentId: p.component_id,
      object: { namespace: p.kubernetes_object.namespace, kind: p.kubernetes_object.kind as PodScalerSpec['object']['kind'], name: p.kubernetes_object.name },
      policy: { minReplicas: p.min_replicas, maxReplicas: p.max_replicas, scaleOutCooldownMs: p.scale_out_cooldown_ms, scaleInCooldownMs: p.scale_in_cooldown_ms, dryRun: p.dry_run },
      ...(d?.ok && d.value.kind === 'pod_scaler' ? { desired: d.value.replicas } : {}),
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
 * `auto_scale.pod_scaler` on the agent: the pod scalers of this agent's group, fed by the same
 * etcd keys as enforcement, writing `/scale` through the process's Kubernetes client (the
 * discovery's, else one of its own) when `auto_scale.kubernetes.enabled`; off (listed, nothing
 * written) when disabled or without a Kubernetes API. `GET /v1/autoscale/pod-scalers` shows them.
 * The Lease holder reports what it observes of `/scale` back to the controller, on this agent's
 * etcd lease, only when it changes: `<ns>/reports/<group>/<policy>/<component>/<identity>`.
 * The Kubernetes client's modules are imported only when the scalers are on.
 */
export async function installPodScaler(runtime: ProcessRuntime, config: AgentConfig, etcd: SluiceEtcd, kube: ProcessKube, env: NodeJS.ProcessEnv = process.env): Promise<PodScalers> {
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
  const sources = { config: new Map<string, string>(), decision: new Map<string, string>() };
  const prefixes = { config: configPrefix(etcd.namespace, group), decision: decisionPrefix(etcd.namespace, group) };
  const sync = () => scalers.set(specsOf(sources.config, sources.decision));
  let watches: PrefixWatch[] = [];
  runtime.lifecycle.add({
    name: 'pod-scaler',
    start: async () => {
      if (client !== undefined) await kube.hold();
      watches = (['config', 'decision'] as const).map((which) => {
        const m = sources[which];
        const id = (k: string) => k.slice(prefixes[which].length);
        return etcd.watchPrefix(prefixes[which], {
          reset(entries) { m.clear(); for (const [k, v] of entries) m.set(id(k), v); sync(); },
          put(k, v) { m.set(id(k), v); sync(); },
          delete(k) { m.delete(id(k)); sync(); },
        });
      });
      scalers.start();
    },
    shutdown: async () => {
      await Promise.all(watches.map((w) => w.shutdown()));
      await scalers.shutdown();
      if (client !== undefined) await kube.release();
    },
  });
  runtime.server.app.get('/v1/autoscale/pod-scalers', (_req, res) => {
    res.json({ enabled, ...(disabledReason !== undefined ? { reason: disabledReason } : {}), pod_scalers: scalers.status() });
  });
  return scalers;
}
