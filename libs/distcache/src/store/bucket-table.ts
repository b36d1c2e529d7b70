import { giveBack, newBucket, refill, take, type BucketState, type TakeResult, type TokenBucketParams } from '@sluice/tokenbucket';

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
  /** Set once the entry left the table (deleted, evicted, or replaced by another entry of its key). */
  dropped?: true;
}

/**
 * A bucket held in the table, as a caller may keep it between takes of its key (BucketSlot):
 * valid while `dropped` is unset; once the table lets the entry go, the caller looks the key up again.
 */
export interface HeldBucket {
  readonly dropped?: true;
}

/** Where a caller keeps the bucket of one key between takes (BucketTable.takeHeld). */
export interface BucketSlot {
  readonly key: string;
  bucket: HeldBucket | undefined;
}

/** Why buckets were dropped: full again after idling (nothing lost), or over a bound. */
export type EvictReason = 'idle' | 'bound';

export interface BucketTableOptions {
  /** How long a bucket started full counts its takes for a late handover (the cache's handover window). Default 5 s. */
  freshWindowMs?: number;
  /** Buckets held at most. Default 200,000. */
  maxEntries?: number;
  /** Estimated bytes held at most. Default 64 MiB. */
  maxBytes?: number;
  /** Idle buckets that are full again are looked for this often. Default 30 s. */
  sweepEveryMs?: number;
  onEvict?: (reason: EvictReason, count: number) => void;
}

/** Estimated bytes of a bucket beside its key (map slot, entry, state, handover counts). */
export const ENTRY_BYTES = 240;
/** Past a bound, buckets are dropped down to this share of it (so eviction runs once per many new buckets). */
const EVICT_TO = 0.9;

/**
 * The buckets this member holds, as owner or as replica, with the token
 * bucket algorithm of @sluice/tokenbucket (the local limiter's, unchanged).
 * Bounded: idle buckets that are full again are swept (nothing is lost:
 * they would start full anyway); past `maxEntries` or `maxBytes` the least
 * recently used go first, and one that was not full starts full when next
 * used.
 */
export class BucketTable {
  private readonly entries = new Map<string, Entry>();
  private lastSweepMs = 0;
  private bytesHeld = 0;
  private readonly freshWindowMs: number;
  private readonly maxEntries: number;
  private readonly maxBytes: number;
  private readonly sweepEveryMs: number;

  constructor(private readonly o: BucketTableOptions = {}) {
    this.freshWindowMs = o.freshWindowMs ?? 5000;
    this.maxEntries = o.maxEntries ?? 200_000;
    this.maxBytes = o.maxBytes ?? 64 * 1024 * 1024;
    this.sweepEveryMs = o.sweepEveryMs ?? 30_000;
  }

  get size(): number {
    return this.entries.size;
  }

  /** Estimated bytes of the buckets held. */
  get bytes(): number {
    return this.bytesHeld;
  }

  take(key: string, tokens: number, params: TokenBucketParams, nowMs: number): TakeResult {
    this.maybeSweep(nowMs);
    return this.takeFrom(this.ensure(key, params, nowMs), tokens, params, nowMs);
  }

  /**
   * take() on the bucket `slot` kept from its last take, without looking its key up: the same
   * take, sweep included; when the table let that bucket go meanwhile (this take's sweep
   * included), or the slot holds none yet, the key is looked up (or started) again and the slot
   * keeps the bucket now held.
   */
  takeHeld(slot: BucketSlot, tokens: number, params: TokenBucketParams, nowMs: number): TakeResult {
    this.maybeSweep(nowMs);
    let e = slot.bucket as Entry | undefined;
    if (e === undefined || e.dropped === true) slot.bucket = e = this.ensure(slot.key, params, nowMs);
    else this.refreshParams(e, params);
    return this.takeFrom(e, tokens, params, nowMs);
  }

  private takeFrom(e: Entry, tokens: number, params: TokenBucketParams, nowMs: number): TakeResult {
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
    this.insert(key, { state: fromSnapshot(s, params, nowMs), params, role: 'replica' }, nowMs);
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
      this.insert(key, { state: incoming, params, role: 'owner' }, nowMs);
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
    const e = this.entries.get(key);
    if (e === undefined) return;
    e.dropped = true;
    this.entries.delete(key);
    this.bytesHeld -= bytesOf(key);
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
      this.insert(key, e, nowMs);
    } else {
      this.refreshParams(e, params);
    }
    return e;
  }

  /** A take's parameters differ from the bucket's (a new decision): the bucket takes them, its tokens kept, capped. */
  private refreshParams(e: Entry, params: TokenBucketParams): void {
    if (e.params !== params && !sameParams(e.params, params)) {
      e.params = params;
      e.state.available = Math.min(e.state.available, Math.max(0, params.capacity));
    }
  }

  private spent(e: Entry, tokens: number, nowMs: number): void {
    if (e.fresh === undefined) return;
    if (nowMs > e.fresh.untilMs) e.fresh = undefined;
    else e.fresh.taken += tokens;
  }

  /** Adds a bucket not held yet; past a bound, the least recently used go (this one stays). */
  private insert(key: string, e: Entry, nowMs: number): void {
    const had = this.entries.get(key);
    this.entries.set(key, e);
    if (had === undefined) this.bytesHeld += bytesOf(key);
    else had.dropped = true;
    if (this.entries.size > this.maxEntries || this.bytesHeld > this.maxBytes) this.evict(key, nowMs);
  }

  /** Sweeps the buckets full again, then drops the least recently used down to EVICT_TO of each bound. */
  private evict(keep: string, nowMs: number): void {
    this.sweep(nowMs);
    const entries = this.maxEntries * EVICT_TO;
    const bytes = this.maxBytes * EVICT_TO;
    if (this.entries.size <= entries && this.bytesHeld <= bytes) return;
    const byAge = [...this.entries].filter(([k]) => k !== keep).sort((a, b) => a[1].state.lastUsedMs - b[1].state.lastUsedMs);
    let n = 0;
    for (const [k] of byAge) {
      if (this.entries.size <= entries && this.bytesHeld <= bytes) break;
      this.delete(k);
      n++;
    }
    if (n > 0) this.o.onEvict?.('bound', n);
  }

  private maybeSweep(nowMs: number): void {
    if (nowMs - this.lastSweepMs < this.sweepEveryMs) return;
    this.sweep(nowMs);
  }

  /** Drops the buckets idle past the handover window that are full again: nothing is lost. */
  private sweep(nowMs: number): void {
    this.lastSweepMs = nowMs;
    let n = 0;
    for (const [k, e] of this.entries) {
      if (nowMs - e.state.lastUsedMs < this.freshWindowMs) continue;
      refill(e.state, e.params, nowMs);
      if (e.state.available >= e.params.capacity) {
        this.delete(k);
        n++;
      }
    }
    if (n > 0) this.o.onEvict?.('idle', n);
  }
}

function bytesOf(key: string): number {
  return ENTRY_BYTES + 2 * key.length;
}

function fromSnapshot(s: BucketSnapshot, params: TokenBucketParams, nowMs: number): BucketState {
  return { available: Math.min(Math.max(0, s.available), Math.max(0, params.capacity)), lastFillMs: nowMs - s.fillAgoMs, lastUsedMs: nowMs };
}

export function sameParams(a: TokenBucketParams, b: TokenBucketParams): boolean {
  return a.capacity === b.capacity && a.fillAmount === b.fillAmount && a.intervalMs === b.intervalMs && a.continuousFill === b.continuousFill;
}
