import { onceShutdown, type Lifecycle } from '@sluice/lifecycle';
import { parsePodScalerReport, parsePodScalerReportKey, reportPrefix, type PodScalerReport, type PublishedComponent, type ReportedSignals } from '@sluice/policies';
import { Counter, Gauge, type Registry } from 'prom-client';
import type { ControllerEtcd } from './controller-etcd.js';

export interface PodScalerReportsOptions {
  registry?: Registry;
  logger?: { warn(msg: string, meta?: Record<string, unknown>): void };
}

/** What a policy's circuit reads of the reports. */
export interface ReportSource {
  /** The reported values of the policy's pod scalers, by component id (absent: invalid). */
  signalsOf(policy: string, components: Iterable<PublishedComponent>): ReadonlyMap<string, ReportedSignals>;
}

const slot = (group: string, policy: string, componentId: string): string => `${group}/${policy}/${componentId}`;

/**
 * The replicas the agents report back for pod scalers (`<ns>/reports/...`, on each agent's lease),
 * level-triggered: one watch keeps every report, and each tick of a policy reads the values of its
 * pod scalers. Of several reports on one component (the Lease changing hands), the latest holder's
 * wins (`leader_since_ms`, then the agent's name). A report of another object than the component's
 * (a policy changed since) is not used, nor any while etcd is unavailable (they may be stale). A bad
 * report is ignored, logged once and counted.
 */
export class PodScalerReports implements ReportSource, Lifecycle {
  /** By `<group>/<policy>/<component>`, then by agent. */
  private readonly reports = new Map<string, Map<string, PodScalerReport>>();
  /** Keys whose value was refused (logged once until they change to a good one). */
  private readonly refused = new Set<string>();
  private watch: { shutdown(): Promise<void> } | undefined;
  private readonly rejected: Counter<'reason'> | undefined;

  constructor(private readonly etcd: ControllerEtcd, private readonly o: PodScalerReportsOptions = {}) {
    const registers = o.registry ? [o.registry] : [];
    if (o.registry) {
      this.rejected = new Counter({ name: 'pod_scaler_reports_rejected_total', help: 'Pod scaler reports from the agents that were not used, by reason: key or value.', labelNames: ['reason'], registers });
      const reports = this.reports;
      new Gauge({ name: 'pod_scaler_reports', help: 'Pod scaler reports from the agents the controller holds.', registers, collect() { let n = 0; for (const m of reports.values()) n += m.size; this.set(n); } });
    }
  }

  async start(): Promise<void> {
    if (this.watch !== undefined) return;
    this.watch = this.etcd.watchPrefix(reportPrefix(this.etcd.namespace), {
      reset: (entries) => {
        this.reports.clear();
        for (const [k, v] of entries) this.put(k, v);
      },
      put: (k, v) => this.put(k, v),
      delete: (k) => this.remove(k),
    });
  }

  readonly shutdown = onceShutdown('pod scaler reports', async () => {
    await this.watch?.shutdown();
    this.watch = undefined;
  });

  signalsOf(policy: string, components: Iterable<PublishedComponent>): ReadonlyMap<string, ReportedSignals> {
    const out = new Map<string, ReportedSignals>();
    if (this.etcd.state() === 'unavailable') return out;
    for (const c of components) {
      if (c.kind !== 'pod_scaler') continue;
      const r = this.current(slot(c.agent_group, policy, c.component_id), c.kubernetes_object);
      if (r !== undefined) out.set(c.component_id, { actual_replicas: r.actual_replicas, configured_replicas: r.configured_replicas, desired_replicas: r.desired_replicas });
    }
    return out;
  }

  /** The report in force for a component's object, if any. */
  private current(at: string, object: { namespace: string; kind: string; name: string }): PodScalerReport | undefined {
    let best: PodScalerReport | undefined;
    for (const r of this.reports.get(at)?.values() ?? []) {
      const o = r.kubernetes_object;
      if (o.namespace !== object.namespace || o.kind !== object.kind || o.name !== object.name) continue;
      if (best === undefined || r.leader_since_ms > best.leader_since_ms || (r.leader_since_ms === best.leader_since_ms && r.agent > best.agent)) best = r;
    }
    return best;
  }

  private put(key: string, value: string): void {
    const k = parsePodScalerReportKey(this.etcd.namespace, key);
    if (k === undefined) {
      this.refuse(key, 'key', 'not <ns>/reports/<group>/<policy>/<component>/<agent>');
      return;
    }
    const r = parsePodScalerReport(value);
    const at = slot(k.agentGroup, k.policy, k.componentId);
    if (!r.ok || r.value.agent !== k.agent) {
      // A bad value replaces a good one: what the key said before no longer holds.
      this.drop(at, k.agent);
      this.refuse(key, 'value', r.ok ? `agent ${JSON.stringify(r.value.agent)} reported under another agent's key` : r.error);
      return;
    }
    this.refused.delete(key);
    let m = this.reports.get(at);
    if (m === undefined) this.reports.set(at, (m = new Map()));
    m.set(k.agent, r.value);
  }

  private remove(key: string): void {
    this.refused.delete(key);
    const k = parsePodScalerReportKey(this.etcd.namespace, key);
    if (k !== undefined) this.drop(slot(k.agentGroup, k.policy, k.componentId), k.agent);
  }

  private drop(at: string, agent: string): void {
    const m = this.reports.get(at);
    if (m === undefined) return;
    m.delete(agent);
    if (m.size === 0) this.reports.delete(at);
  }

  private refuse(key: string, reason: 'key' | 'value', error: string): void {
    this.rejected?.inc({ reason });
    if (this.refused.has(key)) return;
    this.refused.add(key);
    this.o.logger?.warn('pod scaler report ignored', { key, error });
  }
}
