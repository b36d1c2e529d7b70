// @sluice/distcache: membership, the hash ring and the distributed token-bucket store of an agent group.
// The simulated network and the member-process harness for tests and benches: @sluice/distcache/testing.
export { DistCache, type DistCacheOptions, type DistCacheStats } from './dist-cache.js';
export { DistCacheBindError, type DistCacheAddressKey } from './bind-error.js';
export { distributedStoreFactory, type DistributedStoreFactoryOptions } from './store/store-factory.js';
export { DistributedTokenBucketStore } from './store/distributed-store.js';
export { registerDistCacheRoutes, type RouteApp } from './routes.js';
export { EtcdPeerSource, type EtcdPeerSourceOptions, type PeerEtcd } from './membership/peers-etcd.js';
export type { PeerRecord, PeerSink, PeerSource } from './membership/peers.js';
export type { MembershipMessage } from './membership/messages.js';
export { encodePacket } from './membership/wire.js';
export { Ring } from './ring/ring.js';
export { advertised, splitHostPort } from './address.js';
export { Keyring, PacketSealer, keyringFrom, type KeySettings } from './transport/auth/index.js';
export { PeerClient, type PeerClientOptions } from './transport/ops-client.js';
export { OpsServer, type OpsServerOptions } from './transport/ops-server.js';
