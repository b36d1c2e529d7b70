import type { TokenBucketParams, TokenBucketStore } from '@sluice/tokenbucket';
import type { PublishedRateLimiter } from '@sluice/policies';
import type { DistCache } from '../dist-cache.js';
import { DistributedTokenBucketStore } from './distributed-store.js';
import { LazySyncStore } from './lazy-sync-store.js';

export interface DistributedStoreFactoryOptions {
  ownerTimeoutMs?: number;
  failClosed?: boolean;
}

/**
 * The token-bucket stores of published rate limiters in the distributed
 * cache (the shape of @sluice/enforcement's TokenBucketStoreFactory): one
 * bucket set per policy and component, shared by the agents of the group;
 * lazy sync when the limiter asks for it. A lazy store replaced by a new one
 * for the same component stops its timer.
 */
export function distributedStoreFactory(cache: DistCache, opts: DistributedStoreFactoryOptions = {}): (params: TokenBucketParams, component: PublishedRateLimiter) => TokenBucketStore {
  const lazy = new Map<string, LazySyncStore>();
  return (params, component) => {
    const limiterId = `${component.policy_name}/${component.component_id}`;
    void lazy.get(limiterId)?.shutdown();
    lazy.delete(limiterId);
    const ls = component.parameters.lazy_sync;
    if (ls !== undefined && ls.enabled) {
      const s = new LazySyncStore(cache, { limiterId, params, numSync: Math.max(1, ls.num_sync) });
      lazy.set(limiterId, s);
      return s;
    }
    return new DistributedTokenBucketStore(cache, { limiterId, params, ownerTimeoutMs: opts.ownerTimeoutMs, failClosed: opts.failClosed });
  };
}
