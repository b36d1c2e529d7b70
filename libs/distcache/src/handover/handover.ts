import type { TokenBucketParams } from '@sluice/tokenbucket';
import type { OpResult } from '../transport/ops.js';
import type { BucketTable, BucketSnapshot } from '../store/bucket-table.js';
import { Ring } from '../ring/ring.js';
import type { CacheCounters } from '../cache-counters.js';
import { isTimeout, type PeerCalls } from '../transport/peer-calls.js';
import type { Pulled } from './take-outcome.js';

/** What the handover uses of its member (the id and the ring change: at start, on membership changes). */
export interface HandoverHost {
  readonly table: BucketTable;
  readonly calls: Pick<PeerCalls, 'call'>;
  readonly counts: CacheCounters;
  readonly replicaCount: number;
  readonly ownerTimeoutMs: number;
  /** How long after a ring change a key's state is pulled from its previous owner. */
  readonly windowMs: number;
  id(): string;
  ring(): Ring;
  now(): number;
}

/** The answer to a pull by a member that holds no state of the key and would not have held it. */
export const NOT_PREVIOUS_OWNER = 'not the previous owner';

/** No replica to confirm a take (no array per local take). */
const NO_CONFIRMATIONS: readonly Promise<OpResult>[] = Object.freeze([]);

/**
 * Bucket state moving between members: copies to the replicas, handover when
 * the ring changes (sent by the old owner, or pulled by the new one within the
 * window), and the answers to the pulls of other members.
 */
export class Handover {
  private readonly pulls = new Map<string, Promise<Pulled>>();
  /**
   * States this member handed over lately, by key (for the window): a pull
   * that arrives before the handover itself (another connection, a busy
   * member) is answered with it, not with "nothing here", which would start
   * the bucket full on the new owner.
   */
  private readonly handed = new Map<string, { s: BucketSnapshot; atMs: number }>();
  /** The ring without one member, by member (for answering pulls), until the ring changes. */
  private readonly ringsWithout = new Map<string, Ring>();
  private ringChangedMs = -Infinity;

  constructor(private readonly host: HandoverHost) {}

  /** The ring is about to change: the pull window starts now. */
  ringChanged(): void {
    this.ringsWithout.clear();
    this.ringChangedMs = this.host.now();
    this.forgetHanded(this.ringChangedMs);
  }

  /**
   * When the ring changed lately, fetch a key's state from the member that
   * owns it in the ring without this one (the previous owner after a join;
   * nobody has it after a death, and replicas were promoted). Resolves to that
   * member's id when it still owns the key in its own view (its ring has not
   * caught up), or why the pull failed.
   */
  pullFromPrevious(key: string, params: TokenBucketParams): Promise<Pulled> | undefined {
    const { host } = this;
    if (host.now() - this.ringChangedMs > host.windowMs) return undefined;
    const before = this.ringWithout(host.id()).owner(key);
    if (before === undefined || before === host.id()) return undefined;
    const pending = this.pulls.get(key);
    if (pending !== undefined) return pending;
    const p = host.calls.call(before, { o: 'pull', k: key }, host.ownerTimeoutMs)
      .then((r): Pulled => {
        // not the previous owner in its own view either (the rings disagree): the state may be on a third member
        if ('err' in r) return { failed: 'error' };
        if ('keep' in r && r.keep) return { holder: before };
        if ('s' in r && r.s !== null) {
          host.table.adopt(key, r.s, params, host.now());
          host.counts.handover('received');
        }
        return {};
      })
      .catch((e: unknown): Pulled => ({ failed: isTimeout(e) ? 'timeout' : 'error' }))
      .finally(() => this.pulls.delete(key));
    this.pulls.set(key, p);
    return p;
  }

  /** Send a key's state to its replicas; answers their confirmations. */
  replicate(key: string, params: TokenBucketParams): readonly Promise<OpResult>[] {
    const { host } = this;
    if (host.replicaCount <= 1) return NO_CONFIRMATIONS;
    const replicas = this.ownersOf(key).slice(1);
    if (replicas.length === 0) return NO_CONFIRMATIONS;
    const s = host.table.snapshot(key, host.now());
    if (s === undefined) return NO_CONFIRMATIONS;
    return replicas.map((r) => host.calls.call(r, { o: 'replicate', k: key, s, p: params }, host.ownerTimeoutMs).catch((e: unknown) => ({ err: String(e) })));
  }

  /** After a ring change: promote replicas this member now owns, hand over what it no longer owns, drop what it no longer holds. */
  rehome(): void {
    const { host } = this;
    const { table } = host;
    for (const key of [...table.keys()]) {
      const owners = this.ownersOf(key);
      const role = table.role(key);
      const params = table.params(key);
      if (params === undefined) continue;
      if (owners[0] === host.id()) {
        if (role === 'replica') {
          table.setRole(key, 'owner');
          host.counts.handover('promoted');
        }
        this.replicate(key, params);
      } else if (role === 'owner') {
        const s = table.snapshot(key, host.now());
        const owner = owners[0];
        if (s !== undefined && owner !== undefined) {
          host.calls.call(owner, { o: 'handover', k: key, s, p: params }, 1000).catch(() => undefined);
          host.counts.handover('sent');
          this.handed.set(key, { s, atMs: host.now() });
        }
        if (owners.includes(host.id())) table.setRole(key, 'replica');
        else table.delete(key);
      } else if (!owners.includes(host.id())) {
        table.delete(key);
      }
    }
  }

  /** A key's state handed over by its previous owner. */
  receive(key: string, s: BucketSnapshot, params: TokenBucketParams, now: number): OpResult {
    this.host.table.adopt(key, s, params, now);
    this.host.counts.handover('received');
    return { done: true };
  }

  /**
   * Another member pulls a key's state: keep it while this member still owns
   * the key, else give it up (or what was handed over lately: the handover
   * itself may not have arrived yet; a copy met twice keeps the fewer tokens).
   * Holding none, "nothing here" only when this member would own the key
   * without the key's owner in its ring (it would have held the state); else
   * the rings disagree (one of them has not caught up) and the state may be
   * on a third member: an error, so the puller does not start the key full.
   */
  servePull(key: string, now: number): OpResult {
    const { host } = this;
    const owner = host.ring().owner(key);
    if (owner === host.id()) return { s: null, keep: true };
    const s = host.table.snapshot(key, now) ?? null;
    if (s !== null) {
      if (this.ownersOf(key).includes(host.id())) host.table.setRole(key, 'replica');
      else host.table.delete(key);
      host.counts.handover('sent');
      return { s };
    }
    const h = this.handed.get(key);
    if (h !== undefined && now - h.atMs <= host.windowMs) return { s: { available: h.s.available, fillAgoMs: h.s.fillAgoMs + Math.max(0, now - h.atMs) } };
    if (owner === undefined || this.ringWithout(owner).owner(key) === host.id()) return { s: null };
    return { err: NOT_PREVIOUS_OWNER };
  }

  /** Drops the handed-over states older than the window. */
  private forgetHanded(now: number): void {
    for (const [k, h] of this.handed) if (now - h.atMs > this.host.windowMs) this.handed.delete(k);
  }

  private ownersOf(key: string): string[] {
    return this.host.ring().owners(key, this.host.replicaCount);
  }

  private ringWithout(member: string): Ring {
    let r = this.ringsWithout.get(member);
    if (r === undefined) {
      r = new Ring(this.host.ring().members.filter((m) => m !== member));
      this.ringsWithout.set(member, r);
    }
    return r;
  }
}
