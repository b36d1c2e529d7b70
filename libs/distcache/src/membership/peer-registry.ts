import type { MemberView } from './member.js';
import type { PeerRecord } from './peers.js';

/** One peer as `GET /v1/peers` shows it. */
export interface PeerView {
  id: string;
  group: string;
  advertisement_addr: string;
  dist_cache: { bind_addr: string; memberlist_addr: string };
  state: string;
  in_ring: boolean;
  sources: string[];
}

/** What the listing reads of membership and the ring. */
export interface PeerListContext {
  group: string;
  member(id: string): MemberView | undefined;
  /** Every member the membership knows (not this one). */
  view(): readonly MemberView[];
  inRing(id: string): boolean;
}

/**
 * The peers discovery sources report (etcd, the Kubernetes API), each with
 * the sources that know it: a peer is forgotten once no source knows it.
 * Membership, not this registry, decides who holds buckets; these are seeds.
 */
export class PeerRegistry {
  private readonly peers = new Map<string, { record: PeerRecord; sources: Set<string> }>();

  upsert(source: string, peer: PeerRecord): void {
    const cur = this.peers.get(peer.id);
    if (cur === undefined) this.peers.set(peer.id, { record: peer, sources: new Set([source]) });
    else {
      cur.record = peer;
      cur.sources.add(source);
    }
  }

  remove(source: string, id: string): void {
    const cur = this.peers.get(id);
    if (cur === undefined) return;
    cur.sources.delete(source);
    if (cur.sources.size === 0) this.peers.delete(id);
  }

  /** The ids `source` reported before that are not in `keep`. */
  staleOf(source: string, keep: ReadonlySet<string>): string[] {
    const out: string[] = [];
    for (const [id, p] of this.peers) if (p.sources.has(source) && !keep.has(id)) out.push(id);
    return out;
  }

  /** Whether a source lists a peer at these addresses (its counter and membership addresses both). */
  admits(opsAddr: string, gossipAddr: string): boolean {
    for (const { record } of this.peers.values()) {
      if (record.distCache.bindAddr === opsAddr && record.distCache.memberlistAddr === gossipAddr) return true;
    }
    return false;
  }

  /** The peer a source lists with this id or at this membership address, if any. */
  claims(id: string, gossipAddr: string): PeerRecord | undefined {
    for (const { record } of this.peers.values()) if (record.id === id || record.distCache.memberlistAddr === gossipAddr) return record;
    return undefined;
  }

  records(): IterableIterator<PeerRecord> {
    return [...this.peers.values()].map((p) => p.record)[Symbol.iterator]();
  }

  /** Peers the sources know, then members known from gossip only, sorted by id. */
  list(ctx: PeerListContext): PeerView[] {
    const out: PeerView[] = [];
    for (const [id, p] of this.peers) {
      const m = ctx.member(id);
      out.push({
        id, group: p.record.group, advertisement_addr: p.record.advertisementAddr,
        dist_cache: { bind_addr: m?.opsAddr ?? p.record.distCache.bindAddr, memberlist_addr: m?.gossipAddr ?? p.record.distCache.memberlistAddr },
        state: m?.state ?? 'unknown', in_ring: ctx.inRing(id), sources: [...p.sources].sort(),
      });
    }
    for (const m of ctx.view()) {
      if (this.peers.has(m.id)) continue;
      out.push({
        id: m.id, group: ctx.group, advertisement_addr: '', dist_cache: { bind_addr: m.opsAddr, memberlist_addr: m.gossipAddr },
        state: m.state, in_ring: ctx.inRing(m.id), sources: ['gossip'],
      });
    }
    return out.sort((a, b) => a.id.localeCompare(b.id));
  }
}
