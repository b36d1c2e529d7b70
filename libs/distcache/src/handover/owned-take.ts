import type { TakeResult, TokenBucketParams } from '@sluice/tokenbucket';
import type { BucketSlot } from '../store/bucket-table.js';
import type { Pulled, RemoteTake, Unreached } from './take-outcome.js';

/** What a take on a key this member owns uses of its member. */
export interface OwnedTakeHost {
  /** Whether this member holds the key's bucket. */
  has(key: string): boolean;
  /** Whether this member's ring holds at most half of the members it counts on (it may be cut off, or still joining). */
  minority(): boolean;
  /** The pull of the key's state from its previous owner, when the ring changed lately (else undefined). */
  pull(key: string, params: TokenBucketParams): Promise<Pulled> | undefined;
  /** The take on the bucket held here (started full when there is none); `slot` and `nowMs` as localTake's. */
  takeHere(key: string, tokens: number, params: TokenBucketParams, slot?: BucketSlot, nowMs?: number): TakeResult | Promise<TakeResult>;
  /** The take sent to the member that still owns the key in its own view. */
  remoteTake(holder: string, key: string, tokens: number, params: TokenBucketParams): Promise<RemoteTake>;
}

/**
 * A take on a key this member owns: no hop, unless the ring changed lately
 * and the state must first be pulled from the previous owner; while that one
 * still owns the key in its own view, the take goes to it. When that member
 * does not answer (the pull or the take sent to it), the state may be there
 * with tokens already spent: the take is Unreached (its caller falls back on
 * its share) and the bucket is not started full here, so the next take pulls
 * again. Only a pull answered "nothing here" starts the bucket full. A
 * member whose ring holds a minority of the group (cut off, or joining and
 * not yet reaching the others) does not start a key it misses for another
 * member either: the group's state of it is elsewhere. A bucket the caller's
 * slot still holds is in the table: nothing to look up or pull.
 */
export function takeOwned(
  host: OwnedTakeHost, key: string, tokens: number, params: TokenBucketParams, slot?: BucketSlot, nowMs?: number,
): TakeResult | Promise<TakeResult | Unreached> {
  const held = slot?.bucket;
  if ((held === undefined || held.dropped === true) && !host.has(key)) {
    if (host.minority()) return Promise.resolve({ unreached: 'error' });
    const pulling = host.pull(key, params);
    if (pulling !== undefined) {
      return pulling.then((pulled): TakeResult | Unreached | Promise<TakeResult | Unreached> => {
        if (host.has(key)) return host.takeHere(key, tokens, params);
        if (pulled.failed !== undefined) return { unreached: pulled.failed };
        const holder = pulled.holder;
        if (holder === undefined) return host.takeHere(key, tokens, params);
        return host.remoteTake(holder, key, tokens, params).then((r): TakeResult | Unreached | Promise<TakeResult> => {
          if (r.ok) return r.result;
          // its state may have arrived meanwhile (the holder's ring caught up and handed it over)
          return host.has(key) ? host.takeHere(key, tokens, params) : { unreached: r.reason };
        });
      });
    }
  }
  return host.takeHere(key, tokens, params, slot, nowMs);
}
