import { onceShutdown, type Lifecycle } from '@sluice/lifecycle';
import { GrpcCode, NotFoundError, SluiceError, UnavailableError, ErrorCode } from '@sluice/errors';
import { isPolicyName } from './policy-name.js';
import { storedPolicyKey, type StoredPolicy } from '@sluice/policies';
import type { ControllerEtcd } from './controller-etcd.js';
import { mergePatch } from './merge-patch.js';
import type { ControllerMetrics } from './metrics.js';
import { PolicyRejectedError } from './policy-errors.js';
import type { PolicyRegistry, PolicyView } from './policy-registry.js';
import type { CompiledPolicy } from './policy-language.js';
import type { Logger } from '@sluice/telemetry/logger';

/** How long an API write waits for etcd before answering UNAVAILABLE. */
export const STORE_WRITE_TIMEOUT_MS = 5000;

/** A policy that Kubernetes manages cannot be changed through the API. */
export class PolicyManagedElsewhereError extends SluiceError {
  constructor(name: string) {
    super(ErrorCode.POLICY_MANAGED_BY_KUBERNETES, `policy ${JSON.stringify(name)} comes from a Policy custom resource: change or delete the resource instead`, {
      grpcCode: GrpcCode.FAILED_PRECONDITION,
    });
    this.name = 'PolicyManagedElsewhereError';
  }
}

/** A merge patch whose policy was written by someone else between its read and its write. */
export class PolicyChangedError extends SluiceError {
  constructor(name: string) {
    super(ErrorCode.POLICY_CHANGED, `policy ${JSON.stringify(name)} was changed by another writer while this patch was applied; nothing was written: read it again and retry`, {
      grpcCode: GrpcCode.ABORTED,
    });
    this.name = 'PolicyChangedError';
  }
}

/** `p`, or UNAVAILABLE when etcd does not answer within STORE_WRITE_TIMEOUT_MS (any failure is UNAVAILABLE). */
export async function withTimeout<T>(p: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new UnavailableError(`${what}: etcd did not answer within ${STORE_WRITE_TIMEOUT_MS} ms`)), STORE_WRITE_TIMEOUT_MS);
  });
  try {
    return await Promise.race([p, timeout]);
  } catch (err) {
    if (err instanceof SluiceError) throw err;
    throw new UnavailableError(`${what}: ${err instanceof Error ? err.message : String(err)}`, ErrorCode.UNAVAILABLE, err);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The policies posted to the API, kept in etcd under `<ns>/policies/<name>` (no lease:
 * they outlive the controller). A write compiles first (a bad policy changes nothing),
 * then stores, then runs. The store is also watched (a full get, then changes, resynced
 * on every break), so the policies come back after a restart and follow edits made by
 * another controller.
 */
export class PolicyStore implements Lifecycle {
  private watch: { shutdown(): Promise<void> } | undefined;
  private synced = false;
  private readonly loadedListeners: (() => void)[] = [];
  /**
   * This store's own writes whose watch events have not come back yet, per name
   * (`put:<hash>` or `delete`). An event that some later own write will follow is
   * stale: applying it would briefly bring back an older version.
   */
  private readonly pending = new Map<string, string[]>();

  /** True when the event `op` for `name` is one of ours with a later own write still to come back. */
  private staleEcho(name: string, op: string): boolean {
    const list = this.pending.get(name);
    if (list === undefined) return false;
    const i = list.indexOf(op);
    if (i < 0) return list.length > 0;
    list.splice(0, i + 1);
    if (list.length === 0) this.pending.delete(name);
    return list.length > 0;
  }

  private expect(name: string, op: string): void {
    const list = this.pending.get(name) ?? [];
    list.push(op);
    // Bounded: a watch that never answers must not grow this without end.
    if (list.length > 16) list.shift();
    this.pending.set(name, list);
  }

  private forget(name: string, op: string): void {
    const list = this.pending.get(name);
    const i = list?.lastIndexOf(op) ?? -1;
    if (list === undefined || i < 0) return;
    list.splice(i, 1);
    if (list.length === 0) this.pending.delete(name);
  }

  constructor(
    private readonly etcd: ControllerEtcd,
    private readonly registry: PolicyRegistry,
    private readonly metrics: ControllerMetrics,
    private readonly logger?: Logger,
  ) {}

  get prefix(): string {
    return `${this.etcd.namespace}/policies/`;
  }

  /** `cb` runs after each full read of the stored policies, once the registry runs what it holds. */
  onLoaded(cb: () => void): void {
    this.loadedListeners.push(cb);
  }

  /** True once the stored policies were read (after start, and after each resync). */
  isSynced(): boolean {
    return this.synced;
  }

  async start(): Promise<void> {
    this.watch = this.etcd.watchPrefix(this.prefix, {
      reset: (entries) => {
        // A full read is the truth: every own write made before it is in it.
        this.pending.clear();
        const wanted = new Map<string, { spec: unknown; compiled?: CompiledPolicy; error?: string }>();
        for (const [key, value] of entries) {
          const e = this.entryOf(key, value);
          if (e !== undefined) wanted.set(e.name, e);
        }
        this.registry.replaceAll('api', wanted);
        this.synced = true;
        this.logger?.info('stored policies loaded', { count: wanted.size });
        void this.registry.reconcile().then(() => { for (const cb of this.loadedListeners) cb(); }, () => undefined);
      },
      put: (key, value) => {
        const e = this.entryOf(key, value);
        if (e === undefined) return;
        if (this.staleEcho(e.name, `put:${e.compiled?.hash ?? ''}`)) return;
        if (e.compiled !== undefined && this.registry.desiredOf('api', e.name)?.hash === e.compiled.hash) return;
        if (e.compiled !== undefined) this.registry.set('api', e.name, e.spec, e.compiled);
        else this.registry.setFailed('api', e.name, e.spec, e.error ?? 'invalid');
        void this.registry.reconcile();
      },
      delete: (key) => {
        const name = key.slice(this.prefix.length);
        if (this.staleEcho(name, 'delete')) return;
        if (this.registry.delete('api', name)) void this.registry.reconcile();
      },
    });
  }

  readonly shutdown = onceShutdown('policy store', async () => {
    await this.watch?.shutdown();
    this.watch = undefined;
  });

  /** A stored entry, compiled; a corrupt or no longer valid one shows as failed. */
  private entryOf(key: string, value: string): { name: string; spec: unknown; compiled?: CompiledPolicy; error?: string } | undefined {
    const name = key.slice(this.prefix.length);
    if (!isPolicyName(name)) {
      // Written into etcd by hand under a name the API refuses: never run.
      this.logger?.warn('stored policy skipped: not a policy name', { key });
      return undefined;
    }
    let stored: Partial<StoredPolicy>;
    try {
      stored = JSON.parse(value) as Partial<StoredPolicy>;
    } catch {
      this.logger?.warn('stored policy is not JSON; ignored', { key });
      return { name, spec: null, error: 'the stored policy is not JSON' };
    }
    try {
      return { name, spec: stored.spec, compiled: this.registry.compile(name, stored.spec) };
    } catch (err) {
      const message = err instanceof PolicyRejectedError ? err.problems.map((p) => `${p.path}: ${p.message}`).join('; ') : String(err);
      this.logger?.warn('stored policy does not compile', { policy: name, error: message });
      return { name, spec: stored.spec, error: message };
    }
  }

  private guardApiOwned(name: string): void {
    if (this.registry.desiredOf('api', name) === undefined && this.registry.desiredOf('kubernetes', name) !== undefined) {
      throw new PolicyManagedElsewhereError(name);
    }
  }

  /**
   * Writes to one policy, one at a time in the order they came: each reads what the one before
   * it left (a merge patch merges into it), and etcd and the registry end in the same order (a
   * DELETE racing a POST leaves both holding what the last answer said).
   */
  private readonly queues = new Map<string, Promise<unknown>>();

  private serial<T>(name: string, fn: () => Promise<T>): Promise<T> {
    const prev = this.queues.get(name) ?? Promise.resolve();
    const run = prev.then(fn, fn);
    const tail = run.catch(() => undefined);
    this.queues.set(name, tail);
    void tail.then(() => { if (this.queues.get(name) === tail) this.queues.delete(name); });
    return run;
  }

  /** Create or replace. */
  upsert(name: string, spec: unknown): Promise<PolicyView> {
    return this.serial(name, () => this.upsertNow(name, spec));
  }

  /** Stores and runs `spec`; with `ifModRevision`, only when the stored policy is still at that revision. */
  private async upsertNow(name: string, spec: unknown, ifModRevision?: string): Promise<PolicyView> {
    this.guardApiOwned(name);
    const compiled = this.registry.compile(name, spec);
    const stored: StoredPolicy = { name, spec, hash: compiled.hash, source: 'api' };
    const op = `put:${compiled.hash}`;
    const key = storedPolicyKey(this.etcd.namespace, name);
    this.expect(name, op);
    try {
      if (ifModRevision === undefined) await withTimeout(this.etcd.put(key, JSON.stringify(stored)), `storing policy ${name}`);
      else if (await withTimeout(this.etcd.commitIf(key, ifModRevision, [{ put: key, value: JSON.stringify(stored) }]), `storing policy ${name}`) === undefined) {
        throw new PolicyChangedError(name);
      }
    } catch (err) {
      this.forget(name, op);
      throw err;
    }
    this.metrics.publications.inc({ kind: 'policy', operation: 'put' });
    this.registry.set('api', name, spec, compiled);
    await this.registry.reconcile();
    return this.registry.view(name)!;
  }

  /** JSON merge patch of a policy posted to the API. */
  /**
   * JSON merge patch of a policy posted to the API: merged into the stored policy as etcd holds it,
   * written only if nobody wrote it since that read (else PolicyChangedError, ABORTED).
   */
  patch(name: string, patch: unknown): Promise<PolicyView> {
    return this.serial(name, async () => {
      this.guardApiOwned(name);
      const key = storedPolicyKey(this.etcd.namespace, name);
      const cur = await withTimeout(this.etcd.getWithRevision(key), `reading policy ${name}`);
      let base: unknown = this.registry.desiredOf('api', name)?.spec;
      if (cur.value === undefined) throw new NotFoundError(`no policy named ${JSON.stringify(name)}`);
      try {
        base = (JSON.parse(cur.value) as Partial<StoredPolicy>).spec ?? base;
      } catch {
        // A stored value that is not JSON: the patch applies to the spec the registry holds.
      }
      return this.upsertNow(name, mergePatch(base, patch), cur.modRevision);
    });
  }

  remove(name: string): Promise<void> {
    return this.serial(name, () => this.removeNow(name));
  }

  private async removeNow(name: string): Promise<void> {
    this.guardApiOwned(name);
    if (this.registry.desiredOf('api', name) === undefined) throw new NotFoundError(`no policy named ${JSON.stringify(name)}`);
    this.expect(name, 'delete');
    try {
      await withTimeout(this.etcd.delete(storedPolicyKey(this.etcd.namespace, name)), `deleting policy ${name}`);
    } catch (err) {
      this.forget(name, 'delete');
      throw err;
    }
    this.metrics.publications.inc({ kind: 'policy', operation: 'delete' });
    this.registry.delete('api', name);
    await this.registry.reconcile();
  }
}
