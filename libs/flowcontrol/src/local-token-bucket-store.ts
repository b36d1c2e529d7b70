import { createHash } from 'node:crypto';
import { giveBack, newBucket, take, type BucketState, type TakeResult, type TokenBucketParams } from './token-bucket.js';
import type { TokenBucketStore } from './token-bucket-store.js';

export interface LocalTokenBucketStoreOptions {
  /** Buckets not used for this long are dropped (they would be full again anyway). <= 0: never. Default 2 hours. */
  maxIdleMs?: number;
  /** Buckets kept at most; past it the oldest-created go first. Default 100 000. */
  maxKeys?: number;
}

/** Longest key kept as it is; a longer one (a label value of any size) is kept as its SHA-256. */
const MAX_PLAIN_KEY_LENGTH = 64;

/** The key a bucket is kept under: short keys as they are, long ones as `sha256:<hex>` (longer than any plain key, so the two never meet). */
function bucketKey(key: string): string {
  return key.length <= MAX_PLAIN_KEY_LENGTH ? key : `sha256:${createHash('sha256').update(key).digest('hex')}`;
}

/**
 * Token buckets held in this process, one per key, with bounded memory:
 * idle buckets are swept out (a sweep runs at most once per
 * min(max idle, 1 min), on a take), the number of keys is capped, and a key
 * longer than 64 characters is kept as its digest.
 */
export class LocalTokenBucketStore implements TokenBucketStore {
  private params: TokenBucketParams;
  private readonly buckets = new Map<string, BucketState>();
  private readonly maxIdleMs: number;
  private readonly maxKeys: number;
  private readonly sweepEveryMs: number;
  private lastSweepMs = -Infinity;

  constructor(params: TokenBucketParams, opts: LocalTokenBucketStoreOptions = {}) {
    this.params = params;
    this.maxIdleMs = opts.maxIdleMs ?? 7_200_000;
    this.maxKeys = Math.max(1, opts.maxKeys ?? 100_000);
    this.sweepEveryMs = this.maxIdleMs > 0 ? Math.min(this.maxIdleMs, 60_000) : Infinity;
  }

  take(label: string, tokens: number, nowMs: number): TakeResult {
    if (nowMs - this.lastSweepMs >= this.sweepEveryMs) this.sweep(nowMs);
    const key = bucketKey(label);
    let b = this.buckets.get(key);
    if (b === undefined) {
      if (this.buckets.size >= this.maxKeys) {
        const oldest = this.buckets.keys().next().value;
        if (oldest !== undefined) this.buckets.delete(oldest);
      }
      b = newBucket(this.params, nowMs);
      this.buckets.set(key, b);
    }
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
    for (const [key, b] of this.buckets) if (b.lastUsedMs <= cutoff) this.buckets.delete(key);
  }

  get size(): number {
    return this.buckets.size;
  }

  /** Tokens in the bucket of `key` as of its last use (undefined when there is none). */
  peek(key: string): number | undefined {
    return this.buckets.get(bucketKey(key))?.available;
  }
}
