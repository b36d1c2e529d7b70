import type { Lifecycle } from '@sluice/lifecycle';
import { epochNowMs, type TakeResult, type TokenBucketParams } from '@sluice/tokenbucket';
import { Membership } from './membership/membership.js';
import { holdsBuckets } from './membership/member.js';
import type { GossipTransport } from './membership/gossip-transport.js';
import type { OpsServer } from './transport/ops-server.js';
import { listen } from './listeners.js';
import { PeerCalls, isTimeout } from './transport/peer-calls.js';
import { CacheCounters } from './cache-counters.js';
import { BucketTable, type BucketSlot } from './store/bucket-table.js';
import { Ring } from './ring/ring.js';
import { DistCacheMetrics } from './metrics.js';
import type { PeerRecord, PeerSink } from './membership/peers.js';
import type { DistCacheOptions } from './dist-cache-options.js';
import { collectStats, type DistCacheStats } from './dist-cache-stats.js';
import { remoteTakeOf, type RemoteTake, type Unreached } from './handover/take-outcome.js';
import { Handover } from './handover/handover.js';
import { takeOwned, type OwnedTakeHost } from './handover/owned-take.js';
import { PeerOpsHandler } from './op-handler.js';
import { PeerRegistry, type PeerView } from './membership/peer-registry.js';
import { MembershipWiring } from './membership/membership-wiring.js';
import { PacketSealer } from './transport/auth/index.js';
import { SelfHealth } from './membership/self-health.js';
import { INCARNATION_MODULUS } from './membership/member.js';

/** One local take in this many is timed into sluice_distcache_operation_duration_seconds{op="take",target="local"}. */
export const TIMED_LOCAL_TAKE_EVERY = 64;

export type { DistCacheOptions, DistCacheLimits, MembershipTimings } from './dist-cache-options.js';
export type { DistCacheStats, MemberInfo } from './dist-cache-stats.js';
export type { RemoteTake, Unreached } from './handover/take-outcome.js';

/**
 * One agent's member of the distributed counter cache: membership (SWIM over
 * UDP, full-state sync over TCP), the ring over the members whose counter
 * port answers, the buckets it owns or replicates, and the operations server.
 */
export class DistCache implements PeerSink, Lifecycle {
  private selfId: string;
  readonly group: string;
  readonly metrics: DistCacheMetrics;
  readonly replicaCount: number;
  readonly syncReplication: boolean;
  readonly ownerTimeoutMs: number;
  /**
   * The buckets run on epochNowMs (the default clock), the clock of the flow-control engine's
   * checks: a take may then be given the check's reading of it (localTake) instead of reading it again.
   */
  readonly sharedClock: boolean;
  private readonly now: () => number;
  private readonly table: BucketTable;
  private membership: Membership | undefined;
  private wiring: MembershipWiring | undefined;
  private gossip: GossipTransport | undefined;
  private ops: OpsServer | undefined;
  private readonly calls: PeerCalls;
  private readonly ready = new Set<string>();
  private ring: Ring;
  private readonly handovers: Handover;
  private readonly owned: OwnedTakeHost;
  private readonly handler: PeerOpsHandler;
  private readonly peers = new PeerRegistry();
  /** Local takes since the last timed one. */
  private localTakes = 0;
  private readonly counts: CacheCounters;
  private readonly ringListeners: Array<(ring: Ring) => void> = [];
  private readonly health: SelfHealth;
  gossipAddr = '';
  opsAddr = '';

  constructor(private readonly opts: DistCacheOptions) {
    this.selfId = typeof opts.id === 'string' ? opts.id : '';
    this.group = opts.group;
    this.replicaCount = Math.max(1, opts.replicaCount ?? 1);
    this.syncReplication = opts.syncReplication ?? false;
    this.ownerTimeoutMs = opts.ownerTimeoutMs ?? 100;
    this.now = opts.now ?? epochNowMs;
    this.sharedClock = this.now === epochNowMs;
    this.metrics = new DistCacheMetrics(opts.registry);
    this.counts = new CacheCounters(this.metrics);
    this.health = new SelfHealth(this.metrics, () => Date.now(), opts.onSelfProblem);
    this.calls = new PeerCalls((id) => this.membership?.member(id)?.opsAddr, this.metrics, opts.keys);
    this.ring = new Ring([this.selfId]);
    this.table = new BucketTable({
      freshWindowMs: opts.handoverWindowMs ?? 5000,
      maxEntries: opts.limits?.maxBuckets,
      maxBytes: opts.limits?.maxBucketBytes,
      onEvict: (reason, n) => this.metrics.evictions.inc({ reason }, n),
    });
    this.handovers = new Handover({
      table: this.table,
      calls: this.calls,
      counts: this.counts,
      replicaCount: this.replicaCount,
      ownerTimeoutMs: this.ownerTimeoutMs,
      windowMs: opts.handoverWindowMs ?? 5000,
      id: () => this.selfId,
      ring: () => this.ring,
      now: () => this.now(),
    });
    this.owned = {
      has: (key) => this.table.has(key),
      minority: () => this.inMinority(),
      pull: (key, params) => this.handovers.pullFromPrevious(key, params),
      takeHere: (key, tokens, params, slot, nowMs) => this.takeHere(key, tokens, params, slot, nowMs),
      remoteTake: (holder, key, tokens, params) => this.remoteTake(holder, key, tokens, params),
    };
    this.handler = new PeerOpsHandler({
      table: this.table,
      handovers: this.handovers,
      counts: this.counts,
      metrics: this.metrics,
      now: () => this.now(),
      localTake: (key, tokens, params) => this.localTake(key, tokens, params),
    });
  }

  /** This member's id (derived at start when the options give a function). */
  get id(): string {
    return this.selfId;
  }

  /** Binds both addresses (a DistCacheBindError names the one that failed, and nothing stays bound), then joins nobody yet. */
  async start(): Promise<void> {
    const { ops, gossip, opsAddr, gossipAddr } = await listen({
      ...this.opts,
      handler: (op) => this.handler.serve(op),
      onPacket: (b) => this.wiring?.onPacket(b),
      onMalformed: () => this.counts.drop('malformed'),
      onRefused: (why) => {
        this.metrics.refusedConnections.inc({ reason: why });
        if (why === 'auth' || why === 'stale' || why === 'replay') this.metrics.authFailures.inc({ channel: 'ops', reason: why });
      },
    });
    this.ops = ops;
    this.gossip = gossip;
    this.opsAddr = opsAddr;
    this.gossipAddr = gossipAddr;
    if (typeof this.opts.id === 'function') {
      this.selfId = this.opts.id({ opsAddr: this.opsAddr, gossipAddr: this.gossipAddr });
      this.ring = new Ring([this.selfId]);
    }
    this.membership = new Membership({
      self: { id: this.id, gossipAddr: this.gossipAddr, opsAddr: this.opsAddr },
      incarnation: Date.now() % INCARNATION_MODULUS,
      ...this.opts.membership,
      admit: this.opts.admitOnlyPeers === true ? (u) => this.peers.admits(u.opsAddr, u.gossipAddr) : undefined,
      onRefused: () => this.metrics.refusedMembers.inc(),
      onRefute: () => this.health.refuted(),
    });
    this.wiring = new MembershipWiring(this.membership, gossip, {
      group: this.group,
      metrics: this.metrics,
      counts: this.counts,
      calls: this.calls,
      peers: this.peers,
      table: this.table,
      ready: this.ready,
      sender: () => ({ id: this.id, gossipAddr: this.gossipAddr }),
      sealer: this.opts.keys === undefined ? undefined : new PacketSealer(this.opts.keys),
      health: this.health,
      ring: () => this.ring,
      now: () => this.now(),
      rebuildRing: () => this.rebuildRing(),
    });
    this.wiring.updateGauges();
  }

  /** Leave the group (members learn it at once, not by timeout), then close. */
  async shutdown(): Promise<void> {
    this.wiring?.leave();
    await new Promise((r) => setTimeout(r, 20));
    this.calls.closeAll();
    await this.gossip?.close();
    await this.ops?.close();
  }

  // ---- peers (PeerSink) ----

  upsert(source: string, peer: PeerRecord): void {
    if (peer.group !== this.group || peer.id === this.id) return;
    this.peers.upsert(source, peer);
    const m = this.membership?.member(peer.id);
    if (this.membership !== undefined && (m === undefined || !holdsBuckets(m.state))) this.wiring?.dispatch(this.membership.join([peer.distCache.memberlistAddr]));
  }

  remove(source: string, id: string): void {
    this.peers.remove(source, id);
  }

  reset(source: string, peers: readonly PeerRecord[]): void {
    for (const id of this.peers.staleOf(source, new Set(peers.map((p) => p.id)))) this.remove(source, id);
    for (const p of peers) this.upsert(source, p);
  }

  /** Join through these membership addresses (static seeds). */
  join(memberlistAddrs: string[]): void {
    if (this.membership !== undefined) this.wiring?.dispatch(this.membership.join(memberlistAddrs));
  }

  /** Peers as discovery sources and gossip know them. */
  peerList(): PeerView[] {
    const membership = this.membership;
    return this.peers.list({
      group: this.group,
      member: (id) => membership?.member(id),
      view: () => membership?.view() ?? [],
      inRing: (id) => this.ring.has(id),
    });
  }

  // ---- placement ----

  currentRing(): Ring {
    return this.ring;
  }

  onRingChange(cb: (ring: Ring) => void): void {
    this.ringListeners.push(cb);
  }

  ownersOf(key: string): string[] {
    return this.ring.owners(key, this.replicaCount);
  }

  // ---- operations ----

  /**
   * Take on this member (it owns the key): no hop, unless the ring changed
   * lately and the state must first be pulled from the previous owner; while
   * that one still owns the key in its own view, the take goes to it. When the
   * key's state may still be on a member that does not answer, says so
   * (Unreached) instead of starting the bucket full: this member's stores
   * decide on their share, a take served for another member is answered
   * UNREACHED_ANSWER and the asking member decides on its share.
   *
   * `slot`, from this member's own stores, keeps the key's bucket between takes
   * (no lookup while it is held); `nowMs`, when given, is the caller's reading
   * of this cache's clock (see sharedClock).
   */
  localTake(key: string, tokens: number, params: TokenBucketParams, slot?: BucketSlot, nowMs?: number): TakeResult | Promise<TakeResult | Unreached> {
    this.counts.local++;
    return takeOwned(this.owned, key, tokens, params, slot, nowMs);
  }

  /**
   * A take on a bucket held here: counted every time, timed once in TIMED_LOCAL_TAKE_EVERY (a
   * map lookup and some arithmetic: two clock readings would cost as much as the take). Through
   * `slot`, the bucket it kept is taken from without a lookup; at `nowMs` when given.
   */
  private takeHere(key: string, tokens: number, params: TokenBucketParams, slot?: BucketSlot, nowMs?: number): TakeResult | Promise<TakeResult> {
    this.metrics.localTakes.inc();
    const timed = ++this.localTakes === TIMED_LOCAL_TAKE_EVERY;
    const started = timed ? performance.now() : 0;
    const now = nowMs ?? this.now();
    const r = slot === undefined ? this.table.take(key, tokens, params, now) : this.table.takeHeld(slot, tokens, params, now);
    if (timed) {
      this.localTakes = 0;
      this.metrics.takeDuration.local.observe((performance.now() - started) / 1000);
    }
    const confirmations = this.handovers.replicate(key, params);
    if (this.syncReplication && confirmations.length > 0) return Promise.allSettled(confirmations).then(() => r);
    return r;
  }

  async remoteTake(owner: string, key: string, tokens: number, params: TokenBucketParams, timeoutMs = this.ownerTimeoutMs): Promise<RemoteTake> {
    this.counts.remote++;
    const started = performance.now();
    try {
      const r = await this.calls.call(owner, { o: 'take', k: key, n: tokens, p: params }, timeoutMs);
      this.metrics.takeDuration.remote.observe((performance.now() - started) / 1000);
      return remoteTakeOf(r);
    } catch (e) {
      this.ownerFailed(owner, e);
      return { ok: false, reason: isTimeout(e) ? 'timeout' : 'error' };
    }
  }

  giveBack(key: string, tokens: number, params: TokenBucketParams): void {
    const owner = this.ring.owner(key);
    if (owner === undefined || owner === this.id) {
      this.table.giveBack(key, tokens);
      this.handovers.replicate(key, params);
      return;
    }
    this.calls.call(owner, { o: 'give', k: key, n: tokens, p: params }, this.ownerTimeoutMs).catch((e: unknown) => this.ownerFailed(owner, e));
  }

  /** Lazy sync: report `consumed` tokens to the owner; answers what the bucket has left (undefined: no answer). */
  async consume(key: string, consumed: number, params: TokenBucketParams): Promise<number | undefined> {
    const owner = this.ring.owner(key);
    if (owner === undefined || owner === this.id) {
      if (!this.table.has(key)) {
        const holder = (await this.handovers.pullFromPrevious(key, params))?.holder;
        if (holder !== undefined && !this.table.has(key)) {
          const r = await this.calls.call(holder, { o: 'consume', k: key, n: consumed, p: params }, this.ownerTimeoutMs).catch(() => undefined);
          if (r !== undefined && 'rem' in r) return r.rem;
        }
      }
      return this.table.consume(key, consumed, params, this.now());
    }
    try {
      const r = await this.calls.call(owner, { o: 'consume', k: key, n: consumed, p: params }, this.ownerTimeoutMs);
      return 'rem' in r ? r.rem : undefined;
    } catch (e) {
      this.ownerFailed(owner, e);
      return undefined;
    }
  }

  /** Tokens in a bucket, wherever it lives (undefined: no such bucket or no answer). */
  async read(key: string): Promise<number | undefined> {
    const owner = this.ring.owner(key);
    if (owner === undefined || owner === this.id) return this.table.snapshot(key, this.now())?.available;
    try {
      const r = await this.calls.call(owner, { o: 'read', k: key }, this.ownerTimeoutMs);
      return 's' in r && r.s !== null ? r.s.available : undefined;
    } catch {
      return undefined;
    }
  }

  setParams(prefix: string, params: TokenBucketParams): void {
    this.table.setParams(prefix, params);
  }

  /**
   * Members of the group this member counts on: itself, and every member the
   * membership knows that has not left (alive, suspect, or dead until reaped:
   * a dead member may be alive on the other side of a partition).
   */
  knownMembers(): number {
    return this.wiring?.known ?? 1;
  }

  /**
   * Whether this member's ring holds at most half of the members it counts
   * on: it may be cut off from the rest of the group, which goes on
   * enforcing the limits without it, so it must not take their keys over.
   * Suspects still count (they hold their keys): counting them out made
   * members of a healthy majority on a loaded machine, where a probe answered
   * late makes a suspect, decide as a minority whenever another member had
   * died (see the guide).
   */
  inMinority(): boolean {
    const known = this.knownMembers();
    return known > 1 && this.ring.members.length * 2 <= known;
  }

  /** Whether this member's own packets seem dropped by the group (why), or undefined. */
  selfProblem(): string | undefined {
    this.health.update();
    return this.health.problem;
  }

  /** A decision taken without the owner (on this agent's share, or rejected when fail-closed), and whether it admitted. */
  countFallback(reason: 'timeout' | 'error' | 'minority', mode: 'open' | 'closed', admitted: boolean): void {
    this.counts.fallback(reason, mode, admitted);
  }

  stats(): DistCacheStats {
    return collectStats({
      id: this.id, group: this.group, gossipAddr: this.gossipAddr, opsAddr: this.opsAddr, membership: this.membership,
      ring: this.ring, table: this.table, counts: this.counts, selfProblem: this.health.problem,
    });
  }

  // ---- internals ----

  /**
   * An owner that failed an operation is suspected (SWIM then confirms or it
   * refutes). Only a refused or broken connection (nothing listens there any
   * more: the process is gone) takes it out of the ring at once, so its keys
   * re-home now. A mere timeout does not: on a loaded machine a live owner
   * answers late, and re-homing its keys would start them full elsewhere.
   */
  private ownerFailed(id: string, e: unknown): void {
    if (!isTimeout(e) && this.ready.delete(id)) this.rebuildRing();
    this.membership?.suspect(id, this.now());
  }

  private rebuildRing(): void {
    const next = new Ring([this.id, ...this.ready]);
    if (next.sameAs(this.ring)) return;
    this.handovers.ringChanged();
    this.ring = next;
    this.handovers.rehome();
    this.wiring?.updateGauges();
    for (const cb of this.ringListeners) cb(this.ring);
  }
}
