import { hostname } from 'node:os';
import type { AgentConfig } from '@sluice/config';
import { decisionCounter, LIMITER_DECISIONS_HELP, LIMITER_DECISIONS_METRIC, type CheckDecision, type Engine } from '@sluice/flowcontrol';
import type { ProcessKube } from '@sluice/kube/light';
import type { ProcessRuntime } from '@sluice/runtime';
import { batchSettingsOf } from '@sluice/telemetry';
import { createFlowRollup, observeGaugePoints, rolledSeriesSink, type SeriesCell } from '@sluice/telemetry/otel';

/**
 * Flow telemetry into the pipeline (docs/guides/telemetry.md): every check's decision is counted
 * into the `otel.batch_prerollup` batch's `sluice_limiter_decisions_total` series per control
 * point, policy, component and decision (cells interned once, one addition per limiter per check);
 * a sent batch's series gather in the `otel.batch_postrollup` batch before they are added to the
 * pipeline's counter. Installed only
 * when something reads the pipeline (remote write, OTLP or the debug port).
 */
export function installFlowTelemetry(runtime: ProcessRuntime, engine: Engine, config: AgentConfig): boolean {
  if (!runtime.telemetry.exporting && config.otel.ports.debug_port === 0) return false;
  const rollup = createFlowRollup<CheckDecision>({
    prerollup: batchSettingsOf(config.otel.batch_prerollup, 'otel.batch_prerollup'),
    postrollup: batchSettingsOf(config.otel.batch_postrollup, 'otel.batch_postrollup'),
    expand: decisionCounter<SeriesCell>(),
    sink: rolledSeriesSink(runtime.telemetry.meter, { [LIMITER_DECISIONS_METRIC]: LIMITER_DECISIONS_HELP }),
    onError: (err) => runtime.logger.warn('flow telemetry batch dropped', { error: err instanceof Error ? err.message : String(err) }),
  });
  let remove: (() => void) | undefined;
  runtime.lifecycle.add({
    name: 'flow-telemetry',
    start: async () => { remove = engine.addDecisionListener((d) => { if (d.limiters.length > 0) rollup.record(d); }); },
    // Before the pipeline's last export (it stops after this component): what is batched is rolled up and counted.
    shutdown: async () => { remove?.(); await rollup.shutdown(); },
  });
  return true;
}

/**
 * `otel.disable_kubernetes_scraper` false and a Kubernetes API at hand: the agent holding the
 * group's Lease (`sluice-kubernetes-scraper-<group>` in POD_NAMESPACE, else `default`) reads
 * Deployments, StatefulSets, ReplicaSets and Pods every export interval and exports their
 * replicas, pod counts and container requests through the pipeline. Through the discovery's
 * client when there is one, else one of its own.
 */
export async function installKubernetesScraper(runtime: ProcessRuntime, config: AgentConfig, kube: ProcessKube, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const route = '/v1/telemetry/kubernetes-scraper';
  let reason: string | undefined;
  if (config.otel.disable_kubernetes_scraper) reason = 'otel.disable_kubernetes_scraper is true';
  else if (!kube.available()) reason = 'no Kubernetes API: not in a pod and no KUBECONFIG or ~/.kube/config';
  if (reason !== undefined) {
    const off = { enabled: false, reason };
    runtime.server.app.get(route, (_req, res) => { res.json(off); });
    return;
  }
  const mod = await import('@sluice/kube');
  const client = await kube.client();
  const group = config.agent_info.agent_group;
  const intervalMs = runtime.telemetry.exportIntervalMs;
  const scraper = new mod.KubernetesScraper({
    leases: mod.kubernetesLeaseApi(client),
    lister: mod.kubernetesClusterLister(client),
    leaseNamespace: env.POD_NAMESPACE || 'default',
    leaseName: mod.scraperLeaseName(group),
    identity: (env.POD_NAME || `${hostname()}-${process.pid}`).replaceAll('/', '_'),
    intervalMs,
    leaseDurationS: Math.max(15, Math.ceil((3 * intervalMs) / 1000)),
    logger: runtime.logger,
  });
  observeGaugePoints(runtime.telemetry.meter, mod.CLUSTER_METRICS, () => scraper.points());
  runtime.server.app.get(route, (_req, res) => { res.json({ enabled: true, ...scraper.status() }); });
  runtime.lifecycle.add({
    name: 'kubernetes-scraper',
    start: async () => { await kube.hold(); scraper.start(); },
    shutdown: async () => { await scraper.shutdown(); await kube.release(); },
  });
}
