import type { DistCache } from './dist-cache.js';

/** The little of an express app the routes need. */
export interface RouteApp {
  get(path: string, handler: (req: unknown, res: { json(body: unknown): unknown }) => void): unknown;
}

export const PEERS_PATH = '/v1/peers';
export const DISTCACHE_STATS_PATH = '/v1/distcache/stats';

/**
 * `GET /v1/peers`: each peer with its id, group, advertised address,
 * dist-cache addresses, state, whether it is in the ring and the sources that
 * found it. `GET /v1/distcache/stats`: members, keys owned, replicas held,
 * operations, fallbacks, the members it counts on and whether its ring holds
 * a minority of them (then every take is decided on this agent's share).
 */
export function registerDistCacheRoutes(app: RouteApp, cache: DistCache): void {
  app.get(PEERS_PATH, (_req, res) => {
    res.json({ self: { id: cache.id, group: cache.group, dist_cache: { bind_addr: cache.opsAddr, memberlist_addr: cache.gossipAddr } }, peers: cache.peerList() });
  });
  app.get(DISTCACHE_STATS_PATH, (_req, res) => {
    const s = cache.stats();
    res.json({
      id: s.id,
      group: s.group,
      members: s.members.map((m) => ({ id: m.id, state: m.state, incarnation: m.incarnation, memberlist_addr: m.gossipAddr, bind_addr: m.opsAddr, in_ring: m.inRing })),
      ring: s.ring,
      known_members: cache.knownMembers(),
      minority: cache.inMinority(),
      keys_owned: s.keysOwned,
      replicas_held: s.replicasHeld,
      operations: s.operations,
      fallbacks: s.fallbacks,
      fallbacks_admitted: s.fallbacksAdmitted,
      handovers: s.handovers,
      dropped_packets: s.droppedPackets,
      self_problem: s.selfProblem,
      buckets: s.buckets,
      bucket_bytes: s.bucketBytes,
    });
  });
}
