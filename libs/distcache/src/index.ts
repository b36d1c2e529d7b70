// @sluice/distcache: membership, the hash ring and the distributed token-bucket store of an agent group.
export { DistCache, type DistCacheOptions, type DistCacheLimits, type DistCacheStats, type MemberInfo, type MembershipTimings, type RemoteTake } from './dist-cache.js';
export { DistCacheBindError, type DistCacheAddressKey } from './bind-error.js';
export { DistributedTokenBucketStore, type DistributedStoreOptions } from './distributed-store.js';
export { LazySyncStore, type LazySyncStoreOptions } from './lazy-sync-store.js';
export { Membership, type MembershipOptions, type MembershipListener } from './membership.js';
export type { MemberState, MemberAddress, MemberUpdate, MemberView } from './member.js';
export type { MembershipMessage, Outbound, Sender } from './messages.js';
export { Ring, RING_VNODES } from './ring.js';
export { MEMBERSHIP_PROTOCOL_VERSION, decodePacket, encodePacket, type DropReason } from './wire.js';
export { DistCacheMetrics } from './metrics.js';
export { parsePeerRecord, peerRecordJson, type PeerRecord, type PeerSink, type PeerSource } from './peers.js';
export { advertised, hostAddress, splitHostPort } from './address.js';
export { EtcdPeerSource, type EtcdPeerSourceOptions, type PeerEtcd } from './peers-etcd.js';
export { distributedStoreFactory, type DistributedStoreFactoryOptions } from './store-factory.js';
export { HarnessProcess, HARNESS_SCRIPT, type HarnessReady } from './harness-client.js';
export { registerDistCacheRoutes, PEERS_PATH, DISTCACHE_STATS_PATH, type RouteApp } from './routes.js';
export { Keyring, parseKeys, MIN_KEY_BYTES, PacketSealer, HelloVerifier, OpsChannel, clientHello, keyringFrom, isLoopbackBind, type KeySettings } from './auth/index.js';
