import type { Lifecycle } from '@sluice/lifecycle';
// The Kubernetes scraper of an agent group: the agent holding the group's Lease reads the
// orchestrator's objects every interval and keeps their metrics for the telemetry pipeline;
// the others keep none, so that each value is exported once per group.
import { k8s } from '../k8s.js';
import type { KubeClient } from '../kube-client.js';
import { holdNamedLease, type LeaseApi } from '../scale/lease-holder.js';
import { clusterPoints, type ClusterObjects, type ClusterPoint } from './cluster-metrics.js';
import type { Logger } from '@sluice/telemetry/logger';

/** Reads the objects the scraper turns into metrics. */
export interface ClusterLister {
  list(): Promise<ClusterObjects>;
}

/** Lists Deployments, StatefulSets, ReplicaSets and Pods of all namespaces through the process's client. */
export function kubernetesClusterLister(client: KubeClient): ClusterLister {
  return {
    async list() {
      const apps = client.api(k8s.AppsV1Api);
      const core = client.api(k8s.CoreV1Api);
      const [deployments, statefulsets, replicasets, pods] = await Promise.all([
        apps.listDeploymentForAllNamespaces({}, client.requestOptions()),
        apps.listStatefulSetForAllNamespaces({}, client.requestOptions()),
        apps.listReplicaSetForAllNamespaces({}, client.requestOptions()),
        core.listPodForAllNamespaces({}, client.requestOptions()),
      ]);
      return { deployments: deployments.items, statefulsets: statefulsets.items, replicasets: replicasets.items, pods: pods.items };
    },
  };
}

/** The Lease of a group's scraper: `sluice-kubernetes-scraper-<group>`, a DNS subdomain. */
export function scraperLeaseName(group: string): string {
  const g = group.toLowerCase().replace(/[^a-z0-9.-]+/g, '-').replace(/^[-.]+|[-.]+$/g, '');
  return `sluice-kubernetes-scraper-${g || 'default'}`.slice(0, 253).replace(/[-.]+$/, '');
}

export interface KubernetesScraperOptions {
  leases: LeaseApi;
  lister: ClusterLister;
  /** Where the group's Lease lives (the agent's POD_NAMESPACE). */
  leaseNamespace: string;
  leaseName: string;
  /** This agent in the Lease (its pod name). */
  identity: string;
  intervalMs: number;
  /** A holder that has not renewed for this long loses the Lease. */
  leaseDurationS: number;
  logger?: Logger;
  now?: () => number;
}

export interface KubernetesScraperStatus {
  leader: boolean;
  lease: string;
  last_scrape?: string;
  last_error?: string;
  points: number;
}

export class KubernetesScraper implements Lifecycle {
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private current: ClusterPoint[] = [];
  private isLeader = false;
  private lastScrapeMs: number | undefined;
  private lastError: string | undefined;
  private tickDone: Promise<void> = Promise.resolve();

  constructor(private readonly opts: KubernetesScraperOptions) {}

  get leader(): boolean {
    return this.isLeader;
  }

  /** The latest metrics: empty unless this agent holds the Lease. */
  points(): readonly ClusterPoint[] {
    return this.isLeader ? this.current : [];
  }

  status(): KubernetesScraperStatus {
    return {
      leader: this.isLeader, lease: `${this.opts.leaseNamespace}/${this.opts.leaseName}`, points: this.points().length,
      ...(this.lastScrapeMs !== undefined ? { last_scrape: new Date(this.lastScrapeMs).toISOString() } : {}),
      ...(this.lastError !== undefined ? { last_error: this.lastError } : {}),
    };
  }

  /** One step: take or renew the Lease; the holder reads the objects. */
  async tick(): Promise<void> {
    const now = this.opts.now ?? Date.now;
    try {
      const held = await holdNamedLease(this.opts.leases, this.opts.leaseNamespace, this.opts.leaseName, this.opts.identity, this.opts.leaseDurationS, now());
      if (held !== this.isLeader) this.opts.logger?.info(held ? 'Kubernetes scraper: this agent holds the group\'s Lease' : 'Kubernetes scraper: another agent holds the group\'s Lease', { lease: this.opts.leaseName });
      this.isLeader = held;
      if (!held) {
        this.current = [];
        return;
      }
      this.current = clusterPoints(await this.opts.lister.list());
      this.lastScrapeMs = now();
      this.lastError = undefined;
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      // Said once per distinct error; the status route shows the latest.
      if (message !== this.lastError) this.opts.logger?.warn('Kubernetes scraper step failed', { error: message });
      this.lastError = message;
    }
  }

  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    const loop = () => {
      this.tickDone = this.tick().finally(() => {
        if (this.running) this.timer = setTimeout(loop, this.opts.intervalMs);
      });
    };
    loop();
  }

  async shutdown(): Promise<void> {
    this.running = false;
    if (this.timer !== undefined) clearTimeout(this.timer);
    await this.tickDone;
  }
}
