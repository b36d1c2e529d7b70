import type { TakeResult, TokenBucketParams } from './token-bucket.js';

/**
 * Where the buckets of one rate limiter live: in this process (the local
 * store) or, later, on the owner of the key in the agent group (the
 * distributed counter cache). A store may answer asynchronously.
 */
export interface TokenBucketStore {
  take(key: string, tokens: number, nowMs: number): TakeResult | Promise<TakeResult>;
  giveBack(key: string, tokens: number, nowMs: number): void;
  /** New parameters (a new decision from the controller); existing buckets keep their tokens, capped. */
  setParams(params: TokenBucketParams): void;
}
