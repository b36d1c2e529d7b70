import { createHash } from 'node:crypto';
import { newBucket, take, type BucketState, type TakeResult, type TokenBucketParams, type TokenBucketStore } from '@sluice/tokenbucket';
import type { DistCache } from '../dist-cache.js';
import type { Ring } from '../ring/ring.js';
import type { BucketSlot } from './bucket-table.js';

/** What the store uses of its member of the cache (a DistCache, or a simulated member in tests). */
export type StoreCache = Pick<DistCache, 'id' | 'ownerTimeoutMs' | 'sharedClock' | 'inMinority' | 'currentRing' | 'localTake' | 'remoteTake' | 'giveBack' | 'setParams' | 'countFallback' | 'knownMembers'>;

export interface DistributedStoreOptions {
  /** The rate limiter's identity in the group (policy + component): keys are `<limiter>|<label value>`. */
  limiterId: string;
  params: TokenBucketParams;
  /** Owner deadline before the decision falls back. Default: the cache's (100 ms). */
  ownerTimeoutMs?: number;
  /** When the owner does not answer: decide against this agent's share (default) or reject. */
  failClosed?: boolean;
  /** Most fallback buckets kept (the least recently used go first). Default 10,000. */
  maxFallbackBuckets?: number;
}

/** Longest label value kept as it is in a key; longer ones travel as their SHA-256 (bounded frames and memory). */
const MAX_PLAIN_LABEL = 64;
/** Labels whose bucket key (and owner) is kept. */
const MAX_CACHED_KEYS = 10_000;
/** A take that can never be admitted (capacity 0, or a cost above the capacity). */
const NEVER: TakeResult = Object.freeze({ ok: false, remaining: 0, current: 0, waitMs: 0 });

/**
 * What the store keeps of one label between takes: its bucket key (built once), its owner in
 * the ring it was looked up in (a ring never changes: another ring means look again), and the
 * bucket while this member holds it (the table drops it from the slot when it lets it go).
 */
interface LabelSlot extends BucketSlot {
  ring: Ring | undefined;
  owner: string | undefined;
}

/**
 * A rate limiter's buckets in the agent group: each label's bucket lives on
 * the member the ring picks; a take on a key this agent owns runs here, any
 * other goes to the owner (batched with the other calls of this turn).
 *
 * Fallback: when the owner does not answer in time (it is suspected), or
 * while this agent sees at most half of the group in its ring (it may be cut
 * off), the decision is taken against a local fallback bucket of the key
 * holding this agent's share of the limit (capacity and fill ÷ the members it
 * counts on), counted as a fallback; fail-closed rejects instead. So an
 * unreachable owner under load lets through at most a share per agent, not
 * everything.
 */
export class DistributedTokenBucketStore implements TokenBucketStore {
  private params: TokenBucketParams;
  private readonly prefix: string;
  private readonly timeoutMs: number;
  private readonly failClosed: boolean;
  private readonly maxFallbacks: number;
  /** Fallback buckets by key, least recently used first. */
  private readonly fallbacks = new Map<string, BucketState>();
  /** What is kept of each label (LabelSlot), oldest first; emptied when the parameters change. */
  private readonly slots = new Map<string, LabelSlot>();
  /** The label of the last take and its slot (the flows of one client, one after another). */
  private lastLabel: string | undefined;
  private lastSlot: LabelSlot | undefined;

  constructor(private readonly cache: StoreCache, opts: DistributedStoreOptions) {
    this.params = opts.params;
    this.prefix = `${opts.limiterId}|`;
    this.timeoutMs = opts.ownerTimeoutMs ?? cache.ownerTimeoutMs;
    this.failClosed = opts.failClosed ?? false;
    this.maxFallbacks = Math.max(1, opts.maxFallbackBuckets ?? 10_000);
  }

  keyOf(label: string): string {
    return this.slotOf(label).key;
  }

  /** The label's slot: its key built once per label, not per take (the ring's and the table's lookups hash the same string again). */
  private slotOf(label: string): LabelSlot {
    if (label === this.lastLabel && this.lastSlot !== undefined) return this.lastSlot;
    let slot = this.slots.get(label);
    if (slot === undefined) {
      const key = this.prefix + (label.length <= MAX_PLAIN_LABEL ? label : `sha256:${createHash('sha256').update(label).digest('hex')}`);
      slot = { key, bucket: undefined, ring: undefined, owner: undefined };
      // the oldest goes first past the bound
      if (this.slots.size >= MAX_CACHED_KEYS) this.slots.delete(this.slots.keys().next().value as string);
      this.slots.set(label, slot);
    }
    this.lastLabel = label;
    this.lastSlot = slot;
    return slot;
  }

  /**
   * `nowMs` is the caller's reading of epochNowMs (the engine's check): the bucket is taken at
   * it when the cache runs on that clock, else at the cache's own reading.
   */
  take(label: string, tokens: number, nowMs: number): TakeResult | Promise<TakeResult> {
    // A bucket of capacity 0, or a cost above the capacity, can never admit: decided here, with no hop
    // to an owner that might be slow or away (and so no fail-open fallback for it).
    if (this.params.capacity <= 0 || tokens > this.params.capacity) return NEVER;
    const slot = this.slotOf(label);
    const key = slot.key;
    if (this.cache.inMinority()) return this.fallback(key, tokens, nowMs, 'minority');
    const ring = this.cache.currentRing();
    if (slot.ring !== ring) {
      slot.owner = ring.owner(key);
      slot.ring = ring;
    }
    const owner = slot.owner;
    if (owner === undefined || owner === this.cache.id) {
      // this member owns the key; when its state may be on a member that does not answer, decide on the share
      const r = this.cache.localTake(key, tokens, this.params, slot, this.cache.sharedClock ? nowMs : undefined);
      return r instanceof Promise ? r.then((x) => ('unreached' in x ? this.fallback(key, tokens, nowMs, x.unreached) : x)) : r;
    }
    return this.cache.remoteTake(owner, key, tokens, this.params, this.timeoutMs).then((r) => (r.ok ? r.result : this.fallback(key, tokens, nowMs, r.reason)));
  }

  giveBack(label: string, tokens: number, _nowMs: number): void {
    this.cache.giveBack(this.keyOf(label), tokens, this.params);
  }

  /** New parameters (a decision of the published policy): the buckets take them, and every label is looked up again. */
  setParams(params: TokenBucketParams): void {
    this.params = params;
    this.cache.setParams(this.prefix, params);
    this.slots.clear();
    this.lastLabel = undefined;
    this.lastSlot = undefined;
  }

  /** Labels whose slot is kept (for tests). */
  get keptLabels(): number {
    return this.slots.size;
  }

  get currentParams(): TokenBucketParams {
    return this.params;
  }

  /** Fallback buckets held now (for tests and stats). */
  get fallbackBuckets(): number {
    return this.fallbacks.size;
  }

  /** A decision without the owner: counted (and whether it admitted); rejected when fail-closed, else taken from this agent's share. */
  private fallback(key: string, tokens: number, nowMs: number, reason: 'timeout' | 'error' | 'minority'): TakeResult {
    if (this.failClosed) {
      this.cache.countFallback(reason, 'closed', false);
      return { ok: false, remaining: 0, current: 0, waitMs: 0 };
    }
    const share = this.shareParams();
    let b = this.fallbacks.get(key);
    if (b === undefined) {
      b = newBucket(share, nowMs);
      if (this.fallbacks.size >= this.maxFallbacks) {
        const oldest = this.fallbacks.keys().next();
        if (oldest.done !== true) this.fallbacks.delete(oldest.value);
      }
    } else {
      this.fallbacks.delete(key);
      // the group grew since: the share shrank
      b.available = Math.min(b.available, share.capacity);
    }
    this.fallbacks.set(key, b);
    const r = take(b, share, tokens, nowMs);
    this.cache.countFallback(reason, 'open', r.ok);
    return r;
  }

  /** This agent's share of the limit: capacity and fill ÷ the members it counts on (as lazy sync divides them). */
  private shareParams(): TokenBucketParams {
    const n = Math.max(1, this.cache.knownMembers());
    return { ...this.params, capacity: this.params.capacity / n, fillAmount: this.params.fillAmount / n };
  }
}
