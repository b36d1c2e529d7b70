import { onceShutdown, type Lifecycle } from '@sluice/lifecycle';
import { Backoff } from '@sluice/clients';
import { checkPublishedComponent, checkPublishedDecision, compilePublishedValidators, type PublishedComponent, type PublishedDecision } from '@sluice/policies';
import type { ControllerEtcd, PrefixWatchHandler, TxnOp, WatchRevisions } from './controller-etcd.js';
import type { ControllerMetrics } from './metrics.js';
import type { Logger } from '@sluice/telemetry/logger';

export type PublicationKind = 'config' | 'decision';

/** Delays between failed flushes: 250 ms doubling to 5 s, ±20 %. */
const RETRY_BACKOFF = { base_delay: '250ms', multiplier: 2, jitter: 0.2, max_delay: '5s' };
/** etcd's default `--max-txn-ops`: the most ops one transaction may hold. */
export const MAX_TXN_OPS = 128;

/** What etcd holds at a key as far as known, and the revision that says so. */
interface Seen { value: string | undefined; rev: bigint }

/** `<ns>/<config|decisions>/<group>/<policy>/<component>` → `<policy>` (undefined for a key of another shape). */
function policyOf(key: string): string | undefined {
  const parts = key.split('/');
  return parts.length >= 5 ? parts[3] : undefined;
}

/**
 * The keys the controller publishes for the agents under `<ns>/config/` and `<ns>/decisions/`:
 * plain keys, on no lease, so that what agents enforce outlives the controller (a crash, a stall,
 * a restart). The controller owns both prefixes, level-triggered: callers set the desired value of
 * a key (or claim it: a decision not computed yet keeps what etcd holds) and remove keys; one flush
 * at a time writes what differs from what etcd holds, each policy's writes in one transaction (in
 * transactions of at most MAX_TXN_OPS ops when it needs more). Both prefixes are watched: a key
 * changed or deleted by anyone else is written back, and a key no policy owns is deleted (keys
 * written by an earlier controller only after `collect()`, once every source of policies was read).
 * A failed write is retried with backoff, and at once when etcd is connected again.
 */
export class Publisher implements Lifecycle {
  private readonly desired = new Map<string, { value: string | undefined; kind: PublicationKind }>();
  private readonly seen = new Map<string, Seen>();
  /** Keys this process wrote: it may delete them before `collect()`. */
  private readonly mine = new Set<string>();
  /** The value of each key's last write of this process (a watch event carrying it is no outside change). */
  private readonly lastPut = new Map<string, string | undefined>();
  private collecting = false;
  /** The highest etcd revision recorded per prefix (a read below it means etcd's history went back). */
  private readonly maxRev = new Map<string, bigint>();
  private flushing: Promise<void> | undefined;
  private dirty = false;
  private retryTimer: NodeJS.Timeout | undefined;
  private readonly retry = new Backoff(RETRY_BACKOFF);
  private closed = false;
  private lastErrorMessage: string | undefined;
  private watches: { shutdown(): Promise<void> }[] = [];

  constructor(private readonly etcd: ControllerEtcd, private readonly metrics: ControllerMetrics, private readonly logger?: Logger) {
    compilePublishedValidators();
    etcd.onStateChange((state) => {
      if (state === 'connected') {
        this.retry.reset();
        this.schedule();
      }
    });
  }

  get prefixes(): { config: string; decision: string } {
    return { config: `${this.etcd.namespace}/config/`, decision: `${this.etcd.namespace}/decisions/` };
  }

  /** Watches what etcd holds under both prefixes, to repair differences. */
  async start(): Promise<void> {
    if (this.watches.length > 0 || this.closed) return;
    this.watches = [this.prefixes.config, this.prefixes.decision].map((p) => this.etcd.watchPrefix(p, this.watchHandler(p)));
  }

  /** From now on, keys no policy owns are deleted even when an earlier controller wrote them. */
  collect(): void {
    if (this.collecting) return;
    this.collecting = true;
    this.schedule();
  }

  set(key: string, value: string, kind: PublicationKind): void {
    const cur = this.desired.get(key);
    if (cur !== undefined && cur.value === value) return;
    this.desired.set(key, { value, kind });
    this.schedule();
  }

  /**
   * Publishes a component's configuration at `key` once the published contract's shared validator
   * (the one the agents run on receipt) accepts it; a configuration it refuses is not written and
   * the answer says why (`<key>: <path>: <rule>`). Undefined when set.
   */
  setComponent(key: string, component: PublishedComponent): string | undefined {
    const checked = checkPublishedComponent(component);
    if (!checked.ok) return this.refuse(key, checked.error);
    this.set(key, JSON.stringify(component), 'config');
    return undefined;
  }

  /** Publishes a decision at `key` once the shared validator accepts it; else not written, and the answer says why. */
  setDecision(key: string, decision: PublishedDecision): string | undefined {
    const checked = checkPublishedDecision(decision);
    if (!checked.ok) return this.refuse(key, checked.error);
    this.set(key, JSON.stringify(decision), 'decision');
    return undefined;
  }

  private refuse(key: string, error: string): string {
    const message = `${key}: ${error}`;
    this.logger?.warn('value refused by the published contract; not written (the agents would refuse it)', { key, error });
    return message;
  }

  /** Owns `key` without a value yet: what etcd holds there is neither changed nor deleted. */
  claim(key: string, kind: PublicationKind): void {
    if (!this.desired.has(key)) this.desired.set(key, { value: undefined, kind });
  }

  remove(key: string): void {
    if (!this.desired.delete(key)) return;
    this.schedule();
  }

  /** The desired value of a key (what is published, or about to be). */
  value(key: string): string | undefined {
    return this.desired.get(key)?.value;
  }

  /** True when every desired key is written and nothing is left to delete. */
  synced(): boolean {
    if (this.flushing !== undefined || this.dirty) return false;
    return this.pending().length === 0;
  }

  lastError(): string | undefined {
    return this.lastErrorMessage;
  }

  /** Resolves when the current flush (and any it scheduled) ended. */
  async idle(): Promise<void> {
    while (this.flushing !== undefined) await this.flushing;
  }

  /** Stops watching and retrying; the published keys stay in etcd for the agents. */
  readonly shutdown = onceShutdown('publisher', async () => {
    this.closed = true;
    await Promise.all(this.watches.map((w) => w.shutdown()));
    this.watches = [];
    if (this.retryTimer !== undefined) clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
  });

  private recordRev(key: string, rev: bigint): void {
    const prefix = this.kindOf(key) === 'config' ? this.prefixes.config : this.prefixes.decision;
    if (rev > (this.maxRev.get(prefix) ?? 0n)) this.maxRev.set(prefix, rev);
  }

  private kindOf(key: string): PublicationKind {
    return key.startsWith(this.prefixes.config) ? 'config' : 'decision';
  }

  private watchHandler(prefix: string): PrefixWatchHandler {
    return {
      reset: (entries: Map<string, string>, revision?: WatchRevisions) => {
        const at = BigInt(revision?.revision ?? '0');
        if (at > 0n && at < (this.maxRev.get(prefix) ?? 0n)) {
          // etcd's history went back (a new or restored etcd): what was recorded of it says nothing now.
          this.logger?.warn('etcd revision went back; publishing every key again', { prefix, revision: String(at), before: String(this.maxRev.get(prefix)) });
          for (const key of [...this.seen.keys()]) if (key.startsWith(prefix)) this.seen.delete(key);
          for (const key of [...this.lastPut.keys()]) if (key.startsWith(prefix)) this.lastPut.delete(key);
          this.maxRev.set(prefix, at);
        }
        for (const [key, value] of entries) this.observe(key, value, BigInt(revision?.modRevisions.get(key) ?? at));
        for (const key of [...this.seen.keys()]) if (key.startsWith(prefix) && !entries.has(key)) this.observe(key, undefined, at);
        // Level-triggered: after every full read, whatever differs is written.
        this.schedule();
      },
      put: (key, value, revision) => this.observe(key, value, BigInt(revision ?? '0')),
      delete: (key, revision) => this.observe(key, undefined, BigInt(revision ?? '0')),
    };
  }

  /** What etcd holds at `key` as of `rev`; a difference from the desired state is corrected. */
  private observe(key: string, value: string | undefined, rev: bigint): void {
    const cur = this.seen.get(key);
    // An older state (a stale read, the echo of an own write already recorded) changes nothing.
    if (cur !== undefined && cur.rev >= rev && rev > 0n) return;
    this.seen.set(key, { value, rev });
    this.recordRev(key, rev);
    const want = this.desired.get(key);
    if (want !== undefined && want.value === undefined) return; // claimed: etcd's value stands
    const wanted = want?.value;
    if (value === wanted) return;
    if (this.lastPut.has(key) && this.lastPut.get(key) === value) {
      this.schedule(); // an own write overtaken by a later desired value: the flush writes that
      return;
    }
    if (want === undefined) {
      // A key no policy owns: deleted by the flush (and counted then) once collecting, or when this process wrote it.
      if (this.collecting || this.mine.has(key)) this.schedule();
      return;
    }
    const reason = value === undefined ? 'deleted' : 'changed';
    this.metrics.publicationRepairs.inc({ kind: this.kindOf(key), reason });
    this.logger?.warn('published key differs from what the controller wants; correcting it', { key, reason });
    this.schedule();
  }

  private schedule(): void {
    if (this.closed) return;
    this.dirty = true;
    if (this.flushing !== undefined) return;
    // After the current task's other changes (a policy's keys set together go in one transaction).
    this.flushing = Promise.resolve().then(() => this.flushLoop()).finally(() => {
      this.flushing = undefined;
      // A change that came after the loop's last check and before this point is not lost.
      if (this.dirty && this.retryTimer === undefined) this.schedule();
    });
  }

  private async flushLoop(): Promise<void> {
    while (this.dirty && !this.closed) {
      this.dirty = false;
      if (this.retryTimer !== undefined) { clearTimeout(this.retryTimer); this.retryTimer = undefined; }
      const failed = await this.flushOnce();
      if (failed) {
        this.retryTimer = setTimeout(() => { this.retryTimer = undefined; this.schedule(); }, this.retry.next());
        this.retryTimer.unref();
        return;
      }
      this.retry.reset();
      this.lastErrorMessage = undefined;
    }
  }

  /** The writes that bring etcd to the desired state. */
  private pending(): TxnOp[] {
    const ops: TxnOp[] = [];
    for (const [key, d] of this.desired) {
      if (d.value !== undefined && this.seen.get(key)?.value !== d.value) ops.push({ put: key, value: d.value });
    }
    for (const [key, s] of this.seen) {
      if (s.value === undefined || this.desired.has(key)) continue;
      if (this.collecting || this.mine.has(key)) ops.push({ delete: key });
    }
    return ops;
  }

  /** One pass: each policy's writes in one transaction (chunks of MAX_TXN_OPS when more); true when one failed. */
  private async flushOnce(): Promise<boolean> {
    const byPolicy = new Map<string, TxnOp[]>();
    for (const op of this.pending()) {
      const policy = policyOf('put' in op ? op.put : op.delete) ?? '';
      const list = byPolicy.get(policy) ?? [];
      list.push(op);
      byPolicy.set(policy, list);
    }
    for (const [, ops] of [...byPolicy].sort(([a], [b]) => a.localeCompare(b))) {
      // Configurations first: an agent enforces a component once its configuration is complete.
      ops.sort((a, b) => Number('put' in b && this.kindOf(b.put) === 'config') - Number('put' in a && this.kindOf(a.put) === 'config'));
      for (let i = 0; i < ops.length; i += MAX_TXN_OPS) {
        const chunk = ops.slice(i, i + MAX_TXN_OPS);
        for (const op of chunk) this.lastPut.set('put' in op ? op.put : op.delete, 'put' in op ? op.value : undefined);
        let rev: bigint;
        try {
          rev = BigInt(await this.etcd.commit(chunk));
        } catch (err) {
          // etcd is likely away: stop this pass (each call would wait for its own timeout) and retry later.
          this.failure(chunk, err);
          return true;
        }
        for (const op of chunk) this.committed(op, rev);
        if (this.closed) return false;
      }
    }
    return false;
  }

  private committed(op: TxnOp, rev: bigint): void {
    const key = 'put' in op ? op.put : op.delete;
    const cur = this.seen.get(key);
    if (cur === undefined || cur.rev < rev) this.seen.set(key, { value: 'put' in op ? op.value : undefined, rev });
    this.recordRev(key, rev);
    if ('put' in op) this.mine.add(key);
    else {
      if (!this.mine.has(key)) {
        this.metrics.publicationRepairs.inc({ kind: this.kindOf(key), reason: 'unowned' });
        this.logger?.info('deleted a published key no policy owns', { key });
      }
      this.mine.delete(key);
      this.lastPut.delete(key);
    }
    this.metrics.publications.inc({ kind: this.kindOf(key), operation: 'put' in op ? 'put' : 'delete' });
  }

  private failure(chunk: TxnOp[], err: unknown): void {
    const message = err instanceof Error ? err.message : String(err);
    const first = chunk[0]!;
    const key = 'put' in first ? first.put : first.delete;
    const operation = 'put' in first ? 'put' : 'delete';
    this.metrics.publicationFailures.inc({ kind: this.kindOf(key), operation });
    if (this.lastErrorMessage === undefined) this.logger?.warn('publication to etcd failed; retrying', { key, ops: chunk.length, error: message });
    this.lastErrorMessage = `${operation} ${key}${chunk.length > 1 ? ` (and ${chunk.length - 1} more in one transaction)` : ''}: ${message}`;
  }
}
