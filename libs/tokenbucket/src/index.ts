// @sluice/tokenbucket: the token bucket of rate limiters and quotas (its arithmetic, the store
// interface a rate limiter takes from, and the in-process store), shared by the engine and the
// distributed counter cache.
export { newBucket, refill, take, giveBack, timeUntil, type TokenBucketParams, type BucketState, type TakeResult } from './token-bucket.js';
export type { TokenBucketStore } from './token-bucket-store.js';
export { LocalTokenBucketStore, DEFAULT_MAX_BUCKETS, type LocalTokenBucketStoreOptions, type BucketEvictionReason } from './local-token-bucket-store.js';
export { epochNowMs } from './clock.js';
