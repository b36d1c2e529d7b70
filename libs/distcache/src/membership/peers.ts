import type { Lifecycle } from '@sluice/lifecycle';
/** A peer as a discovery source reports it. */
export interface PeerRecord {
  readonly id: string;
  readonly group: string;
  /** `peer_discovery.advertisement_addr`: the agent's server, as others dial it. */
  readonly advertisementAddr: string;
  readonly distCache: {
    /** Counter operations (`dist_cache.bind_addr`, as advertised). */
    readonly bindAddr: string;
    /** Membership (`dist_cache.memberlist_advertise_addr`, else the bound memberlist address). */
    readonly memberlistAddr: string;
  };
}

/** Where discovery sources report peers (the distributed cache). */
export interface PeerSink {
  upsert(source: string, peer: PeerRecord): void;
  remove(source: string, id: string): void;
  /** The source's full list (a resync): peers it no longer reports are removed. */
  reset(source: string, peers: readonly PeerRecord[]): void;
}

/**
 * A way to find peers: etcd (peers-etcd.ts), the Kubernetes API (libs/kube
 * feeds a sink), static seeds. A source only seeds membership: a peer joins
 * the ring once its counter port answers.
 */
export interface PeerSource extends Pick<Lifecycle, 'shutdown'> {
  readonly name: string;
  start(sink: PeerSink): void | Promise<void>;
}

/** Parse a peer record stored as JSON; undefined when it is not one. */
export function parsePeerRecord(raw: string): PeerRecord | undefined {
  let x: unknown;
  try {
    x = JSON.parse(raw);
  } catch {
    return undefined;
  }
  if (typeof x !== 'object' || x === null) return undefined;
  const r = x as Record<string, unknown>;
  const dc = r.dist_cache as Record<string, unknown> | undefined;
  if (typeof r.id !== 'string' || typeof r.group !== 'string' || typeof r.advertisement_addr !== 'string') return undefined;
  if (typeof dc !== 'object' || dc === null || typeof dc.bind_addr !== 'string' || typeof dc.memberlist_addr !== 'string') return undefined;
  return { id: r.id, group: r.group, advertisementAddr: r.advertisement_addr, distCache: { bindAddr: dc.bind_addr, memberlistAddr: dc.memberlist_addr } };
}

/** A peer record as stored (snake_case JSON, like the rest of the published keys). */
export function peerRecordJson(p: PeerRecord): string {
  return JSON.stringify({
    id: p.id,
    group: p.group,
    advertisement_addr: p.advertisementAddr,
    dist_cache: { bind_addr: p.distCache.bindAddr, memberlist_addr: p.distCache.memberlistAddr },
  });
}
