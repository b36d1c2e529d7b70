import type { Membership } from './membership.js';
import { holdsBuckets, type MemberState } from './member.js';
import type { Outbound, Sender } from './messages.js';
import { decodePacket, encodePacket } from './wire.js';
import type { GossipTransport } from './gossip-transport.js';
import type { BucketTable } from '../store/bucket-table.js';
import type { Ring } from '../ring/ring.js';
import type { DistCacheMetrics } from '../metrics.js';
import type { CacheCounters } from '../cache-counters.js';
import type { PeerCalls } from '../transport/peer-calls.js';
import type { PeerRegistry } from './peer-registry.js';
import { claimedSender, type PacketSealer } from '../transport/auth/index.js';
import type { SelfHealth } from './self-health.js';

/** What the membership wiring uses of its member. */
export interface MembershipWiringHost {
  readonly group: string;
  readonly metrics: DistCacheMetrics;
  readonly counts: CacheCounters;
  readonly calls: PeerCalls;
  readonly peers: PeerRegistry;
  readonly table: BucketTable;
  /** Members whose counter port answered: the ring is this member and these. */
  readonly ready: Set<string>;
  /** This member as it signs its packets. */
  sender(): Sender;
  /** With the group's keys: packets are sealed on the way out and opened (or dropped) on the way in. */
  readonly sealer?: PacketSealer;
  /** Told of refutations and of packets that fail authentication while claiming a peer's or this member's identity. */
  readonly health?: SelfHealth;
  ring(): Ring;
  now(): number;
  /** Rebuild the ring over this member and the ready ones (nothing when it did not change). */
  rebuildRing(): void;
}

/** The tick while the membership has members, probes or forwards: probe timeouts are hundreds of ms. */
export const TICK_MS = 20;
/** The tick of a member alone (Membership.quiet): seeds are looked for every second either way. */
export const QUIET_TICK_MS = 250;

/**
 * The membership of a started member wired to its gossip transport: packets
 * in and out, the periodic tick (seeds from discovery, reaping), members put
 * in the ring once their counter port answers, and the membership gauges.
 * A member alone ticks every QUIET_TICK_MS instead of every TICK_MS (an agent
 * without peers wakes 4 times a second, not 50); a packet, a join or a member
 * change brings the fast tick back at once.
 */
export class MembershipWiring {
  private ticker: NodeJS.Timeout | undefined;
  private tickerMs = 0;
  private stopped = false;
  private readonly probing = new Set<string>();
  private nextSeedMs = 0;
  private knownCount = 1;

  constructor(
    readonly membership: Membership,
    private readonly gossip: GossipTransport,
    private readonly host: MembershipWiringHost,
  ) {
    membership.onChange((m, prev) => this.onMemberChange(m.id, m.state, prev));
    this.schedule();
  }

  /** The current tick period (TICK_MS or QUIET_TICK_MS; 0 once stopped). */
  get tickPeriodMs(): number {
    return this.stopped ? 0 : this.tickerMs;
  }

  /** Arms the next tick, slow when the membership is quiet. */
  private schedule(): void {
    if (this.stopped) return;
    const ms = this.membership.quiet ? QUIET_TICK_MS : TICK_MS;
    this.tickerMs = ms;
    this.ticker = setTimeout(() => {
      this.ticker = undefined;
      this.tick();
      this.schedule();
    }, ms);
    this.ticker.unref();
  }

  /** Brings the fast tick back when the slow one is armed and the membership is no longer quiet. */
  private hurry(): void {
    if (this.stopped || this.tickerMs === TICK_MS || this.membership.quiet) return;
    clearTimeout(this.ticker);
    this.schedule();
  }

  /** Members this one counts on: itself and every member not known to have left (alive, suspect, dead until reaped). */
  get known(): number {
    return this.knownCount;
  }

  /** Stop ticking and leave the group (members learn it at once, not by timeout). */
  leave(): void {
    this.stopped = true;
    clearTimeout(this.ticker);
    this.ticker = undefined;
    this.dispatch(this.membership.leave(this.host.now()));
  }

  onPacket(packet: Buffer): void {
    let bytes = packet;
    const { sealer } = this.host;
    if (sealer !== undefined) {
      const opened = sealer.open(packet, Date.now());
      if (!opened.ok) {
        this.host.counts.drop(opened.reason);
        this.host.metrics.authFailures.inc({ channel: 'membership', reason: opened.reason });
        if (opened.reason === 'auth') this.claimedBy(packet);
        return;
      }
      bytes = opened.payload;
      this.host.health?.authOk();
    }
    const d = decodePacket(this.host.group, bytes);
    if (!d.ok) {
      this.host.counts.drop(d.reason);
      return;
    }
    this.dispatch(this.membership.receive(d.msg, d.from, this.host.now()));
    this.hurry();
  }

  /** Who a packet that failed authentication claims to come from: this member, or a peer discovery lists. */
  private claimedBy(packet: Buffer): void {
    const claim = claimedSender(packet);
    if (claim === undefined || this.host.health === undefined) return;
    const self = this.host.sender();
    if (claim.id === self.id || claim.gossipAddr === self.gossipAddr) this.host.metrics.authFailures.inc({ channel: 'membership', reason: 'claims_self' });
    else if (this.host.peers.claims(claim.id, claim.gossipAddr) !== undefined) this.host.health.authFailed(claim.id);
  }

  dispatch(out: Outbound[]): void {
    if (out.length === 0) return;
    const from = this.host.sender();
    for (const o of out) {
      const plain = encodePacket(this.host.group, from, o.msg);
      const bytes = this.host.sealer === undefined ? plain : this.host.sealer.seal(plain, Date.now());
      if (o.reliable) this.gossip.sendTcp(o.to, bytes);
      else this.gossip.sendUdp(o.to, bytes);
    }
  }

  updateGauges(): void {
    const { metrics, table } = this.host;
    const byState: Record<string, number> = { alive: 1, suspect: 0, dead: 0, left: 0 };
    for (const m of this.membership.view()) byState[m.state] = (byState[m.state] ?? 0) + 1;
    this.knownCount = byState.alive + byState.suspect + byState.dead;
    for (const [state, n] of Object.entries(byState)) metrics.members.set({ state }, n);
    metrics.ringMembers.set(this.host.ring().members.length);
    metrics.keys.set({ role: 'owner' }, table.count('owner'));
    metrics.keys.set({ role: 'replica' }, table.count('replica'));
    metrics.bucketBytes.set(table.bytes);
  }

  private tick(): void {
    const now = this.host.now();
    this.host.health?.update();
    this.dispatch(this.membership.tick(now));
    if (now >= this.nextSeedMs) {
      this.nextSeedMs = now + 1000;
      const seeds: string[] = [];
      for (const p of this.host.peers.records()) {
        const m = this.membership.member(p.id);
        if (m === undefined || !holdsBuckets(m.state)) seeds.push(p.distCache.memberlistAddr);
      }
      if (seeds.length > 0) this.dispatch(this.membership.join(seeds));
      this.countKnown(); // reaped members leave the count here (reaping changes no state)
      for (const m of this.membership.view()) if (holdsBuckets(m.state) && !this.host.ready.has(m.id)) this.probeReady(m.id);
    }
  }

  private onMemberChange(id: string, state: MemberState, _prev: MemberState | undefined): void {
    this.hurry();
    if (holdsBuckets(state)) {
      if (!this.host.ready.has(id)) this.probeReady(id);
    } else {
      if (this.host.ready.delete(id)) this.host.rebuildRing();
      const addr = this.membership.member(id)?.opsAddr;
      if (addr !== undefined) this.host.calls.forget(addr);
    }
    this.updateGauges();
  }

  /** A member joins the ring only once its counter port answers. */
  private probeReady(id: string): void {
    if (this.probing.has(id)) return;
    this.probing.add(id);
    this.host.calls.call(id, { o: 'ping' }, 500)
      .then(() => {
        const m = this.membership.member(id);
        if (m !== undefined && holdsBuckets(m.state) && !this.host.ready.has(id)) {
          this.host.ready.add(id);
          this.host.rebuildRing();
        }
      })
      .catch(() => undefined)
      .finally(() => this.probing.delete(id));
  }

  private countKnown(): void {
    let n = 1;
    for (const m of this.membership.view()) if (m.state !== 'left') n++;
    this.knownCount = n;
  }
}
