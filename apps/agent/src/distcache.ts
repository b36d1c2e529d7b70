import type { Lifecycle } from '@sluice/lifecycle';
import type { DistCacheConfig, PeerDiscoveryConfig } from '@sluice/config';
import { envNameOf, parseDuration } from '@sluice/config';
import {
  DistCache, DistCacheBindError, EtcdPeerSource, advertised, distributedStoreFactory, keyringFrom, registerDistCacheRoutes, splitHostPort, type PeerEtcd,
} from '@sluice/distcache';
import { UnavailableError, ErrorCode } from '@sluice/errors';
import type { ProcessRuntime } from '@sluice/runtime';
import type { KubePeerSink } from '@sluice/kube';

export interface AgentDistCache {
  readonly cache: DistCache;
  /** The token-bucket stores of published rate limiters, shared by the group (for PolicyEnforcement's `tokenBucketStore`). */
  readonly storeFactory: ReturnType<typeof distributedStoreFactory>;
}

/**
 * Wires the distributed counter cache (`dist_cache.*`, `peer_discovery.*`):
 * the member joins its group's peers found in etcd (`<ns>/peers/<group>/<id>`
 * on the lease) and, with a Kubernetes API, the ready endpoints of its peers Service, serves `GET /v1/peers` and `GET /v1/distcache/stats`, starts
 * after etcd and leaves the group (then deletes its peer key) before etcd stops.
 * The agent's id is its advertised server address (unique per agent, the same
 * after a restart); when the listener's port is 0 (known only once bound) it
 * is the advertised counter address instead. Call it after installEtcd and
 * before installPolicies. Without a key (`dist_cache.auth`) while a port is
 * bound beyond loopback, it throws (SLUICE_ERR_DISTCACHE_AUTH) unless
 * `dist_cache.auth.insecure` is set.
 */
export function installDistCache(
  runtime: ProcessRuntime, etcd: PeerEtcd, agentGroup: string, listenerAddr: string, dc: DistCacheConfig, pd: PeerDiscoveryConfig,
  kubePeers: (sink: KubePeerSink) => Promise<Lifecycle | undefined>,
): AgentDistCache {
  const listener = splitHostPort(listenerAddr);
  const advertisementAddr = advertised(pd.advertisement_addr, listener.host, listener.port);
  const serverKnown = splitHostPort(advertisementAddr).port !== 0;
  const keys = keyringFrom({
    keyFile: dc.auth.key_file,
    keys: dc.auth.keys,
    insecure: dc.auth.insecure,
    bound: { 'dist_cache.bind_addr': dc.bind_addr, 'dist_cache.memberlist_bind_addr': dc.memberlist_bind_addr },
    name: (path) => `${path} (${envNameOf('SLUICE_AGENT_', path)})`,
  });
  // Keys read from dist_cache.auth.key_file are secrets too: crash reports never carry them.
  if (keys !== undefined) runtime.addSecrets(keys.keys.map((k) => k.toString('utf8')));
  if (keys === undefined && dc.auth.insecure) runtime.logger.warn('dist cache runs without keys: anyone who reaches its ports can join the group and set limits', { bind_addr: dc.bind_addr });
  const cache = new DistCache({
    id: serverKnown ? advertisementAddr : ({ opsAddr }) => opsAddr,
    group: agentGroup,
    bindAddr: dc.bind_addr,
    memberlistBindAddr: dc.memberlist_bind_addr,
    memberlistAdvertiseAddr: dc.memberlist_advertise_addr,
    replicaCount: dc.replica_count,
    syncReplication: dc.sync_replication,
    registry: runtime.registry,
    keys,
    // Members are learnt only when etcd's peer keys or the Kubernetes API list them at their addresses.
    admitOnlyPeers: true,
    onSelfProblem: (problem) => {
      if (problem === undefined) runtime.logger.info('dist cache: the group hears this agent again');
      else runtime.logger.warn('dist cache: this agent\'s own packets seem dropped by the group', { problem });
    },
    limits: {
      maxBuckets: dc.max_buckets,
      maxBucketBytes: dc.max_bucket_bytes,
      maxConnections: dc.max_connections,
      idleTimeoutMs: parseDuration(dc.idle_timeout),
    },
  });
  let source: EtcdPeerSource | undefined;
  let kubePeerSource: Lifecycle | undefined;
  runtime.lifecycle.add({
    name: 'dist-cache',
    start: async () => {
      try {
        await cache.start();
      } catch (e) {
        throw e instanceof DistCacheBindError ? bindProblem(e) : e;
      }
      source = new EtcdPeerSource({
        etcd,
        self: { id: cache.id, group: agentGroup, advertisementAddr, distCache: { bindAddr: cache.opsAddr, memberlistAddr: cache.gossipAddr } },
        onBadRecord: (key) => runtime.logger.warn('peer record ignored', { key }),
      });
      await source.start(cache);
      // With a Kubernetes API, the peers Service's ready endpoints seed membership too (source `kubernetes`).
      kubePeerSource = await kubePeers(cache);
      runtime.logger.info('dist cache started', { id: cache.id, group: agentGroup, bind_addr: cache.opsAddr, memberlist_addr: cache.gossipAddr, authenticated: keys !== undefined, keys: keys?.keys.length ?? 0 });
    },
    shutdown: async () => {
      await kubePeerSource?.shutdown();
      await cache.shutdown();
      await source?.shutdown();
    },
  });
  registerDistCacheRoutes(runtime.server.app, cache);
  // Not ready while the group seems to drop this agent's packets (see self_problem in the stats).
  runtime.addReadinessJob({
    name: 'dist-cache-membership',
    run: () => {
      const problem = cache.selfProblem();
      return problem === undefined ? { healthy: true } : { healthy: false, message: problem };
    },
  });
  return { cache, storeFactory: distributedStoreFactory(cache) };
}

/** A taken dist-cache port, said with the key and its variable, e.g. when two agents share a host. */
function bindProblem(e: DistCacheBindError): UnavailableError {
  const path = `dist_cache.${e.key}`;
  return new UnavailableError(
    `${path} (${envNameOf('SLUICE_AGENT_', path)}) ${e.addr}: cannot listen: ${e.reason}; give each agent on a host its own dist-cache ports`,
    ErrorCode.DISTCACHE_BIND, e,
  );
}

/** The dist cache's keys are missing (a port beyond loopback) or bad: a configuration problem. */
export function isDistCacheKeyProblem(err: unknown): boolean {
  return (err as { code?: unknown } | undefined)?.code === ErrorCode.DISTCACHE_AUTH;
}
