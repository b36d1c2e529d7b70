import { giveBack, newBucket, refill, take, type BucketState, type TakeResult, type TokenBucketParams } from '@sluice/flowcontrol';

/** A bucket as it travels between members: clock-free (how long ago it was last filled), so skew does not matter. */
export interface BucketSnapshot {
  readonly available: number;
  readonly fillAgoMs: number;
}

export type BucketRole = 'owner' | 'replica';

interface Entry {
  state: BucketState;
  params: TokenBucketParams;
  role: BucketRole;
  /**
   * A bucket started full here (no state was handed over) counts what it
   * gave out until `freshUntilMs`: if the previous owner's state arrives
   * meanwhile, those tokens are taken from it too (two copies both spent).
   */
  fresh?: { taken: number; untilMs: number };
}

/**
 * The buckets this member holds, as owner or as replica, with the token
 * bucket algorithm of @sluice/flowcontrol (the local limiter's, unchanged).
 * Idle buckets are swept (they would be full again anyway).
 */
export class BucketTable {
  private readonly entries = new Map<string, Entry>();
  private lastSweepMs = 0;

  /**
   * `freshWindowMs`: how long a bucket started full counts its takes for a
   * late handover (the cache's handover window).
   */
  constructor(private readonly maxIdleMs = 7_200_000, private readonly freshWindowMs = 5000) {}

  take(key: string, tokens: number, params: TokenBucketParams, nowMs: number): TakeResult {
    this.maybeSweep(nowMs);
    const e = this.ensure(key, params, nowMs);
    e.role = 'owner';
    const r = take(e.state, e.params, tokens, nowMs);
    if (r.ok) this.spent(e, tokens, nowMs);
    return r;
  }

  /** Take what was consumed elsewhere (lazy sync), down to zero at most; returns what is left. */
  consume(key: string, tokens: number, params: TokenBucketParams, nowMs: number): number {
    const e = this.ensure(key, params, nowMs);
    e.role = 'owner';
    refill(e.state, e.params, nowMs);
    e.state.lastUsedMs = nowMs;
    this.spent(e, Math.min(tokens, e.state.available), nowMs);
    e.state.available = Math.max(0, e.state.available - tokens);
    return e.state.available;
  }

  giveBack(key: string, tokens: number): void {
    const e = this.entries.get(key);
    if (e === undefined) return;
    giveBack(e.state, e.params, tokens);
    if (e.fresh !== undefined) e.fresh.taken = Math.max(0, e.fresh.taken - tokens);
  }

  has(key: string): boolean {
    return this.entries.has(key);
  }

  role(key: string): BucketRole | undefined {
    return this.entries.get(key)?.role;
  }

  params(key: string): TokenBucketParams | undefined {
    return this.entries.get(key)?.params;
  }

  snapshot(key: string, nowMs: number): BucketSnapshot | undefined {
    const e = this.entries.get(key);
    if (e === undefined) return undefined;
    refill(e.state, e.params, nowMs);
    return { available: e.state.available, fillAgoMs: Math.max(0, nowMs - e.state.lastFillMs) };
  }

  /** A replica's copy: replaced by the owner's newest state. */
  putReplica(key: string, s: BucketSnapshot, params: TokenBucketParams, nowMs: number): void {
    const cur = this.entries.get(key);
    if (cur !== undefined && cur.role === 'owner') return;
    this.entries.set(key, { state: fromSnapshot(s, params, nowMs), params, role: 'replica' });
  }

  /**
   * State handed over by a previous owner. When this member already holds
   * the key, the fewer tokens win (the merge never creates tokens); when its
   * copy was started full here a moment ago, what it gave out is also taken
   * from the handed-over state (both copies were spent).
   */
  adopt(key: string, s: BucketSnapshot, params: TokenBucketParams, nowMs: number): void {
    const incoming = fromSnapshot(s, params, nowMs);
    const cur = this.entries.get(key);
    if (cur === undefined) {
      this.entries.set(key, { state: incoming, params, role: 'owner' });
      return;
    }
    refill(cur.state, cur.params, nowMs);
    refill(incoming, params, nowMs);
    const spentHere = cur.fresh !== undefined && nowMs <= cur.fresh.untilMs ? cur.fresh.taken : 0;
    cur.state.available = Math.max(0, Math.min(cur.state.available, incoming.available - spentHere));
    cur.fresh = undefined;
    cur.role = 'owner';
  }

  setRole(key: string, role: BucketRole): void {
    const e = this.entries.get(key);
    if (e === undefined) return;
    e.role = role;
    // its state went to the new owner: a copy coming back later already counts these takes
    if (role === 'replica') e.fresh = undefined;
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  /** New parameters for every bucket of a limiter (keys `<limiter>|...`): tokens kept, capped. */
  setParams(prefix: string, params: TokenBucketParams): void {
    for (const [k, e] of this.entries) {
      if (!k.startsWith(prefix)) continue;
      e.params = params;
      e.state.available = Math.min(e.state.available, Math.max(0, params.capacity));
    }
  }

  keys(): IterableIterator<string> {
    return this.entries.keys();
  }

  count(role: BucketRole): number {
    let n = 0;
    for (const e of this.entries.values()) if (e.role === role) n++;
    return n;
  }

  private ensure(key: string, params: TokenBucketParams, nowMs: number): Entry {
    let e = this.entries.get(key);
    if (e === undefined) {
      e = { state: newBucket(params, nowMs), params, role: 'owner', fresh: { taken: 0, untilMs: nowMs + this.freshWindowMs } };
      this.entries.set(key, e);
    } else if (e.params !== params && !sameParams(e.params, params)) {
      e.params = params;
      e.state.available = Math.min(e.state.available, Math.max(0, params.capacity));
    }
    return e;
  }

  private spent(e: Entry, tokens: number, nowMs: number): void {
    if (e.fresh === undefined) return;
    if (nowMs > e.fresh.untilMs) e.fresh = undefined;
    else e.fresh.taken += tokens;
  }

  private maybeSweep(nowMs: number): void {
    if (this.maxIdleMs <= 0 || nowMs - this.lastSweepMs < Math.min(this.maxIdleMs, 60_000)) return;
    this.lastSweepMs = nowMs;
    for (const [k, e] of this.entries) if (nowMs - e.state.lastUsedMs >= this.maxIdleMs) this.entries.delete(k);
  }
}

function fromSnapshot(s: BucketSnapshot, params: TokenBucketParams, nowMs: number): BucketState {
  return { available: Math.min(Math.max(0, s.available), Math.max(0, params.capacity)), lastFillMs: nowMs - s.fillAgoMs, lastUsedMs: nowMs };
}

export function sameParams(a: TokenBucketParams, b: TokenBucketParams): boolean {
  return a.capacity === b.capacity && a.fillAmount === b.fillAmount && a.intervalMs === b.intervalMs && a.continuousFill === b.continuousFill;
}
