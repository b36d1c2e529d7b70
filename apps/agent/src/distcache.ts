import os from 'node:os';
import type { DistCacheConfig, PeerDiscoveryConfig } from '@sluice/config';
import { DistCache, EtcdPeerSource, advertised, distributedStoreFactory, registerDistCacheRoutes, splitHostPort, type PeerEtcd } from '@sluice/distcache';
import type { ProcessRuntime } from '@sluice/runtime';

export interface AgentDistCache {
  readonly cache: DistCache;
  /** The token-bucket stores of published rate limiters, shared by the group (for PolicyEnforcement's `tokenBucketStore`). */
  readonly storeFactory: ReturnType<typeof distributedStoreFactory>;
}

/**
 * Wires the distributed counter cache (`dist_cache.*`, `peer_discovery.*`):
 * the member joins its group's peers found in etcd (`<ns>/peers/<group>/<id>`
 * on the lease), serves `GET /v1/peers` and `GET /v1/distcache/stats`, starts
 * after etcd and leaves the group (then deletes its peer key) before etcd stops.
 * The agent's id is its advertised server address: unique per agent, the same
 * after a restart.
 */
export function installDistCache(
  runtime: ProcessRuntime, etcd: PeerEtcd, agentGroup: string, listenerAddr: string, dc: DistCacheConfig, pd: PeerDiscoveryConfig,
): AgentDistCache {
  const listener = splitHostPort(listenerAddr);
  const advertisementAddr = advertised(pd.advertisement_addr, listener.host, listener.port);
  const cache = new DistCache({
    id: advertisementAddr === '' ? os.hostname() : advertisementAddr,
    group: agentGroup,
    bindAddr: dc.bind_addr,
    memberlistBindAddr: dc.memberlist_bind_addr,
    memberlistAdvertiseAddr: dc.memberlist_advertise_addr,
    replicaCount: dc.replica_count,
    syncReplication: dc.sync_replication,
    registry: runtime.registry,
  });
  let source: EtcdPeerSource | undefined;
  runtime.lifecycle.add({
    name: 'dist-cache',
    start: async () => {
      await cache.start();
      source = new EtcdPeerSource({
        etcd,
        self: { id: cache.id, group: agentGroup, advertisementAddr, distCache: { bindAddr: cache.opsAddr, memberlistAddr: cache.gossipAddr } },
        onBadRecord: (key) => runtime.logger.warn('peer record ignored', { key }),
      });
      await source.start(cache);
      runtime.logger.info('dist cache started', { id: cache.id, bind_addr: cache.opsAddr, memberlist_addr: cache.gossipAddr });
    },
    shutdown: async () => {
      await cache.shutdown();
      await source?.stop();
    },
  });
  registerDistCacheRoutes(runtime.server.app, cache);
  return { cache, storeFactory: distributedStoreFactory(cache) };
}
