// Policy resources in the cluster of the current kubeconfig (`--kube`): apply with kubectl apply's
// semantics, delete, list. The controller's Policy watcher compiles what is applied here.
import * as k8s from '@kubernetes/client-node';
import { CliError, UsageError } from '../errors.js';
import type { PolicyDocument } from '../policy-file.js';
import { applyPatch, LAST_APPLIED, withLastApplied } from './apply-patch.js';

const GROUP = 'sluice.dev';
const VERSION = 'v1alpha1';
const PLURAL = 'policies';

export interface KubeOptions {
  /** A kubeconfig context other than the current one. */
  context?: string;
  /** The namespace; default: the context's, else `default`. */
  namespace?: string;
}

/** A Policy resource as listed. */
export interface PolicyResourceItem {
  metadata?: { name?: string; namespace?: string; creationTimestamp?: string };
  status?: { phase?: string; status?: string; message?: string; hash?: string };
}

/** The status code of a failed API call, and its Status message. */
function statusOf(err: unknown): { code?: number; message: string } {
  const e = err as { code?: unknown; body?: unknown; message?: unknown };
  const code = typeof e.code === 'number' ? e.code : undefined;
  let message = typeof e.message === 'string' ? e.message.split('\n')[0] ?? '' : String(err);
  try {
    const body = typeof e.body === 'string' ? JSON.parse(e.body) as { message?: string } : e.body as { message?: string } | undefined;
    if (typeof body?.message === 'string') message = body.message;
  } catch { /* the first line of the error */ }
  const cause = (err as { cause?: { code?: string } }).cause?.code ?? (err as { code?: unknown }).code;
  if (code === undefined && typeof cause === 'string') message = `${cause} (${message})`;
  return { ...(code !== undefined ? { code } : {}), message };
}

export class KubePolicies {
  private readonly api: k8s.CustomObjectsApi;
  readonly namespace: string;
  private readonly server: string;

  constructor(opts: KubeOptions) {
    const kc = new k8s.KubeConfig();
    try {
      kc.loadFromDefault();
    } catch (err) {
      throw new CliError(`cannot read the kubeconfig: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`);
    }
    if (opts.context !== undefined) {
      if (kc.getContextObject(opts.context) === null) throw new UsageError(`--context ${JSON.stringify(opts.context)}: no such context in the kubeconfig (there are ${kc.getContexts().map((c) => c.name).join(', ') || 'none'})`);
      kc.setCurrentContext(opts.context);
    }
    const cluster = kc.getCurrentCluster();
    if (cluster === null) throw new CliError('the kubeconfig has no current cluster (set KUBECONFIG or use --context)');
    this.server = cluster.server;
    this.namespace = opts.namespace ?? kc.getContextObject(kc.getCurrentContext())?.namespace ?? 'default';
    this.api = kc.makeApiClient(k8s.CustomObjectsApi);
  }

  private fail(what: string, err: unknown): never {
    const s = statusOf(err);
    if (s.code === 404 && /the server could not find the requested resource|404 page not found/i.test(s.message)) {
      throw new CliError(`${what}: the cluster at ${this.server} has no Policy resources (the CRD policies.sluice.dev is not installed)`);
    }
    throw new CliError(`${what}: ${s.message}${s.code !== undefined ? ` (HTTP ${s.code})` : ` (the cluster at ${this.server})`}`);
  }

  /** Creates the Policy, or patches it from its last applied configuration; answers `created`, `configured` or `unchanged`. */
  async apply(d: PolicyDocument): Promise<'created' | 'configured' | 'unchanged'> {
    const namespace = d.namespace ?? this.namespace;
    const desired = withLastApplied({
      apiVersion: `${GROUP}/${VERSION}`, kind: 'Policy',
      metadata: { name: d.name, namespace, ...(d.labels !== undefined ? { labels: d.labels } : {}), ...(d.annotations !== undefined ? { annotations: d.annotations } : {}) },
      spec: d.spec,
      ...(d.dynamicConfig !== undefined ? { dynamicConfig: d.dynamicConfig } : {}),
    });
    const ref = { group: GROUP, version: VERSION, namespace, plural: PLURAL, name: d.name };
    let live: { metadata?: { annotations?: Record<string, string> } } | undefined;
    try {
      live = await this.api.getNamespacedCustomObject(ref) as typeof live;
    } catch (err) {
      if (statusOf(err).code !== 404 || /could not find the requested resource/i.test(statusOf(err).message)) this.fail(`policy ${namespace}/${d.name}`, err);
    }
    if (live === undefined) {
      try {
        await this.api.createNamespacedCustomObject({ group: GROUP, version: VERSION, namespace, plural: PLURAL, body: desired });
      } catch (err) {
        this.fail(`policy ${namespace}/${d.name}`, err);
      }
      return 'created';
    }
    const lastText = live.metadata?.annotations?.[LAST_APPLIED];
    let last: unknown;
    try { last = lastText === undefined ? undefined : JSON.parse(lastText); } catch { last = undefined; }
    if (lastText === (desired.metadata as { annotations: Record<string, string> }).annotations[LAST_APPLIED]) return 'unchanged';
    try {
      await this.api.patchNamespacedCustomObject({ ...ref, body: applyPatch(last === undefined ? undefined : { ...last as object }, desired) },
        k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch));
    } catch (err) {
      this.fail(`policy ${namespace}/${d.name}`, err);
    }
    return 'configured';
  }

  async delete(name: string): Promise<void> {
    try {
      await this.api.deleteNamespacedCustomObject({ group: GROUP, version: VERSION, namespace: this.namespace, plural: PLURAL, name });
    } catch (err) {
      this.fail(`policy ${this.namespace}/${name}`, err);
    }
  }

  /** The Policies of the namespace, or of every namespace. */
  async list(allNamespaces: boolean): Promise<PolicyResourceItem[]> {
    try {
      const r = allNamespaces
        ? await this.api.listClusterCustomObject({ group: GROUP, version: VERSION, plural: PLURAL })
        : await this.api.listNamespacedCustomObject({ group: GROUP, version: VERSION, namespace: this.namespace, plural: PLURAL });
      return ((r as { items?: PolicyResourceItem[] }).items ?? []);
    } catch (err) {
      return this.fail('listing policies', err);
    }
  }
}
