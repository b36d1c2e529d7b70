// @sluice/distcache: membership, the hash ring and the distributed token-bucket store of an agent group.
export {};
