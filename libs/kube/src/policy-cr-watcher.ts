import { onceShutdown, type Lifecycle } from '@sluice/lifecycle';
// The Policy custom resource watcher (`policies.cr_watcher.enabled`): a shared informer on
// policies.sluice.dev/v1alpha1 in every namespace feeds the controller's PolicySink.
// Level-triggered: every change and every complete list marks resources dirty, and one worker
// brings each to its desired state: the sink holds the spec of every Policy that exists (and
// nothing else the watcher put there), and each Policy's status says how it went
// (`uploading`, then `uploaded` or `failed` with the message, observedGeneration, a Ready
// condition), with a Kubernetes Event (PolicyUploaded / PolicyFailed) when the outcome changes.
// A spec already applied is not applied again, and a status equal to the one stored is not
// written, so the watcher's own writes do not make it loop.
import { eventMessage, eventName } from './event-name.js';
import { hostname } from 'node:os';
import { Backoff, type BackoffConfig } from '@sluice/clients';
import { Reconciler } from '@sluice/jobs';
import { KUBE_RETRY_BACKOFF, silentLogger } from './api-state.js';
import { k8s } from './k8s.js';
import type { KubeClient } from './kube-client.js';
import { desiredStatus, kubeTime, REASONS, sameStatus, statusPatch, type PolicyPhase, type PolicyStatus } from './policy-status.js';
import type { SharedInformer } from './shared-informer.js';
import type { Logger } from '@sluice/telemetry/logger';

export type PolicyApplyResult = { ok: true; hash: string; ignored: string[] } | { ok: false; message: string };

/** What the controller provides (the same shape as @sluice/controller's PolicySink). */
export interface PolicySink {
  /** `dynamicConfig`: the resource's top-level `dynamicConfig`, when it has one. */
  apply(name: string, spec: unknown, dynamicConfig?: unknown): Promise<PolicyApplyResult>;
  remove(name: string): Promise<void>;
  /** The names the sink holds from custom resources, if it can tell: those without a Policy are removed at the first list. */
  names?(): Promise<string[]>;
  /** Called once, when every resource of the first complete list was applied (or refused). */
  listed?(): void;
}

export interface PolicyResource extends k8s.KubernetesObject {
  spec?: unknown;
  /** Values by the keys the policy's components name (`config_key`, `dry_run_config_key`, …). */
  dynamicConfig?: unknown;
  status?: PolicyStatus;
}

export interface PolicyCrWatcherOptions {
  client: KubeClient;
  sink: PolicySink;
  logger?: Logger;
  /** Watch one namespace only; default every namespace. */
  namespace?: string;
  /** `source.component` and `reportingComponent` of Events; default `sluice-controller`. */
  component?: string;
  /** `reportingInstance` of Events; default the host name. */
  instance?: string;
  backoff?: Partial<BackoffConfig>;
}

export const POLICY_GROUP = 'sluice.dev';
export const POLICY_VERSION = 'v1alpha1';
export const POLICY_PLURAL = 'policies';
export const POLICY_KIND = 'Policy';

interface Applied {
  /** `<namespace>/<name>` of the Policy it came from. */
  key: string;
  uid: string;
  spec: string;
  result: PolicyApplyResult;
  /** The outcome differs from what the resource said before the apply, and its Event is not recorded yet. */
  eventDue: boolean;
}

function keyOf(o: k8s.KubernetesObject): string {
  return `${o.metadata?.namespace ?? ''}/${o.metadata?.name ?? ''}`;
}

function outcome(result: PolicyApplyResult): { phase: PolicyPhase; message: string } {
  if (!result.ok) return { phase: 'failed', message: result.message };
  return { phase: 'uploaded', message: result.ignored.length ? `ignored: ${result.ignored.join(', ')}` : '' };
}

export class PolicyCrWatcher implements Lifecycle {
  readonly name = 'policy-cr-watcher';
  private readonly informer: SharedInformer<PolicyResource>;
  private readonly applied = new Map<string, Applied>();
  private queue: Reconciler<string>;
  private unsubscribe: (() => void) | undefined;
  private stopped = true;
  private prunedSink = false;
  private readonly logger: Logger;
  private readonly counters = { applies: 0, removes: 0, statusWrites: 0, events: 0, errors: 0 };

  constructor(private readonly opts: PolicyCrWatcherOptions) {
    this.logger = opts.logger ?? silentLogger;
    this.queue = this.newQueue();
    const custom = opts.client.api(k8s.CustomObjectsApi);
    const ns = opts.namespace;
    const path = ns ? `/apis/${POLICY_GROUP}/${POLICY_VERSION}/namespaces/${ns}/${POLICY_PLURAL}` : `/apis/${POLICY_GROUP}/${POLICY_VERSION}/${POLICY_PLURAL}`;
    this.informer = opts.client.informer<PolicyResource>({ path }, (sel) => {
      const base = { group: POLICY_GROUP, version: POLICY_VERSION, plural: POLICY_PLURAL, labelSelector: sel.labelSelector, fieldSelector: sel.fieldSelector };
      const req = ns ? custom.listNamespacedCustomObject({ ...base, namespace: ns }, opts.client.requestOptions()) : custom.listClusterCustomObject(base, opts.client.requestOptions());
      return req as Promise<k8s.KubernetesListObject<PolicyResource>>;
    });
  }

  /** The work queue of the watcher's resources (a new one at each start). */
  private newQueue(): Reconciler<string> {
    return new Reconciler<string>({
      reconcile: (key) => this.reconcile(key),
      retryDelays: () => new Backoff({ ...KUBE_RETRY_BACKOFF, ...this.opts.backoff }),
      onError: (key, err, retryMs) => {
        this.counters.errors++;
        this.logger.warn('Policy custom resource not reconciled; retrying', { policy: key, error: (err as Error).message, retry_ms: retryMs });
      },
    });
  }

  /** Counts of what the watcher did, for metrics and tests. */
  stats(): Readonly<typeof this.counters> {
    return { ...this.counters };
  }

  private listedOnce = false;

  async start(): Promise<void> {
    if (!this.stopped) return;
    this.stopped = false;
    this.queue = this.newQueue();
    this.unsubscribe = this.informer.subscribe({
      add: (o) => this.mark(keyOf(o)),
      update: (o) => this.mark(keyOf(o)),
      delete: (o) => this.mark(keyOf(o)),
      synced: (all) => {
        for (const o of all) this.mark(keyOf(o));
        for (const a of this.applied.values()) this.mark(a.key);
        void this.pruneSink(all).then(() => this.idle()).then(() => {
          if (this.listedOnce || this.stopped) return;
          this.listedOnce = true;
          this.opts.sink.listed?.();
        });
      },
    });
    this.informer.start();
  }

  readonly shutdown = onceShutdown('Policy watcher', async (deadlineMs) => {
    this.stopped = true;
    this.unsubscribe?.();
    await this.queue.shutdown({ deadlineMs });
  });

  /** Resolves when no resource is waiting to be reconciled (for tests). */
  idle(): Promise<void> {
    return this.queue.idle();
  }

  private mark(key: string): void {
    if (this.stopped) return;
    this.queue.mark(key);
  }

  /** At the first complete list: sink entries from custom resources that no longer exist go. */
  private async pruneSink(all: PolicyResource[]): Promise<void> {
    if (this.prunedSink || !this.opts.sink.names) return;
    this.prunedSink = true;
    const present = new Set(all.map((o) => o.metadata?.name ?? ''));
    try {
      for (const n of await this.opts.sink.names()) {
        if (present.has(n) || this.applied.has(n)) continue;
        await this.opts.sink.remove(n);
        this.counters.removes++;
        this.logger.info('removed a policy whose custom resource is gone', { policy: n });
      }
    } catch (err) {
      this.prunedSink = false;
      this.logger.warn('could not list the policies held from custom resources', { error: (err as Error).message });
    }
  }

  private async reconcile(key: string): Promise<void> {
    const slash = key.indexOf('/');
    const namespace = key.slice(0, slash);
    const name = key.slice(slash + 1);
    const cr = this.informer.get(name, namespace);
    if (!cr || cr.metadata?.deletionTimestamp) {
      for (const [sinkName, a] of [...this.applied]) {
        if (a.key !== key) continue;
        await this.opts.sink.remove(sinkName);
        this.applied.delete(sinkName);
        this.counters.removes++;
        this.logger.info('policy removed with its custom resource', { policy: sinkName, namespace });
      }
      return;
    }
    const uid = cr.metadata?.uid ?? '';
    const generation = cr.metadata?.generation ?? 0;
    const owner = this.applied.get(name);
    if (owner && owner.key !== key) {
      const [ons, oname] = [owner.key.slice(0, owner.key.indexOf('/')), owner.key.slice(owner.key.indexOf('/') + 1)];
      if (this.informer.get(oname, ons)) {
        await this.finish(cr, 'failed', `a Policy named "${name}" is already applied from namespace "${ons}"; policy names must be unique across namespaces`, undefined);
        return;
      }
    }
    // A change of the dynamic configuration alone is applied too (the policy is not published again).
    const spec = JSON.stringify(cr.dynamicConfig === undefined ? cr.spec ?? null : { spec: cr.spec ?? null, dynamicConfig: cr.dynamicConfig });
    let entry: Applied;
    let current = cr;
    if (owner && owner.key === key && owner.uid === uid && owner.spec === spec) {
      entry = owner;
    } else {
      const before = cr.status;
      current = await this.writeStatus(cr, desiredStatus(cr.status, 'uploading', '', generation, undefined)) ?? cr;
      const result = await this.opts.sink.apply(name, cr.spec ?? null, cr.dynamicConfig);
      this.counters.applies++;
      const { phase, message } = outcome(result);
      const eventDue = before?.status !== phase || (before?.message ?? '') !== message || before?.observedGeneration !== generation;
      entry = { key, uid, spec, result, eventDue };
      this.applied.set(name, entry);
    }
    const { phase, message } = outcome(entry.result);
    // No `hash` in the status: the CRD's status schema does not declare it, so a real API server
    // would prune it and every comparison would differ (a write loop).
    await this.writeStatus(current, desiredStatus(current.status, phase, message, generation, undefined));
    if (entry.eventDue) {
      entry.eventDue = false;
      await this.event(current, phase, message);
    }
  }

  private async finish(cr: PolicyResource, phase: PolicyPhase, message: string, hash: string | undefined): Promise<void> {
    const generation = cr.metadata?.generation ?? 0;
    const desired = desiredStatus(cr.status, phase, message, generation, hash);
    if (await this.writeStatus(cr, desired)) await this.event(cr, phase, message);
  }

  /** Writes `desired` when it differs from the stored status; returns the updated resource, or undefined when nothing was written. */
  private async writeStatus(cr: PolicyResource, desired: PolicyStatus): Promise<PolicyResource | undefined> {
    if (sameStatus(cr.status, desired)) return undefined;
    const custom = this.opts.client.api(k8s.CustomObjectsApi);
    const options = this.opts.client.requestOptions({ 'Content-Type': k8s.PatchStrategy.MergePatch });
    const updated = (await custom.patchNamespacedCustomObjectStatus({
      group: POLICY_GROUP,
      version: POLICY_VERSION,
      plural: POLICY_PLURAL,
      namespace: cr.metadata?.namespace ?? '',
      name: cr.metadata?.name ?? '',
      body: statusPatch(cr.status, desired),
    }, options)) as PolicyResource;
    this.counters.statusWrites++;
    return updated;
  }

  private async event(cr: PolicyResource, phase: PolicyPhase, message: string): Promise<void> {
    if (phase === 'uploading') return;
    const now = kubeTime();
    const ns = cr.metadata?.namespace ?? 'default';
    const component = this.opts.component ?? 'sluice-controller';
    const body: k8s.CoreV1Event = {
      metadata: { name: eventName(cr.metadata?.name ?? 'policy', `${Date.now().toString(16)}${Math.floor(Math.random() * 0xfff).toString(16)}`), namespace: ns },
      involvedObject: { apiVersion: `${POLICY_GROUP}/${POLICY_VERSION}`, kind: POLICY_KIND, name: cr.metadata?.name, namespace: ns, uid: cr.metadata?.uid, resourceVersion: cr.metadata?.resourceVersion },
      reason: REASONS[phase],
      message: eventMessage(phase === 'uploaded' ? `policy uploaded${message ? ` (${message})` : ''}` : `policy failed: ${message}`),
      type: phase === 'uploaded' ? 'Normal' : 'Warning',
      source: { component },
      reportingComponent: component,
      reportingInstance: this.opts.instance ?? hostname(),
      firstTimestamp: new Date(now),
      lastTimestamp: new Date(now),
      count: 1,
    };
    try {
      await this.opts.client.api(k8s.CoreV1Api).createNamespacedEvent({ namespace: ns, body }, this.opts.client.requestOptions());
      this.counters.events++;
    } catch (err) {
      // An Event is informative: losing one must not block the status.
      this.logger.warn('could not record a Kubernetes Event', { policy: keyOf(cr), reason: REASONS[phase], error: (err as Error).message });
    }
  }
}
