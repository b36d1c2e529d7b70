import { createHash } from 'node:crypto';
import type { TakeResult, TokenBucketParams, TokenBucketStore } from '@sluice/flowcontrol';
import type { DistCache } from './dist-cache.js';

export interface DistributedStoreOptions {
  /** The rate limiter's identity in the group (policy + component): keys are `<limiter>|<label value>`. */
  limiterId: string;
  params: TokenBucketParams;
  /** Owner deadline before the decision falls back. Default: the cache's (100 ms). */
  ownerTimeoutMs?: number;
  /** When the owner does not answer: admit (default) or reject. */
  failClosed?: boolean;
}

/** Longest label value kept as it is in a key; longer ones travel as their SHA-256 (bounded frames and memory). */
const MAX_PLAIN_LABEL = 64;

/**
 * A rate limiter's buckets in the agent group: each label's bucket lives on
 * the member the ring picks; a take on a key this agent owns runs here, any
 * other goes to the owner (batched with the other calls of this turn). An
 * owner that does not answer in time makes the decision fall back
 * (fail-open by default), counted, and the owner leaves this agent's ring.
 */
export class DistributedTokenBucketStore implements TokenBucketStore {
  private params: TokenBucketParams;
  private readonly prefix: string;
  private readonly timeoutMs: number;
  private readonly failClosed: boolean;

  constructor(private readonly cache: DistCache, opts: DistributedStoreOptions) {
    this.params = opts.params;
    this.prefix = `${opts.limiterId}|`;
    this.timeoutMs = opts.ownerTimeoutMs ?? cache.ownerTimeoutMs;
    this.failClosed = opts.failClosed ?? false;
  }

  keyOf(label: string): string {
    return this.prefix + (label.length <= MAX_PLAIN_LABEL ? label : `sha256:${createHash('sha256').update(label).digest('hex')}`);
  }

  take(label: string, tokens: number, _nowMs: number): TakeResult | Promise<TakeResult> {
    // A bucket of capacity 0, or a cost above the capacity, can never admit: decided here, with no hop
    // to an owner that might be slow or away (and so no fail-open fallback for it).
    if (this.params.capacity <= 0 || tokens > this.params.capacity) return { ok: false, remaining: 0, current: 0, waitMs: 0 };
    const key = this.keyOf(label);
    const owner = this.cache.currentRing().owner(key);
    if (owner === undefined || owner === this.cache.id) return this.cache.localTake(key, tokens, this.params);
    return this.cache.remoteTake(owner, key, tokens, this.params, this.timeoutMs).then((r) => {
      if (r.ok) return r.result;
      this.cache.countFallback(r.reason, this.failClosed ? 'closed' : 'open');
      return { ok: !this.failClosed, remaining: 0, current: 0, waitMs: 0 };
    });
  }

  giveBack(label: string, tokens: number, _nowMs: number): void {
    this.cache.giveBack(this.keyOf(label), tokens, this.params);
  }

  setParams(params: TokenBucketParams): void {
    this.params = params;
    this.cache.setParams(this.prefix, params);
  }

  get currentParams(): TokenBucketParams {
    return this.params;
  }
}
