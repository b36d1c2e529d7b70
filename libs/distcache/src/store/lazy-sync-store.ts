import type { Lifecycle } from '@sluice/lifecycle';
import { giveBack, newBucket, take, type BucketState, type TakeResult, type TokenBucketParams, type TokenBucketStore } from '@sluice/tokenbucket';
import type { DistCache } from '../dist-cache.js';
import { DistributedTokenBucketStore } from './distributed-store.js';

export interface LazySyncStoreOptions {
  limiterId: string;
  params: TokenBucketParams;
  /** `lazy_sync.num_sync`: reconciliations with the owner per fill interval (at least 1). */
  numSync: number;
}

interface Share {
  /** This agent's share of the label's bucket. */
  bucket: BucketState;
  /** Tokens admitted here since the last report to the owner. */
  consumed: number;
}

/**
 * Lazy sync: each agent admits against a local bucket holding its share of
 * the global one (capacity and fill divided by the members it counts on: the
 * ring's, plus any out of reach until they are reaped, as the distributed
 * store's fallback does), and reconciles with the owner `numSync` times per
 * interval: it reports what it consumed and resets its share to (what the
 * owner has left) ÷ members. Cut off in a minority of the group it does not
 * reconcile (the owner it would reach is not the group's): it keeps admitting
 * on its share and reports what it consumed once it is back.
 * Error bound: between two reconciliations each of n agents admits at most
 * its share plus its share's refill, so the group admits at most one bucket
 * capacity plus the fill of one sync period above the limit (see the guide).
 */
export class LazySyncStore implements TokenBucketStore, Lifecycle {
  private params: TokenBucketParams;
  private local: TokenBucketParams;
  private members: number;
  private readonly shares = new Map<string, Share>();
  private readonly keyOf: (label: string) => string;
  private timer: NodeJS.Timeout | undefined;
  private syncing = false;

  constructor(private readonly cache: DistCache, private readonly opts: LazySyncStoreOptions) {
    this.params = opts.params;
    this.members = Math.max(1, cache.knownMembers());
    this.local = this.shareParams();
    const keys = new DistributedTokenBucketStore(cache, { limiterId: opts.limiterId, params: opts.params });
    this.keyOf = (l) => keys.keyOf(l);
    this.schedule();
  }

  take(label: string, tokens: number, nowMs: number): TakeResult {
    const s = this.share(label, nowMs);
    const r = take(s.bucket, this.local, tokens, nowMs);
    if (r.ok) s.consumed += tokens;
    return r;
  }

  giveBack(label: string, tokens: number, _nowMs: number): void {
    const s = this.shares.get(label);
    if (s === undefined) return;
    giveBack(s.bucket, this.local, tokens);
    s.consumed = Math.max(0, s.consumed - tokens);
  }

  setParams(params: TokenBucketParams): void {
    this.params = params;
    this.local = this.shareParams();
    for (const s of this.shares.values()) s.bucket.available = Math.min(s.bucket.available, this.local.capacity);
    this.schedule();
  }

  /** Stops the periodic sync. */
  async shutdown(): Promise<void> {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Reconcile every active label with its owner now. */
  async sync(): Promise<void> {
    if (this.syncing) return;
    this.syncing = true;
    try {
      const n = Math.max(1, this.cache.knownMembers());
      if (n !== this.members) {
        this.members = n;
        this.local = this.shareParams();
        for (const s of this.shares.values()) s.bucket.available = Math.min(s.bucket.available, this.local.capacity);
      }
      if (this.cache.inMinority()) return;
      await Promise.all([...this.shares].map(async ([label, s]) => {
        const consumed = s.consumed;
        s.consumed = 0;
        const left = await this.cache.consume(this.keyOf(label), consumed, this.params);
        if (left === undefined) {
          s.consumed += consumed; // the owner did not answer: report it next time
          return;
        }
        // the share is what the owner has left divided among the members, less what was admitted meanwhile;
        // the owner's refill up to now is in `left`, so the local refill starts again from now
        s.bucket.available = Math.min(this.local.capacity, Math.max(0, left / this.members - s.consumed));
        s.bucket.lastFillMs = Date.now();
        if (consumed === 0 && s.consumed === 0 && Date.now() - s.bucket.lastUsedMs > this.params.intervalMs * 10) this.shares.delete(label);
      }));
    } finally {
      this.syncing = false;
    }
  }

  private share(label: string, nowMs: number): Share {
    let s = this.shares.get(label);
    if (s === undefined) {
      s = { bucket: newBucket(this.local, nowMs), consumed: 0 };
      this.shares.set(label, s);
    }
    return s;
  }

  private shareParams(): TokenBucketParams {
    return { ...this.params, capacity: this.params.capacity / this.members, fillAmount: this.params.fillAmount / this.members };
  }

  private schedule(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    const every = Math.max(10, this.params.intervalMs / Math.max(1, this.opts.numSync));
    this.timer = setInterval(() => void this.sync(), every);
    this.timer.unref();
  }
}
