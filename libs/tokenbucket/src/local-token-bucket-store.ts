import { createHash } from 'node:crypto';
import { giveBack, newBucket, take, type BucketState, type TakeResult, type TokenBucketParams } from './token-bucket.js';
import type { TokenBucketStore } from './token-bucket-store.js';

export interface LocalTokenBucketStoreOptions {
  /** Buckets not used for this long are dropped (they would be full again anyway). <= 0: never. Default 2 hours. */
  maxIdleMs?: number;
  /**
   * Buckets kept at most; past it the least recently used one goes (it starts full when its key
   * comes back). Default 100 000.
   */
  maxKeys?: number;
  /** Told of every bucket dropped: `capacity` (the key bound, least recently used) or `idle` (max idle time). */
  onEvict?: (reason: BucketEvictionReason, count: number) => void;
}

export type BucketEvictionReason = 'capacity' | 'idle';

/** Buckets one local store keeps at most, by default. */
export const DEFAULT_MAX_BUCKETS = 100_000;

/** Longest key kept as it is; a longer one (a label value of any size) is kept as its SHA-256. */
const MAX_PLAIN_KEY_LENGTH = 64;

/** The key a bucket is kept under: short keys as they are, long ones as `sha256:<hex>` (longer than any plain key, so the two never meet). */
function bucketKey(key: string): string {
  return key.length <= MAX_PLAIN_KEY_LENGTH ? key : `sha256:${createHash('sha256').update(key).digest('hex')}`;
}

/**
 * Token buckets held in this process, one per key, with bounded memory:
 * idle buckets are swept out (a sweep runs at most once per
 * min(max idle, 1 min), on a take), the number of keys is capped with
 * least-recently-used eviction, and a key longer than 64 characters is kept
 * as its digest. The Map is kept in order of last use (a used bucket is
 * re-inserted at the end), so the first key is always the least recently
 * used: a flood of new keys evicts idle buckets, never one in use.
 */
export class LocalTokenBucketStore implements TokenBucketStore {
  private params: TokenBucketParams;
  private readonly buckets = new Map<string, BucketState>();
  private readonly maxIdleMs: number;
  private readonly maxKeys: number;
  private readonly sweepEveryMs: number;
  private lastSweepMs = -Infinity;
  /** The key last moved to the end of `buckets` (undefined once it may no longer be there). */
  private newest: string | undefined;
  private readonly onEvict: ((reason: BucketEvictionReason, count: number) => void) | undefined;

  constructor(params: TokenBucketParams, opts: LocalTokenBucketStoreOptions = {}) {
    this.params = params;
    this.maxIdleMs = opts.maxIdleMs ?? 7_200_000;
    this.maxKeys = Math.max(1, opts.maxKeys ?? DEFAULT_MAX_BUCKETS);
    this.sweepEveryMs = this.maxIdleMs > 0 ? Math.min(this.maxIdleMs, 60_000) : Infinity;
    this.onEvict = opts.onEvict;
  }

  take(label: string, tokens: number, nowMs: number): TakeResult {
    if (nowMs - this.lastSweepMs >= this.sweepEveryMs) this.sweep(nowMs);
    const key = bucketKey(label);
    const buckets = this.buckets;
    let b = buckets.get(key);
    // already the most recently used: no re-insert (a Map's delete leaves a hole it rehashes away later)
    if (b !== undefined && key === this.newest) return take(b, this.params, tokens, nowMs);
    if (b === undefined) {
      if (buckets.size >= this.maxKeys) {
        const lru = buckets.keys().next().value;
        if (lru !== undefined) {
          buckets.delete(lru);
          this.onEvict?.('capacity', 1);
        }
      }
      b = newBucket(this.params, nowMs);
    } else {
      buckets.delete(key);
    }
    buckets.set(key, b);
    this.newest = key;
    return take(b, this.params, tokens, nowMs);
  }

  giveBack(key: string, tokens: number, _nowMs: number): void {
    const b = this.buckets.get(bucketKey(key));
    if (b !== undefined) giveBack(b, this.params, tokens);
  }

  setParams(params: TokenBucketParams): void {
    this.params = params;
    for (const b of this.buckets.values()) b.available = Math.min(b.available, Math.max(0, params.capacity));
  }

  /** Drop buckets idle for max idle time or longer. */
  sweep(nowMs: number): void {
    this.lastSweepMs = nowMs;
    if (this.maxIdleMs <= 0) return;
    const cutoff = nowMs - this.maxIdleMs;
    let dropped = 0;
    // In order of last use: stop at the first bucket used since the cutoff.
    for (const [key, b] of this.buckets) {
      if (b.lastUsedMs > cutoff) break;
      this.buckets.delete(key);
      dropped++;
    }
    if (dropped > 0) this.onEvict?.('idle', dropped);
  }

  get size(): number {
    return this.buckets.size;
  }

  /** Tokens in the bucket of `key` as of its last use (undefined when there is none). */
  peek(key: string): number | undefined {
    return this.buckets.get(bucketKey(key))?.available;
  }
}
