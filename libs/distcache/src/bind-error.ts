import { UnavailableError, ErrorCode } from '@sluice/errors';

/** Which of the cache's listening addresses a bind error is about (the config key under `dist_cache`). */
export type DistCacheAddressKey = 'bind_addr' | 'memberlist_bind_addr';

/**
 * The cache could not listen on one of its addresses (in use, not local,
 * not permitted). Names the key so the operator knows what to change.
 */
export class DistCacheBindError extends UnavailableError {
  /** Why, in words ("the address is in use"). */
  readonly reason: string;

  constructor(readonly key: DistCacheAddressKey, readonly addr: string, cause: unknown) {
    const reason = (cause as { code?: string }).code === 'EADDRINUSE' ? 'the address is in use' : cause instanceof Error ? cause.message : String(cause);
    super(`dist_cache.${key} ${addr}: cannot listen: ${reason}`, ErrorCode.DISTCACHE_BIND, cause);
    this.name = 'DistCacheBindError';
    this.reason = reason;
  }
}
