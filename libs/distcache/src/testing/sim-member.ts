import type { TakeResult, TokenBucketParams } from '@sluice/tokenbucket';
import { BucketTable } from '../store/bucket-table.js';
import { Handover } from '../handover/handover.js';
import { takeOwned } from '../handover/owned-take.js';
import { remoteTakeOf, type RemoteTake, type Unreached } from '../handover/take-outcome.js';
import { PeerOpsHandler } from '../op-handler.js';
import { CacheCounters } from '../cache-counters.js';
import { DistCacheMetrics } from '../metrics.js';
import { Ring } from '../ring/ring.js';
import { isTimeout } from '../transport/peer-calls.js';
import type { StoreCache } from '../store/distributed-store.js';
import type { SimOps } from './sim-ops.js';

export interface SimMemberOptions {
  ownerTimeoutMs?: number;
  /** The handover window (pulls, and counting the takes of a bucket started full). Default 5 s. */
  windowMs?: number;
}

/**
 * A member of the counter cache on a SimOps network: the bucket table,
 * handover, owner-side take and operations handler of a DistCache, with the
 * ring and the members it counts on set by the test (as membership would set
 * them), for DistributedTokenBucketStore. Replica count 1.
 */
export class SimMember implements StoreCache {
  readonly ownerTimeoutMs: number;
  /** Its buckets run on the simulated clock, not the engine's: a store reads the clock for itself. */
  readonly sharedClock = false;
  readonly counts = new CacheCounters(new DistCacheMetrics());
  readonly table: BucketTable;
  private readonly handovers: Handover;
  private ring: Ring;
  private known: number;

  constructor(readonly id: string, private readonly net: SimOps, ring: readonly string[], opts: SimMemberOptions = {}) {
    this.ownerTimeoutMs = opts.ownerTimeoutMs ?? 100;
    const windowMs = opts.windowMs ?? 5000;
    this.ring = new Ring([...ring]);
    this.known = ring.length;
    this.table = new BucketTable({ freshWindowMs: windowMs });
    this.handovers = new Handover({
      table: this.table,
      calls: { call: (to, op, timeoutMs) => net.call(id, to, op, timeoutMs) },
      counts: this.counts,
      replicaCount: 1,
      ownerTimeoutMs: this.ownerTimeoutMs,
      windowMs,
      id: () => id,
      ring: () => this.ring,
      now: () => net.nowMs,
    });
    const handler = new PeerOpsHandler({
      table: this.table,
      handovers: this.handovers,
      counts: this.counts,
      metrics: new DistCacheMetrics(),
      now: () => net.nowMs,
      localTake: (k, n, p) => this.localTake(k, n, p),
    });
    net.serve(id, (op) => handler.serve(op));
  }

  /** The members this one counts on (membership learnt of them; a joiner is known before it is in the ring). */
  setKnown(n: number): void {
    this.known = n;
  }

  /** The ring changes (its members' counter ports answer): hands over what moved, as a DistCache does. */
  setRing(members: readonly string[]): void {
    const next = new Ring([...members]);
    if (next.sameAs(this.ring)) return;
    this.handovers.ringChanged();
    this.ring = next;
    this.handovers.rehome();
  }

  currentRing(): Ring {
    return this.ring;
  }

  knownMembers(): number {
    return this.known;
  }

  inMinority(): boolean {
    return this.known > 1 && this.ring.members.length * 2 <= this.known;
  }

  localTake(key: string, tokens: number, params: TokenBucketParams): TakeResult | Promise<TakeResult | Unreached> {
    this.counts.local++;
    return takeOwned({
      has: (k) => this.table.has(k),
      minority: () => this.inMinority(),
      pull: (k, p) => this.handovers.pullFromPrevious(k, p),
      takeHere: (k, n, p) => this.table.take(k, n, p, this.net.nowMs),
      remoteTake: (holder, k, n, p) => this.remoteTake(holder, k, n, p),
    }, key, tokens, params);
  }

  async remoteTake(owner: string, key: string, tokens: number, params: TokenBucketParams, timeoutMs = this.ownerTimeoutMs): Promise<RemoteTake> {
    this.counts.remote++;
    try {
      return remoteTakeOf(await this.net.call(this.id, owner, { o: 'take', k: key, n: tokens, p: params }, timeoutMs));
    } catch (e) {
      return { ok: false, reason: isTimeout(e) ? 'timeout' : 'error' };
    }
  }

  giveBack(key: string, tokens: number, params: TokenBucketParams): void {
    const owner = this.ring.owner(key);
    if (owner === undefined || owner === this.id) this.table.giveBack(key, tokens);
    else this.net.call(this.id, owner, { o: 'give', k: key, n: tokens, p: params }, this.ownerTimeoutMs).catch(() => undefined);
  }

  setParams(prefix: string, params: TokenBucketParams): void {
    this.table.setParams(prefix, params);
  }

  countFallback(reason: 'timeout' | 'error' | 'minority', mode: 'open' | 'closed', admitted: boolean): void {
    this.counts.fallback(reason, mode, admitted);
  }
}
